// reorder over a loop nest of maps and reductions, as Shine's ICFP 2020
// strategy of that name (rise/elevate/strategies/algorithmic.scala): the
// loops of the nest are numbered from the outside (1 = the outermost), and
// reorder([1, 2, 5, 6, 3, 4]) moves the reductions at depths 5 and 6 up
// above the maps at depths 3 and 4. Only reductions move up (as in Shine);
// a permutation of maps alone is risec's own reorder (Tiling.cpp), which
// tries first.
//
// The program is first brought into the form Shine's reorder expects
// (normForReorder: a split moved before the map that computes its input,
// the maps that feed reductions fused into them, then RNF), so that the nest
// is a chain `map(fun(a => map(fun(b => ... reduceSeq(op)(init)(z))(b)))(a))`
// over one array of views. A reduction moves up one map at a time:
//
//   map(fun(x => reduceSeq(op)(init)(s)))(xs)
//     -> transpose(map(fun(x => s))(xs)) |> reduceSeq(fun(acc, y =>
//          zip(acc, y) |> map(fun(p => op(fst(p))(snd(p))))))(I)
//
// with I = generate(fun(i => init)) when init does not use x, else
// map(fun(x => init))(xs): the accumulator holds one value per element of
// xs, updated element by element (the same steps in the same order). A
// reduction nested in an addition, `e + reduceSeq(fun(a, b => a + h))(0)(s)`
// (Shine's "weird reduce special case"), is first folded from e instead of
// 0, `reduceSeq(fun(a, b => a + h))(e)(s)` (equal up to rounding: the sum is
// reassociated), which is how the inner reduction of a blocked dot product
// moves up inside the outer one's operator.
#include "rules/NormalForms.h"
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

using Inner = std::function<std::optional<Expr>(const Expr&)>;

/// The first position (the node, then its children: function before
/// argument) where `f` succeeds, rebuilt around its result.
std::optional<Expr> firstTopDown(const Expr& e, const Inner& f) {
  if (auto r = f(e))
    return r;
  switch (e->kind()) {
  case ExprKind::App:
    if (auto r = firstTopDown(e->fn(), f))
      return makeApp(*r, e->arg(), e->loc());
    if (auto r = firstTopDown(e->arg(), f))
      return makeApp(e->fn(), *r, e->loc());
    return std::nullopt;
  case ExprKind::Lambda:
    if (auto r = firstTopDown(e->body(), f))
      return makeLambda(e->name(), e->paramType(), *r, e->loc());
    return std::nullopt;
  case ExprKind::DepLambda:
    if (auto r = firstTopDown(e->body(), f))
      return makeDepLambda(e->binder(), *r, e->loc());
    return std::nullopt;
  case ExprKind::DepApp:
    if (auto r = firstTopDown(e->fn(), f))
      return makeDepApp(*r, e->typeArg(), e->implicitArg(), e->loc());
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// A registered rule as a function of the expression.
Inner registered(const std::string& name, RuleContext& ctx) {
  RuleFn fn = RuleRegistry::instance().find(name)->make({});
  return [fn, &ctx](const Expr& e) { return fn(e, ctx); };
}

/// Shine's normForReorder: `splitBeforeMap @ topDown ;; fuseReduceMap @
/// topDown ;; fuseReduceMap @ topDown ;; RNF` (`;;` is `; DFNF ;`).
std::optional<Expr> normForReorder(const Expr& e, RuleContext& ctx) {
  bool keepTop = ctx.atRoot;
  auto dfnf = [&](const Expr& x) { return dataFlowNormalForm(x, ctx.names, keepTop); };
  auto cur = firstTopDown(e, registered("splitBeforeMap", ctx));
  for (int i = 0; cur && i < 2; ++i)
    cur = firstTopDown(dfnf(*cur), registered("fuseReduceMap", ctx));
  if (!cur)
    return std::nullopt;
  // RNF: DFNF ; normalize(mapFission) ; DFNF
  Expr x = dfnf(*cur);
  Inner fission = registered("mapFission", ctx);
  for (int steps = 0; steps < 20000; ++steps) {
    auto r = firstTopDown(x, fission);
    if (!r)
      break;
    x = *r;
  }
  return dfnf(x);
}

bool isReduction(const Expr& e) {
  Spine s = spineOf(e);
  return (isPrim(s.head, Prim::Reduce) || isPrim(s.head, Prim::ReduceSeq)) && s.args.size() == 3 &&
         s.args[0]->kind() == ExprKind::Lambda && s.args[0]->body()->kind() == ExprKind::Lambda;
}

/// A loop of the nest: a map, a reduction, or a reduction that is the
/// argument of an application (`e + reduceSeq(...)`).
bool isReductionLoop(const Expr& e) {
  return isReduction(e) || (e->kind() == ExprKind::App && isReduction(e->arg()));
}

std::optional<Expr> intoOperator(const Expr& r, const Inner& k) {
  if (!isReduction(r))
    return std::nullopt;
  Spine s = spineOf(r);
  const Expr& op = s.args[0];
  auto b = k(op->body()->body());
  if (!b)
    return std::nullopt;
  return rebuild(s.head, s.depArgs,
                 {lam(op->name(), lam(op->body()->name(), *b)), s.args[1], s.args[2]});
}

/// Shine's stepDown: `k` applied one loop further in (the operator of a
/// reduction, or the function of a map), the nest rebuilt around it.
std::optional<Expr> stepDown(const Expr& e, const Inner& k) {
  if (e->kind() == ExprKind::App)
    if (auto r = intoOperator(e->arg(), k))
      return app(e->fn(), *r);
  if (auto r = intoOperator(e, k))
    return r;
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Map) || s.args.size() != 2 || s.args[0]->kind() != ExprKind::Lambda)
    return std::nullopt;
  auto b = k(s.args[0]->body());
  if (!b)
    return std::nullopt;
  return rebuild(s.head, s.depArgs, {lam(s.args[0]->name(), *b), s.args[1]});
}

std::optional<Expr> atDepth(const Expr& e, std::int64_t d, const Inner& f) {
  if (d == 0)
    return f(e);
  return stepDown(e, [&](const Expr& b) { return atDepth(b, d - 1, f); });
}

/// `map(fun(x => body))(xs)`, simplified where it is a projection of a zip
/// or the identity.
Expr mapOver(const std::string& x, const Expr& body, const Expr& xs) {
  if (body->kind() == ExprKind::Var && body->name() == x)
    return xs;
  if (body->kind() == ExprKind::App && body->arg()->kind() == ExprKind::Var &&
      body->arg()->name() == x && isCall(xs, Prim::Zip, 2)) {
    if (isPrim(body->fn(), Prim::Fst))
      return xs->fn()->arg();
    if (isPrim(body->fn(), Prim::Snd))
      return xs->arg();
  }
  return app(prim(Prim::Map), lam(x, body), xs);
}

/// `a OP reduceSeq(op)(init)(s)` with OP add (init 0) or mul (init 1) and op
/// folding with OP: `reduceSeq(op)(a)(s)`.
std::optional<Expr> foldFrom(const Expr& e) {
  if (e->kind() != ExprKind::App || e->fn()->kind() != ExprKind::App || !isReduction(e->arg()))
    return std::nullopt;
  const Expr& opPrim = e->fn()->fn();
  if (opPrim->kind() != ExprKind::Primitive ||
      (opPrim->prim() != Prim::Add && opPrim->prim() != Prim::Mul))
    return std::nullopt;
  Spine r = spineOf(e->arg());
  const Expr& init = r.args[1];
  if (init->kind() != ExprKind::Literal || init->value().kind == ScalarKind::Bool ||
      init->value().asDouble() != (opPrim->prim() == Prim::Add ? 0.0 : 1.0))
    return std::nullopt;
  // op = fun(a, b => OP(a)(h)) with a not free in h
  const Expr& op = r.args[0];
  Spine body = spineOf(op->body()->body());
  if (!isPrim(body.head, opPrim->prim()) || body.args.size() != 2 ||
      body.args[0]->kind() != ExprKind::Var || body.args[0]->name() != op->name() ||
      occursFree(op->name(), body.args[1]))
    return std::nullopt;
  return rebuild(r.head, r.depArgs, {op, e->fn()->arg(), r.args[2]});
}

/// map(fun(x => reduceSeq(op)(init)(s)))(xs) -> one reduction over
/// transpose(map(fun(x => s))(xs)) with an array accumulator (see the top).
std::optional<Expr> liftOverMap(const Expr& e, RuleContext& ctx) {
  Spine m = spineOf(e);
  if (!isPrim(m.head, Prim::Map) || m.args.size() != 2 || m.args[0]->kind() != ExprKind::Lambda)
    return std::nullopt;
  const std::string& x = m.args[0]->name();
  Expr body = m.args[0]->body();
  if (!isReduction(body)) {
    auto folded = foldFrom(body);
    if (!folded)
      return std::nullopt;
    body = *folded;
  }
  Spine r = spineOf(body);
  const Expr& op = r.args[0];
  if (occursFree(x, op))
    return std::nullopt;
  const Expr& xs = m.args[1];
  std::string acc = ctx.names.fresh("acc"), y = ctx.names.fresh("y"), p = ctx.names.fresh("p"),
              ix = ctx.names.fresh("ix");
  Expr step = substitute(op->body()->body(), op->name(), app(prim(Prim::Fst), var(p)), ctx.names);
  step = substitute(step, op->body()->name(), app(prim(Prim::Snd), var(p)), ctx.names);
  Expr newOp =
      lam(acc, lam(y, app(prim(Prim::Map), lam(p, step), app(prim(Prim::Zip), var(acc), var(y)))));
  Expr init = occursFree(x, r.args[1]) ? mapOver(x, r.args[1], xs)
                                       : app(prim(Prim::Generate), lam(ix, r.args[1]));
  return app(prim(Prim::ReduceSeq), newOp, init,
             app(prim(Prim::Transpose), mapOver(x, r.args[2], xs)));
}

/// Shine's moveReductionUp: the reduction `pos - 1` loops further in becomes
/// the loop at the focus, lifted over one map at a time.
std::optional<Expr> moveReductionUp(const Expr& e, std::int64_t pos, RuleContext& ctx) {
  if (pos <= 1)
    return e;
  auto lifted = atDepth(e, pos - 2, [&](const Expr& m) { return liftOverMap(m, ctx); });
  if (!lifted)
    return std::nullopt;
  return moveReductionUp(*lifted, pos - 1, ctx);
}

std::vector<std::int64_t> renumber(std::vector<std::int64_t> rest, std::int64_t moved) {
  for (std::int64_t& y : rest)
    if (y > moved)
      --y;
  return rest;
}

/// Shine's reorderRec: the loop wanted at this depth, moved here, then the
/// rest of the list one loop further in.
std::optional<Expr> reorderRec(const std::vector<std::int64_t>& l, const Expr& e,
                               RuleContext& ctx) {
  if (l.empty())
    return e;
  std::int64_t pos = l[0];
  std::vector<std::int64_t> rest = renumber({l.begin() + 1, l.end()}, pos);
  auto recurse = [&](const Expr& b) { return reorderRec(rest, b, ctx); };
  if (pos == 1)
    return stepDown(e, recurse);
  auto isRed = [](const Expr& b) -> std::optional<Expr> {
    return isReductionLoop(b) ? std::optional(b) : std::nullopt;
  };
  if (!atDepth(e, pos - 1, isRed))
    return std::nullopt; // only reductions move
  auto moved = moveReductionUp(e, pos, ctx);
  if (!moved)
    return std::nullopt;
  return stepDown(*moved, recurse);
}

} // namespace

RuleFn reorderNest(std::vector<std::int64_t> perm) {
  return [perm](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    std::vector<std::int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t k = 0; k < sorted.size(); ++k)
      if (sorted[k] != static_cast<std::int64_t>(k) + 1)
        return std::nullopt;
    auto norm = normForReorder(e, ctx);
    if (!norm)
      return std::nullopt;
    return firstTopDown(*norm, [&](const Expr& x) { return reorderRec(perm, x, ctx); });
  };
}

} // namespace risec::rules
