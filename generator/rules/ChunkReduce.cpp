// Blocking a sequential reduction (docs/strategies.md, "Blocking the loop over
// k"): splitReduceSeq cuts a reduceSeq into chunks of c elements and a tail of
// n % c, and fissionReduceInit separates the initial values of a map of
// reductions from the reductions themselves, so that liftReduce can then lift
// the loop over the chunks out of the map. In the register-tiled mm the map is
// the one over the blocks of a group: each step of the lifted loop runs every
// block's register tile over the same c rows of B's packed panel, which stay
// in the L1 cache, instead of streaming the whole panel once per block.
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// reduceSeq(f)(init)(xs), xs: n.t
///   -> drop(c*(n/c))(xs) |> reduceSeq(f)(split(c)(take(c*(n/c))(xs)) |>
///        reduceSeq(fun(acc, ch => reduceSeq(f)(acc)(ch)))(init))
/// f is applied to the same elements in the same order, from the same
/// initial value, so the result is the same bit for bit, for any f. The tail
/// (the last n % c elements) is left out when n is a multiple of c.
RuleFn splitReduceSeq(std::int64_t c) {
  return [c](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (c < 1 || !isPrim(s.head, Prim::ReduceSeq) || s.args.size() != 3)
      return std::nullopt;
    const Type& t = s.args[2]->type();
    if (!t || t->kind() != TypeKind::Array)
      return std::nullopt;
    const Expr &f = s.args[0], &init = s.args[1], &xs = s.args[2];
    Nat n = t->size();
    Nat whole = wholeMultiple(n, c);
    std::string acc = ctx.names.fresh("acc"), ch = ctx.names.fresh("chunk");
    Expr chunkStep = lam(acc, lam(ch, app(prim(Prim::ReduceSeq), f, var(acc), var(ch))));
    Expr chunks = app(depNat(prim(Prim::Split), c), app(depArg(prim(Prim::Take), whole), xs));
    Expr main = app(prim(Prim::ReduceSeq), chunkStep, init, chunks);
    if ((n - whole)->isConst(0))
      return main;
    return app(prim(Prim::ReduceSeq), f, main, app(depArg(prim(Prim::Drop), whole), xs));
  };
}

/// map(fun(x => reduceSeq(f)(i)(e)))(xs)   (x not free in f, free in i)
///   -> zip(toMem(map(fun(x => i))(xs)))(map(fun(x => e))(xs)) |>
///        map(fun(p => reduceSeq(f)(fst(p))(snd(p))))
/// (xs itself for map(fun(x => x))(xs)). Row j of both sides is f folded over
/// e[x := xs[j]] from i[x := xs[j]].
std::optional<Expr> fissionReduceInit(const Expr& e, RuleContext& ctx) {
  Spine m = spineOf(e);
  if (!isPrim(m.head, Prim::Map) || !m.depArgs.empty() || m.args.size() != 2 ||
      m.args[0]->kind() != ExprKind::Lambda)
    return std::nullopt;
  const std::string& x = m.args[0]->name();
  Spine r = spineOf(m.args[0]->body());
  if (!isPrim(r.head, Prim::ReduceSeq) || !r.depArgs.empty() || r.args.size() != 3 ||
      occursFree(x, r.args[0]) || !occursFree(x, r.args[1]))
    return std::nullopt;
  const Expr& xs = m.args[1];
  std::string p = ctx.names.fresh("p");
  // the initial values are computed into memory before the reductions read
  // them (zip would otherwise be stored whole, arrays inside pairs)
  Expr inits = app(prim(Prim::ToMem), app(prim(Prim::Map), lam(x, r.args[1]), xs));
  bool identity = r.args[2]->kind() == ExprKind::Var && r.args[2]->name() == x;
  Expr rows = identity ? xs : app(prim(Prim::Map), lam(x, r.args[2]), xs);
  Expr reduce = lam(p, app(prim(Prim::ReduceSeq), r.args[0], app(prim(Prim::Fst), var(p)),
                           app(prim(Prim::Snd), var(p))));
  return app(prim(Prim::Map), reduce, app(prim(Prim::Zip), inits, rows));
}

} // namespace

void registerChunkReduceRules(RuleRegistry& r) {
  r.add(RuleInfo{"splitReduceSeq",
                 "algorithmic",
                 {ParamKind::Int},
                 "reduceSeq(f)(init)(xs)   (xs: n.t)",
                 "drop(c*(n/c))(xs) |> reduceSeq(f)(split(c)(take(c*(n/c))(xs)) |> "
                 "reduceSeq(fun(acc, ch => reduceSeq(f)(acc)(ch)))(init))   (the same steps in "
                 "the same order; no tail when c divides n)",
                 [](const std::vector<RuleArg>& a) { return splitReduceSeq(intArg(a, 0)); }});
  r.add(simpleRule("fissionReduceInit", "algorithmic",
                   "map(fun(x => reduceSeq(f)(i)(e)))(xs)   (x not free in f, free in i)",
                   "zip(toMem(map(fun(x => i))(xs)))(map(fun(x => e))(xs)) |> map(fun(p => "
                   "reduceSeq(f)(fst(p))(snd(p))))",
                   fissionReduceInit));
}

} // namespace risec::rules
