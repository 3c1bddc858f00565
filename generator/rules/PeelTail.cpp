// peelTail(w): a map over n elements split into a map over the first
// w*(n/w), whose size w divides, and a map over the last n % w (the "peel" of
// the "Composable and Modular Code Generation in MLIR" paper, §3.2). A rule
// that needs a multiple of w (vectorize(w), splitJoin(w)) then applies to the
// first part with no precondition on n: `peelTail(4) ; vectorize(4) @
// outermost(isMap)` vectorises a map of any length.
// peelReduce(w) does the same for a reduction: the first w*(n/w) elements
// reduced on their own (splitStrategy(w) then needs nothing of n), the last
// n % w on their own, and the two results combined with the operator.
#include "rules/VectorReduction.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// w*(n/w) for an array xs: n.t, the part that whole blocks of w cover; nullopt
/// where xs is no array or w divides n for every n (no tail to peel).
std::optional<Nat> wholePart(const Expr& xs, std::int64_t w) {
  const Type& t = xs->type();
  if (!t || t->kind() != TypeKind::Array)
    return std::nullopt;
  Nat whole = wholeMultiple(t->size(), w);
  if ((t->size() - whole)->isConst(0))
    return std::nullopt;
  return whole;
}

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
    const Expr &f = s.args[0], &xs = s.args[1];
    std::optional<Nat> whole = wholePart(xs, w);
    if (!whole)
      return std::nullopt;
    Expr head = rebuild(s.head, s.depArgs, {f});
    Expr body = app(head, app(depArg(prim(Prim::Take), *whole), xs));
    Expr tail = app(head, app(depArg(prim(Prim::Drop), *whole), xs));
    return app(prim(Prim::Concat), body, tail);
  };
}

/// `P(k)(xs)` (P take or drop) moved into the maps and zips that compute xs:
/// P(k)(map(f)(x)) = map(f)(P(k)(x)) and P(k)(zip(a)(b)) = zip(P(k)(a))(P(k)(b)),
/// so that a map over the part (the products of a dot product) has the
/// part's size, which vectorize(w) then divides.
Expr partOf(Prim p, const Nat& k, const Expr& xs) {
  Spine s = spineOf(xs);
  if (s.depArgs.empty() && s.args.size() == 2 && isPrim(s.head, Prim::Map))
    return app(prim(Prim::Map), s.args[0], partOf(p, k, s.args[1]));
  if (s.depArgs.empty() && s.args.size() == 2 && isPrim(s.head, Prim::Zip))
    return app(prim(Prim::Zip), partOf(p, k, s.args[0]), partOf(p, k, s.args[1]));
  return app(depArg(prim(p), k), xs);
}

/// Reducing two parts from `init` and combining the results with op is the
/// reduction of the whole: op associative and init its neutral element (add
/// with 0, mul with 1), or op idempotent (max, min: init counted twice
/// changes nothing); on floats, as for the vectorised reductions.
bool splittable(const Expr& op, const Expr& init) {
  std::optional<Prim> p = binaryPrim(op);
  return p && laneInit(*p, init);
}

/// reduce(op)(init)(xs), xs: n.t
///   -> op(reduce(op)(init)(take(w*(n/w))(xs)))(reduce(op)(init)(drop(w*(n/w))(xs)))
/// with take and drop moved into the maps and zips of xs (partOf). Fails
/// where w divides n for every n (nothing to peel).
RuleFn peelReduce(std::int64_t w) {
  return [w](const Expr& e, RuleContext&) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (w < 1 || !isPrim(s.head, Prim::Reduce) || !s.depArgs.empty() || s.args.size() != 3 ||
        !splittable(s.args[0], s.args[1]))
      return std::nullopt;
    const Expr &op = s.args[0], &init = s.args[1], &xs = s.args[2];
    std::optional<Nat> whole = wholePart(xs, w);
    if (!whole)
      return std::nullopt;
    Expr body = app(prim(Prim::Reduce), op, init, partOf(Prim::Take, *whole, xs));
    Expr tail = app(prim(Prim::Reduce), op, init, partOf(Prim::Drop, *whole, xs));
    return app(op, body, tail);
  };
}

} // namespace

void registerPeelTailRules(RuleRegistry& r) {
  r.add(RuleInfo{"peelReduce",
                 "tiling",
                 {ParamKind::Int},
                 "reduce(op)(init)(xs)   (xs: n.t; op add with 0, mul with 1, or max/min)",
                 "op(reduce(op)(init)(take(w*(n/w))(xs)))(reduce(op)(init)(drop(w*(n/w))(xs)))   "
                 "(take and drop moved into the maps and zips of xs; fails where w divides n: "
                 "nothing to peel)",
                 [](const std::vector<RuleArg>& a) { return peelReduce(intArg(a, 0)); }});
  r.add(RuleInfo{"peelTail",
                 "tiling",
                 {ParamKind::Int},
                 "map(f)(xs)   (xs: n.t; also mapSeq, mapPar, ...)",
                 "concat(map(f)(take(w*(n/w))(xs)))(map(f)(drop(w*(n/w))(xs)))   (fails where w "
                 "divides n: nothing to peel)",
                 [](const std::vector<RuleArg>& a) { return peelTail(intArg(a, 0)); }});
}

} // namespace risec::rules
