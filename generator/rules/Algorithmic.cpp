// Algorithmic rules: lambda calculus (beta, eta), map fusion and fission,
// reduce fusion and fission, split-join, and transpose pairs.
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// Applies `body(f, x)` to `P(f)(x)`, or to `P(f)` as `fun(x => body(f, x))`.
std::optional<Expr>
onMap(const Expr& focus, RuleContext& ctx, Prim p,
      const std::function<std::optional<Expr>(const Expr&, const Expr&)>& body) {
  Spine s = spineOf(focus);
  if (!isPrim(s.head, p) || !s.depArgs.empty() || s.args.empty() || s.args.size() > 2)
    return std::nullopt;
  if (s.args.size() == 2)
    return body(s.args[0], s.args[1]);
  std::string x = ctx.names.fresh("x");
  auto r = body(s.args[0], var(x));
  if (!r)
    return std::nullopt;
  return lam(x, *r);
}

std::optional<Expr> betaReduction(const Expr& e, RuleContext& ctx) {
  // depFun(n => b)(N) -> b[n := N]: a dependent function applied to a size
  // (a def with sizes, called with them, once its value arguments are in)
  if (std::optional<Expr> r = depBetaReduction(e))
    return r;
  if (e->kind() != ExprKind::App || e->fn()->kind() != ExprKind::Lambda)
    return std::nullopt;
  const Expr& f = e->fn();
  return substitute(f->body(), f->name(), e->arg(), ctx.names);
}

std::optional<Expr> etaReduction(const Expr& e, RuleContext&) {
  // An annotated parameter (an entry's input) is kept: its type fixes the def's.
  if (e->kind() != ExprKind::Lambda || e->paramType() || e->body()->kind() != ExprKind::App)
    return std::nullopt;
  const Expr& b = e->body();
  if (b->arg()->kind() != ExprKind::Var || b->arg()->name() != e->name() ||
      occursFree(e->name(), b->fn()))
    return std::nullopt;
  return b->fn();
}

std::optional<Expr> etaAbstraction(const Expr& e, RuleContext& ctx) {
  if (e->kind() == ExprKind::Lambda || !e->type() || e->type()->kind() != TypeKind::Fun)
    return std::nullopt;
  std::string x = ctx.names.fresh("eta");
  return lam(x, app(e, var(x)));
}

RuleFn splitJoin(std::int64_t n) {
  return [n](const Expr& e, RuleContext& ctx) {
    return onMap(e, ctx, Prim::Map, [&](const Expr& f, const Expr& x) -> std::optional<Expr> {
      return app(prim(Prim::Join), app(prim(Prim::Map), app(prim(Prim::Map), f),
                                       app(depNat(prim(Prim::Split), n), x)));
    });
  };
}

/// Shine's splitJoin2(n): an array e as join(split(n)(e)) (n divides its
/// length), the blocks that a following rule rearranges.
RuleFn splitJoin2(std::int64_t n) {
  return [n](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    if (!e->type() || !isArray(e->type()))
      return std::nullopt;
    if (std::optional<std::string> why = whyNotChunked(e->type()->size(), n))
      return ctx.refuse(*why);
    return app(prim(Prim::Join), app(depNat(prim(Prim::Split), n), e));
  };
}

bool fusable(Prim p) {
  return p == Prim::Map || p == Prim::MapSeq || p == Prim::MapPar || p == Prim::MapSeqUnroll;
}

std::optional<Expr> mapFusion(const Expr& e, RuleContext& ctx) {
  Spine outer = spineOf(e);
  if (outer.head->kind() != ExprKind::Primitive || !fusable(outer.head->prim()) ||
      outer.args.size() != 2)
    return std::nullopt;
  Spine inner = spineOf(outer.args[1]);
  if (!isPrim(inner.head, outer.head->prim()) || inner.args.size() != 2)
    return std::nullopt;
  std::string y = ctx.names.fresh("y");
  Expr f = lam(y, app(outer.args[0], app(inner.args[0], var(y))));
  return app(prim(outer.head->prim()), f, inner.args[1]);
}

std::optional<Expr> mapFission(const Expr& e, RuleContext& ctx) {
  return onMap(e, ctx, Prim::Map, [&](const Expr& f, const Expr& x) -> std::optional<Expr> {
    if (f->kind() != ExprKind::Lambda || f->body()->kind() != ExprKind::App)
      return std::nullopt;
    const Expr& b = f->body();
    if (occursFree(f->name(), b->fn()) ||
        (b->arg()->kind() == ExprKind::Var && b->arg()->name() == f->name()))
      return std::nullopt;
    // e must be data: a map of functions does not type-check (fuzz finding
    // R9: `let(v)(fun(p => ...))`, f = `let(v)` and e a function).
    const Type& mid = b->arg()->type();
    if (mid && (mid->kind() == TypeKind::Fun || mid->kind() == TypeKind::DepFun))
      return std::nullopt;
    return app(prim(Prim::Map), b->fn(), app(prim(Prim::Map), lam(f->name(), b->arg()), x));
  });
}

std::optional<Expr> fuseReduceMap(const Expr& e, RuleContext& ctx) {
  Spine r = spineOf(e);
  if (r.args.size() != 3 || !(isPrim(r.head, Prim::Reduce) || isPrim(r.head, Prim::ReduceSeq)))
    return std::nullopt;
  Spine m = spineOf(r.args[2]);
  if (!isPrim(m.head, Prim::Map) || m.args.size() != 2)
    return std::nullopt;
  std::string acc = ctx.names.fresh("acc"), y = ctx.names.fresh("y");
  const Expr& f = m.args[0];
  Expr fy = f->kind() == ExprKind::Lambda ? substitute(f->body(), f->name(), var(y), ctx.names)
                                          : app(f, var(y));
  Expr op = lam(acc, lam(y, app(r.args[0], var(acc), fy)));
  return app(prim(Prim::ReduceSeq), op, r.args[1], m.args[1]);
}

/// The three types of `op(acc)(elem)` are one (op may be the operator of a
/// `reduce`).
bool homogeneousOp(const Expr& call, const Expr& acc, const Expr& elem) {
  return call->type() && acc->type() && elem->type() && typeEqual(call->type(), acc->type()) &&
         typeEqual(call->type(), elem->type());
}

/// Shine's reduceMapFission (rules/algorithmic.scala): the element computed
/// in the operator of a reduction becomes a map before it, and the
/// reduction a `reduce` of the operator itself (a `reduceSeq` when the
/// operator is not of a type t -> t -> t). Applies to the full application
/// and to the function `reduceSeq(op)(init)` (then a `fun(x => ...)`).
std::optional<Expr> reduceMapFission(const Expr& e, RuleContext& ctx) {
  Spine r = spineOf(e);
  if (r.args.size() < 2 || r.args.size() > 3 || !isPrim(r.head, Prim::ReduceSeq))
    return std::nullopt;
  const Expr& op = r.args[0];
  if (op->kind() != ExprKind::Lambda || op->body()->kind() != ExprKind::Lambda)
    return std::nullopt;
  const std::string& acc = op->name();
  const Expr& inner = op->body();
  const Expr& b = inner->body();
  if (b->kind() != ExprKind::App || b->fn()->kind() != ExprKind::App)
    return std::nullopt;
  Expr opHead = b->fn()->fn();
  Expr accUse = b->fn()->arg();
  Expr elem = b->arg();
  if (accUse->kind() != ExprKind::Var || accUse->name() != acc || occursFree(acc, opHead) ||
      occursFree(acc, elem) || occursFree(inner->name(), opHead) ||
      (elem->kind() == ExprKind::Var && elem->name() == inner->name()))
    return std::nullopt;
  Expr red = homogeneousOp(b, accUse, elem) ? app(prim(Prim::Reduce), opHead, r.args[1])
                                            : app(prim(Prim::ReduceSeq), opHead, r.args[1]);
  auto fissioned = [&](Expr xs) {
    return app(red, app(prim(Prim::Map), lam(inner->name(), elem), std::move(xs)));
  };
  if (r.args.size() == 3)
    return fissioned(r.args[2]);
  std::string x = ctx.names.fresh("x");
  return lam(x, fissioned(var(x)));
}

constexpr const char* kNotNeutral =
    "its operator and initial value are not `add` with 0 or `mul` with 1 (every chunk's "
    "reduction starts from the initial value, which must be the operator's neutral element)";

/// `init` is the neutral element of `op` (add with 0, mul with 1).
bool neutralPair(Expr op, const Expr& init) {
  // fun(a => fun(b => a OP b)) is OP
  if (op->kind() == ExprKind::Lambda && op->body()->kind() == ExprKind::Lambda) {
    Spine s = spineOf(op->body()->body());
    if (s.args.size() == 2 && s.args[0]->kind() == ExprKind::Var &&
        s.args[1]->kind() == ExprKind::Var && s.args[0]->name() == op->name() &&
        s.args[1]->name() == op->body()->name())
      op = s.head;
  }
  if (op->kind() != ExprKind::Primitive || init->kind() != ExprKind::Literal)
    return false;
  const ScalarValue& v = init->value();
  if (v.kind == ScalarKind::Bool)
    return false;
  double d = v.asDouble();
  return (op->prim() == Prim::Add && d == 0.0) || (op->prim() == Prim::Mul && d == 1.0);
}

RuleFn splitStrategy(std::int64_t n) {
  return [n](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine r = spineOf(e);
    if (!isPrim(r.head, Prim::Reduce) || r.args.size() != 3)
      return std::nullopt;
    if (!neutralPair(r.args[0], r.args[1]))
      return ctx.refuse(kNotNeutral);
    std::string c = ctx.names.fresh("chunk");
    Expr partial = lam(c, app(prim(Prim::Reduce), r.args[0], r.args[1], var(c)));
    return app(prim(Prim::Reduce), r.args[0], r.args[1],
               app(prim(Prim::Map), partial, app(depNat(prim(Prim::Split), n), r.args[2])));
  };
}

/// Shine's blockedReduce (its ICFP 2020 name is splitStrategy):
///   reduce(op)(init)(xs)
///     -> split(n)(xs) |> reduceSeq(fun(acc, y => op(acc)(reduce(op)(init)(y))))(init)
/// the chunks' sums added into one accumulator as they are computed
/// (risec's splitStrategy keeps them in a map). init neutral for op.
RuleFn blockedReduce(std::int64_t n) {
  return [n](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine r = spineOf(e);
    if (!isPrim(r.head, Prim::Reduce) || r.args.size() != 3 || !r.args[2]->type() ||
        !isArray(r.args[2]->type()))
      return std::nullopt;
    if (!neutralPair(r.args[0], r.args[1]))
      return ctx.refuse(kNotNeutral);
    if (std::optional<std::string> why = whyNotChunked(r.args[2]->type()->size(), n))
      return ctx.refuse(*why);
    std::string acc = ctx.names.fresh("acc"), y = ctx.names.fresh("y");
    Expr chunk = app(prim(Prim::Reduce), r.args[0], r.args[1], var(y));
    const Expr& f = r.args[0];
    Expr step = app(f, var(acc), chunk);
    if (f->kind() == ExprKind::Lambda && f->body()->kind() == ExprKind::Lambda)
      step = substitute(substitute(f->body()->body(), f->name(), var(acc), ctx.names),
                        f->body()->name(), chunk, ctx.names);
    Expr op = lam(acc, lam(y, step));
    return app(prim(Prim::ReduceSeq), op, r.args[1], app(depNat(prim(Prim::Split), n), r.args[2]));
  };
}

std::optional<Expr> removeTransposePair(const Expr& e, RuleContext&) {
  if (!isCall(e, Prim::Transpose, 1) || !isCall(e->arg(), Prim::Transpose, 1))
    return std::nullopt;
  return e->arg()->arg();
}

RuleInfo intRule(std::string name, std::string before, std::string after,
                 std::function<RuleFn(std::int64_t)> make) {
  return RuleInfo{
      std::move(name),
      "algorithmic",
      {ParamKind::Int},
      std::move(before),
      std::move(after),
      [make = std::move(make)](const std::vector<RuleArg>& a) { return make(intArg(a, 0)); }};
}

} // namespace

void registerAlgorithmicRules(RuleRegistry& r) {
  const std::string fam = "algorithmic";
  r.add(simpleRule("betaReduction", fam, "fun(x => b)(a), depFun(n => b)(N)",
                   "b[x := a], b[n := N]", betaReduction));
  r.add(simpleRule("etaReduction", fam, "fun(x => f(x))", "f   (x not free in f)", etaReduction));
  r.add(simpleRule("etaAbstraction", fam, "f", "fun(x => f(x))   (f of a function type)",
                   etaAbstraction));
  r.add(intRule("splitJoin", "map(f)", "split(n) >> map(map(f)) >> join", splitJoin));
  r.add(intRule("splitJoin2", "e   (e: an array)", "join(split(n)(e))", splitJoin2));
  r.add(simpleRule("mapFusion", fam, "map(g) >> map(f)", "map(fun(y => f(g(y))))", mapFusion));
  r.add(simpleRule("mapFission", fam, "map(fun(x => f(e)))",
                   "map(fun(x => e)) >> map(f)   (x not free in f)", mapFission));
  r.add(simpleRule("fuseReduceMap", fam, "map(f) >> reduce(op)(init)",
                   "reduceSeq(fun(acc, y => op(acc)(f(y))))(init)", fuseReduceMap));
  r.add(simpleRule("reduceMapFission", fam, "reduceSeq(fun(acc, y => op(acc)(e)))(init)",
                   "map(fun(y => e)) >> reduce(op)(init)   (reduceSeq unless op: t -> t -> t)",
                   reduceMapFission));
  r.add(intRule("splitStrategy", "reduce(op)(init)",
                "split(n) >> map(reduce(op)(init)) >> reduce(op)(init)   (init neutral for op)",
                splitStrategy));
  r.add(intRule("blockedReduce", "reduce(op)(init)",
                "split(n) >> reduceSeq(fun(acc, y => op(acc)(reduce(op)(init)(y))))(init)   "
                "(init neutral for op)",
                blockedReduce));
  r.add(
      simpleRule("removeTransposePair", fam, "transpose(transpose(e))", "e", removeTransposePair));
}

} // namespace risec::rules
