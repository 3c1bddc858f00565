// peelTail(w): a map over n elements split into a map over the first
// w*(n/w), whose size w divides, and a map over the last n % w (the "peel" of
// the "Composable and Modular Code Generation in MLIR" paper, §3.2). A rule
// that needs a multiple of w (vectorize(w), splitJoin(w)) then applies to the
// first part with no precondition on n: `peelTail(4) ; vectorize(4) @
// outermost(isMap)` vectorises a map of any length.
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// m(f)(xs), xs: n.t, m a map-like primitive
///   -> concat(m(f)(take(w*(n/w))(xs)))(m(f)(drop(w*(n/w))(xs)))
/// Element i of both sides is f(xs[i]). Fails where n % w is 0 for every n
/// (nothing to peel).
RuleFn peelTail(std::int64_t w) {
  return [w](const Expr& e, RuleContext&) -> std::optional<Expr> {
    Spine s = spineOf(e);
    std::optional<Prim> p = headPrim(e);
    if (w < 1 || !p || !isMapLike(*p) || s.args.size() != 2)
      return std::nullopt;
    const Type& t = s.args[1]->type();
    if (!t || t->kind() != TypeKind::Array)
      return std::nullopt;
    Nat n = t->size();
    Nat whole = wholeMultiple(n, w);
    if ((n - whole)->isConst(0))
      return std::nullopt;
    const Expr &f = s.args[0], &xs = s.args[1];
    Expr head = rebuild(s.head, s.depArgs, {f});
    Expr body = app(head, app(depArg(prim(Prim::Take), whole), xs));
    Expr tail = app(head, app(depArg(prim(Prim::Drop), whole), xs));
    return app(prim(Prim::Concat), body, tail);
  };
}

} // namespace

void registerPeelTailRules(RuleRegistry& r) {
  r.add(RuleInfo{"peelTail",
                 "tiling",
                 {ParamKind::Int},
                 "map(f)(xs)   (xs: n.t; also mapSeq, mapPar, ...)",
                 "concat(map(f)(take(w*(n/w))(xs)))(map(f)(drop(w*(n/w))(xs)))   (fails where w "
                 "divides n: nothing to peel)",
                 [](const std::vector<RuleArg>& a) { return peelTail(intArg(a, 0)); }});
}

} // namespace risec::rules
