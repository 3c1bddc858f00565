// peelTail(w): a map over n elements split into a map over the first
// w*(n/w), whose size w divides, and a map over the last n % w (the "peel" of
// the "Composable and Modular Code Generation in MLIR" paper, §3.2). A rule
// that needs a multiple of w (vectorize(w), splitJoin(w)) then applies to the
// first part with no precondition on n: `peelTail(4) ; vectorize(4) @
// outermost(isMap)` vectorises a map of any length.
// peelReduce(w) does the same for a reduction: the first w*(n/w) elements
// reduced on their own (splitStrategy(w) then needs nothing of n), the last
// n % w on their own, and the two results combined with the operator.
// padReduce(w) is the other way to a whole number of blocks for a sum: the
// arrays padded with zeros whose terms add nothing, so that blockedReduce(w)
// and Shine's reorder see one reduction (a peeled tail is a second one).
#include "rules/VectorReduction.h"

#include <cmath>

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

/// A literal 0 of a number type (+0.0 for a float: a sum from +0 is never
/// -0 in round-to-nearest, so adding a ±0 term to it changes nothing).
bool plusZero(const Expr& e) {
  if (e->kind() != ExprKind::Literal || e->value().kind == ScalarKind::Bool)
    return false;
  return e->value().asDouble() == 0.0 && !std::signbit(e->value().asDouble());
}

bool finiteLiteral(const Expr& e) {
  return e->kind() == ExprKind::Literal && e->value().kind != ScalarKind::Bool &&
         std::isfinite(e->value().asDouble());
}

/// Whether the scalar expression `e` of the parameter `x` is ±0 when x (or
/// each component of the pair x) is 0: literals 0, x, fst(x), snd(x), the
/// negation of such, a sum or difference of two, a product of one with
/// another or with a finite literal (0 * inf would be NaN). Anything else,
/// a variable from outside included, is not known to be.
bool zeroWhenPadded(const Expr& e, const std::string& x) {
  if (e->kind() == ExprKind::Var)
    return e->name() == x;
  if (e->kind() == ExprKind::Literal)
    return e->value().kind != ScalarKind::Bool && e->value().asDouble() == 0.0;
  Spine s = spineOf(e);
  std::optional<Prim> p = headPrim(e);
  if (!p || !s.depArgs.empty())
    return false;
  if ((*p == Prim::Fst || *p == Prim::Snd || *p == Prim::Neg) && s.args.size() == 1)
    return zeroWhenPadded(s.args[0], x);
  if (s.args.size() != 2)
    return false;
  const Expr &a = s.args[0], &b = s.args[1];
  if (*p == Prim::Add || *p == Prim::Sub)
    return zeroWhenPadded(a, x) && zeroWhenPadded(b, x);
  if (*p == Prim::Mul)
    return (zeroWhenPadded(a, x) && (zeroWhenPadded(b, x) || finiteLiteral(b))) ||
           (zeroWhenPadded(b, x) && finiteLiteral(a));
  return false;
}

/// 0 of a number type, or the pair of such zeros; nullopt for other types.
std::optional<Expr> zeroOf(const Type& t) {
  if (t->kind() == TypeKind::Pair) {
    auto a = zeroOf(t->first()), b = zeroOf(t->second());
    if (!a || !b)
      return std::nullopt;
    return app(prim(Prim::MakePair), *a, *b);
  }
  if (t->kind() != TypeKind::Scalar || t->scalar() == ScalarKind::Bool ||
      t->scalar() == ScalarKind::NatType)
    return std::nullopt;
  ScalarKind k = t->scalar();
  return makeLiteral(rise::isFloat(k) ? ScalarValue::makeFloat(k, 0.0) : ScalarValue::makeInt(k, 0),
                     {});
}

/// padCst(0, padding, 0)(a) for an array a of numbers or of pairs of
/// numbers (zeros in both); nullopt otherwise.
std::optional<Expr> padWithZeros(const Expr& a, const Nat& padding) {
  const Type& t = a->type();
  if (!t || t->kind() != TypeKind::Array)
    return std::nullopt;
  std::optional<Expr> zero = zeroOf(t->elem());
  if (!zero)
    return std::nullopt;
  return app(depArg(depArg(prim(Prim::PadCst), natConst(0)), padding), *zero, a);
}

/// reduce(add)(0)(xs), xs: n.t, xs one of
///   map(f)(zip(a, b))  ->  map(f)(zip(pad(a), pad(b)))
///   map(f)(a)          ->  map(f)(pad(a))
///   a                  ->  pad(a)
/// with pad = padCst(0, w*((n + w - 1)/w) - n, 0) (a pair of zeros for an
/// array of pairs, such as a zip bound to a variable): the sum over a whole
/// number of blocks of w, each padded term f(0) = ±0 (zeroWhenPadded). Exact
/// for any n: the sum starts from +0, so it is never -0, and adding ±0 to
/// it changes nothing. Also for reduceSeq. Fails where w divides n for every
/// n, or where a padded term is not known to be 0.
RuleFn padReduce(std::int64_t w) {
  return [w](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (w < 1 || !(isPrim(s.head, Prim::Reduce) || isPrim(s.head, Prim::ReduceSeq)) ||
        !s.depArgs.empty() || s.args.size() != 3 || !s.args[2]->type() ||
        s.args[2]->type()->kind() != TypeKind::Array)
      return std::nullopt;
    const Expr &op = s.args[0], &init = s.args[1], &xs = s.args[2];
    if (binaryPrim(op) != Prim::Add || !plusZero(init))
      return ctx.refuse("it is not a sum from 0 (`add` from a literal 0), the reduction to which "
                        "terms that are 0 add nothing");
    Nat n = xs->type()->size();
    Nat padding = paddingToMultiple(n, w);
    if (padding->isConst(0))
      return ctx.refuse("its length is a multiple of " + std::to_string(w) +
                        " for every size: there is nothing to pad");
    auto padded = [&]() -> std::optional<Expr> {
      Spine m = spineOf(xs);
      std::optional<Prim> mp = headPrim(xs);
      if (!mp || !isMapLike(*mp) || m.args.size() != 2)
        return padWithZeros(xs, padding);
      const Expr &f = m.args[0], &ys = m.args[1];
      if (f->kind() != ExprKind::Lambda || !zeroWhenPadded(f->body(), f->name()))
        return ctx.refuse("its terms are not known to be 0 where the arrays are padded with 0 "
                          "(a sum, difference or product of the elements and finite literals "
                          "is; a variable from outside the function is not)");
      Expr head = rebuild(m.head, m.depArgs, {f});
      if (isCall(ys, Prim::Zip, 2)) {
        Spine z = spineOf(ys);
        auto a = padWithZeros(z.args[0], padding), b = padWithZeros(z.args[1], padding);
        if (!a || !b)
          return std::nullopt;
        return app(head, app(prim(Prim::Zip), *a, *b));
      }
      auto a = padWithZeros(ys, padding);
      return a ? std::optional(app(head, *a)) : std::nullopt;
    }();
    if (!padded)
      return std::nullopt;
    return rebuild(s.head, {}, {op, init, *padded});
  };
}

} // namespace

void registerPeelTailRules(RuleRegistry& r) {
  r.add(RuleInfo{"padReduce",
                 "tiling",
                 {ParamKind::Int},
                 "reduce(add)(0)(map(f)(zip(a, b)))   (also map(f)(a), or a; a, b: n.s of numbers; "
                 "also reduceSeq)",
                 "reduce(add)(0)(map(f)(zip(padCst(0, p, 0)(a), padCst(0, p, 0)(b))))   (p = "
                 "w*((n+w-1)/w) - n: a whole number of blocks of w, as blockedReduce(w) needs; "
                 "exact where f of zeros is 0; fails where w divides n)",
                 [](const std::vector<RuleArg>& a) { return padReduce(intArg(a, 0)); }});
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
