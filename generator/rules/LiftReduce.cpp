// liftReduce: a map of reductions (one per row of a matrix) becomes one
// reduction over the columns whose accumulator is an array, combined
// element by element. The first step from the dot products of mm towards a
// register-tiled micro-kernel (docs/strategies.md, "The mm ladder"): the
// accumulator of a tile of C becomes one value that the tile's loop over k
// updates.
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// `f` as a function of `x` that reduces one array: `fun(x =>
/// reduce(op)(init)(e))` (or `reduceSeq`) with `op` and `init` independent of
/// `x`, or `reduce(op)(init)` itself. `rows` maps `xs` to the arrays reduced:
/// `xs` itself when `e` is `x` or there is no lambda, else
/// `map(fun(x => e))(xs)`.
struct RowReduce {
  Expr head; ///< the reduce primitive (`reduce` or `reduceSeq`)
  Expr op;
  Expr init;
  std::optional<Expr> rowFun; ///< fun(x => e), when e is not x itself
};

std::optional<RowReduce> rowReduce(const Expr& f) {
  Expr body = f;
  std::optional<std::string> x;
  if (f->kind() == ExprKind::Lambda) {
    x = f->name();
    body = f->body();
  }
  Spine r = spineOf(body);
  if (!(isPrim(r.head, Prim::Reduce) || isPrim(r.head, Prim::ReduceSeq)) || !r.depArgs.empty())
    return std::nullopt;
  if (!x)
    return r.args.size() == 2 ? std::optional(RowReduce{r.head, r.args[0], r.args[1], {}})
                              : std::nullopt;
  if (r.args.size() != 3 || occursFree(*x, r.args[0]) || occursFree(*x, r.args[1]))
    return std::nullopt;
  const Expr& e = r.args[2];
  bool identity = e->kind() == ExprKind::Var && e->name() == *x;
  return RowReduce{r.head, r.args[0], r.args[1],
                   identity ? std::nullopt : std::optional(lam(*x, e))};
}

/// map(fun(x => reduce(op)(init)(e)))(xs)
///   -> transpose(map(fun(x => e))(xs)) |> reduce(fun(acc, y => zip(acc)(y) |>
///        map(fun(p => op(fst(p))(snd(p))))))(generate(fun(i => init)))
/// (just transpose(xs) when e is x). With rows = map(fun(x => e))(xs): n.k.s,
/// row i of the result is op folded over rows[i][0], ..., rows[i][k-1] from init
/// on both sides, in the same order: no associativity is needed, and the
/// primitive (`reduce` or `reduceSeq`) is kept.
std::optional<Expr> liftReduce(const Expr& e, RuleContext& ctx) {
  Spine m = spineOf(e);
  if (!isPrim(m.head, Prim::Map) || !m.depArgs.empty() || m.args.size() != 2)
    return std::nullopt;
  auto r = rowReduce(m.args[0]);
  if (!r)
    return std::nullopt;
  Expr rows = r->rowFun ? app(prim(Prim::Map), *r->rowFun, m.args[1]) : m.args[1];
  std::string acc = ctx.names.fresh("acc"), y = ctx.names.fresh("y"), p = ctx.names.fresh("p"),
              i = ctx.names.fresh("ix"); // not "i": i8, i16, ... are type names
  Expr combine = lam(p, app(r->op, app(prim(Prim::Fst), var(p)), app(prim(Prim::Snd), var(p))));
  Expr op = lam(acc, lam(y, app(prim(Prim::Map), combine, app(prim(Prim::Zip), var(acc), var(y)))));
  Expr init = app(prim(Prim::Generate), lam(i, r->init));
  return app(r->head, op, init, app(prim(Prim::Transpose), rows));
}

} // namespace

void registerLiftReduceRules(RuleRegistry& r) {
  r.add(simpleRule(
      "liftReduce", "algorithmic", "map(fun(x => reduce(op)(init)(e)))(xs)",
      "transpose(map(fun(x => e))(xs)) |> reduce(fun(acc, y => zip(acc)(y) |> map(fun(p => "
      "op(fst(p))(snd(p))))))(generate(fun(i => init)))   (x not free in op, init; transpose(xs) "
      "when e is x; also reduceSeq)",
      liftReduce));
}

} // namespace risec::rules
