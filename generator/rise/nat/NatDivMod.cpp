// Floor division and modulo. Divisors are sizes, so a symbolic divisor is
// assumed > 0 (a negative constant, or a term with a negative coefficient, is
// never assumed positive and such a division is kept as is). The rules split
// the dividend x = q*d + R into the terms exactly divisible by d and the rest,
// then use floor((q*d + R)/d) = q + R/d and (q*d + R) % d = R % d, and decide
// R/d and R % d from the range of R when it lies in one period of d.
#include "rise/nat/NatInternal.h"

#include <limits>
#include <numeric>

namespace risec::rise {

using namespace detail;

namespace {

Nat keep(NatKind kind, const Nat& a, const Nat& b) {
  return makeNode(kind, {a, b});
}

std::uint64_t magnitude(std::int64_t v) {
  return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

// The exponent with which `base` occurs in `t` if it is a constant, else 0
// (a symbolic exponent may be 0, so nothing can be cancelled from it).
std::int64_t constExponent(const NatTerm& t, const Nat& base) {
  for (const auto& f : t.factors) {
    if (natEqual(f.base, base)) {
      return f.exp->isConst() ? f.exp->value() : 0;
    }
  }
  return 0;
}

// The largest term dividing d and every term of x: the gcd of the
// coefficients times the factors of d common to all terms.
NatTerm commonFactor(const NatPoly& x, const NatTerm& d) {
  std::uint64_t g = magnitude(d.coeff);
  for (const auto& t : x) {
    g = std::gcd(g, magnitude(t.coeff));
  }
  NatTerm common{1, {}};
  if (g <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    common.coeff = static_cast<std::int64_t>(g);
  }
  for (const auto& f : d.factors) {
    std::int64_t e = f.exp->isConst() ? f.exp->value() : 0;
    for (const auto& t : x) {
      e = std::min(e, constExponent(t, f.base));
    }
    if (e > 0) {
      common.factors.push_back({f.base, natConst(e)});
    }
  }
  return common;
}

// Cancels the common factor g of dividend and divisor (g != 0 because the
// divisor is): floor(g*x / (g*d)) = floor(x/d) and (g*x) % (g*d) = g*(x % d).
// Returns g, or nullopt if it is 1.
std::optional<NatTerm> cancelCommonFactor(NatPoly& x, NatTerm& d) {
  NatTerm g = commonFactor(x, d);
  if (g.coeff == 1 && g.factors.empty()) {
    return std::nullopt;
  }
  NatPoly reduced;
  for (const auto& t : x) {
    auto q = divideTerm(t, g);
    if (!q) {
      return std::nullopt;
    }
    reduced.push_back(std::move(*q));
  }
  auto dq = divideTerm(d, g);
  auto sorted = polyAdd(reduced, {});
  if (!dq || !sorted) {
    return std::nullopt;
  }
  x = std::move(*sorted);
  d = std::move(*dq);
  return g;
}

struct Split {
  NatPoly quotient;  ///< (divisible terms) / d
  NatPoly remainder; ///< the terms not divisible by d
};

Split splitDivisible(const NatPoly& x, const NatTerm& d) {
  Split s;
  for (const auto& t : x) {
    if (auto q = divideTerm(t, d)) {
      s.quotient.push_back(std::move(*q));
    } else {
      s.remainder.push_back(t);
    }
  }
  // Dividing can reorder monomials; re-sort (no coefficients combine, since
  // distinct monomials have distinct quotients).
  if (auto sorted = polyAdd(s.quotient, {})) {
    s.quotient = std::move(*sorted);
  }
  return s;
}

// x = g*y + r where g > 1 divides every term of y and d's coefficient, and
// 0 <= r < g: the stride of x is a multiple of g and r stays inside one
// stride. Then floor(x/d) = floor(y/(d/g)) (floor((y + r/g)/e) = floor(y/e)
// for an integer y, e > 0 and 0 <= r/g < 1) and x % d = g*(y % (d/g)) + r.
// This is the index of element r of a vector or block of g elements that
// a loop walks in steps of g: ((32*k + 1)/1024 is k/32).
struct Strided {
  Nat y;          ///< x's terms divisible by g, divided by g
  Nat r;          ///< the rest, 0 <= r < g
  std::int64_t g; ///< the stride
  NatTerm dByG;   ///< d/g
};

std::optional<Strided> splitStride(const NatPoly& x, const NatTerm& d) {
  // g: the gcd of d's coefficient and of the coefficients of the symbolic
  // terms that share a factor > 1 with it; the others (i in 0 <= i < 4, a
  // lane) and the constant are the rest, which must stay below g
  const std::uint64_t dc = magnitude(d.coeff);
  std::uint64_t g = 0;
  for (const auto& t : x) {
    if (!t.factors.empty() && std::gcd(magnitude(t.coeff), dc) > 1) {
      g = std::gcd(g, std::gcd(magnitude(t.coeff), dc));
    }
  }
  if (g <= 1 || g > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return std::nullopt;
  }
  const auto stride = static_cast<std::int64_t>(g);
  NatPoly ys, rest;
  for (const auto& t : x) {
    if (!t.factors.empty() && t.coeff % stride == 0) {
      ys.push_back(NatTerm{t.coeff / stride, t.factors});
    } else {
      rest.push_back(t);
    }
  }
  auto sortedRest = polyAdd(rest, {});
  auto sortedYs = polyAdd(ys, {});
  if (!sortedRest || !sortedYs) {
    return std::nullopt;
  }
  Nat r = finishPoly(std::move(*sortedRest));
  NatInterval iv = natInterval(r);
  if (!iv.lo || !iv.hi || *iv.lo < 0 || *iv.hi >= stride) {
    return std::nullopt;
  }
  return Strided{finishPoly(std::move(*sortedYs)), r, stride, NatTerm{d.coeff / stride, d.factors}};
}

// If R's range lies inside one period [k*c, (k+1)*c) of the constant c, then
// floor(R/c) = k.
std::optional<std::int64_t> constQuotientByBounds(const Nat& r, std::int64_t c) {
  NatInterval iv = natInterval(r);
  if (!iv.lo || !iv.hi) {
    return std::nullopt;
  }
  auto qlo = floorDiv(*iv.lo, c);
  auto qhi = floorDiv(*iv.hi, c);
  if (!qlo || !qhi || *qlo != *qhi) {
    return std::nullopt;
  }
  return qlo;
}

bool provenBelow(const Nat& r, const Nat& d) {
  return proveNonNegative(r) && proveLess(r, d);
}

// -d <= r < 0, so floor(r/d) = -1. The divisor is assumed >= 1, which the
// prover does not know, so r >= -1 (hence r >= -d) is accepted as well.
bool provenJustBelowZero(const Nat& r, const Nat& d) {
  auto hi = natConstUpperBound(r);
  if (!hi || *hi > -1) {
    return false; // cheap filter: most remainders are not negative
  }
  return proveNonNegative(natAdd(r, natOne())) || proveNonNegative(natAdd(r, d));
}

Nat divideRemainder(const Nat& r, const Nat& d) {
  if (r->isConst(0)) {
    return r;
  }
  if (d->isConst()) {
    if (r->isConst()) {
      return natConst(*floorDiv(r->value(), d->value()));
    }
    if (auto k = constQuotientByBounds(r, d->value())) {
      return natConst(*k);
    }
  } else if (provenBelow(r, d)) {
    return natZero();
  } else if (provenJustBelowZero(r, d)) {
    return natConst(-1);
  }
  return keep(NatKind::Div, r, d);
}

// Whether `q*d + r` should be split into q + r/d (or r % d): when r/d is
// decided, or when r >= 0. Otherwise splitting would turn a dividend that may
// well be non-negative ((n + m - 1)/m, ceiling division) into a possibly
// negative one ((n - 1)/m + 1), which is no simpler and is a trap for C code
// generation (C's / truncates), so the division is kept whole.
bool worthSplitting(const Nat& rest, NatKind kind, const Nat& r) {
  return rest->kind() != kind || proveNonNegative(r);
}

Nat divByPositive(const Nat& a, const Nat& b) {
  auto pa = toPoly(a);
  auto pb = toPoly(b);
  if (!pa || !pb) {
    return keep(NatKind::Div, a, b);
  }
  if (pb->size() != 1) {
    // A sum divisor: only the "dividend below divisor" case is decided.
    return provenBelow(a, b) ? natZero() : keep(NatKind::Div, a, b);
  }
  NatTerm d = pb->front();
  if (cancelCommonFactor(*pa, d)) {
    return natDiv(finishPoly(std::move(*pa)), termToNat(d));
  }
  Split s = splitDivisible(*pa, d);
  if (!s.quotient.empty()) {
    // The rest is smaller than a, so dividing it again terminates; doing it
    // through natDiv applies every rule to it (e.g. (y/e)/d).
    Nat r = finishPoly(std::move(s.remainder));
    Nat rest = natDiv(r, b);
    if (worthSplitting(rest, NatKind::Div, r)) {
      return natAdd(finishPoly(std::move(s.quotient)), rest);
    }
  }
  if (auto st = splitStride(*pa, d)) {
    return natDiv(st->y, termToNat(st->dByG));
  }
  return divideRemainder(a, b);
}

Nat modOfIrreducible(const Nat& a, const Nat& b) {
  if (b->isConst()) {
    auto k = constQuotientByBounds(a, b->value());
    auto shift = k ? checkedMul(*k, b->value()) : std::nullopt;
    if (shift) {
      return natSub(a, natConst(*shift));
    }
  } else if (provenBelow(a, b)) {
    return a;
  } else if (provenJustBelowZero(a, b)) {
    return natAdd(a, b);
  }
  return keep(NatKind::Mod, a, b);
}

Nat modByPositive(const Nat& a, const Nat& b) {
  if (a->kind() == NatKind::Mod) {
    // (y % e) % d = y % d when d divides e; in particular (y % d) % d = y % d.
    const Nat& e = a->rhs();
    if (natEqual(e, b)) {
      return a;
    }
    if (e->isConst() && e->value() != 0 && b->isConst() && e->value() % b->value() == 0) {
      return natMod(a->lhs(), b);
    }
  }
  auto pa = toPoly(a);
  auto pb = toPoly(b);
  if (!pa || !pb) {
    return keep(NatKind::Mod, a, b);
  }
  if (pb->size() != 1) {
    return provenBelow(a, b) ? a : keep(NatKind::Mod, a, b);
  }
  NatTerm d = pb->front();
  if (auto g = cancelCommonFactor(*pa, d)) {
    return natMul(termToNat(*g), natMod(finishPoly(std::move(*pa)), termToNat(d)));
  }
  Split s = splitDivisible(*pa, d);
  if (!s.quotient.empty()) {
    // (q*d + r) % d = r % d; r is smaller than a, so the recursion ends.
    Nat r = finishPoly(std::move(s.remainder));
    Nat rest = natMod(r, b);
    if (worthSplitting(rest, NatKind::Mod, r)) {
      return rest;
    }
  }
  if (auto st = splitStride(*pa, d)) {
    return natAdd(natMul(natConst(st->g), natMod(st->y, termToNat(st->dByG))), st->r);
  }
  return modOfIrreducible(a, b);
}

} // namespace

namespace detail {

bool isAssumedPositiveDivisor(const Nat& d) {
  if (d->isConst()) {
    return d->value() > 0;
  }
  auto p = toPoly(d);
  return p && !(p->size() == 1 && p->front().coeff < 0);
}

} // namespace detail

Nat natDiv(const Nat& a, const Nat& b) {
  if (b->isConst()) {
    const std::int64_t c = b->value();
    if (a->isConst()) {
      auto q = floorDiv(a->value(), c);
      return q ? natConst(*q) : keep(NatKind::Div, a, b);
    }
    if (c == 1) {
      return a;
    }
    if (c == -1) {
      return natMul(natConst(-1), a);
    }
  }
  if (!isAssumedPositiveDivisor(b)) {
    return keep(NatKind::Div, a, b);
  }
  if (a->isConst(0)) {
    return a;
  }
  if (natEqual(a, b)) {
    return natOne();
  }
  if (a->kind() == NatKind::Div) {
    // floor(floor(y/e)/b) = floor(y/(e*b)) for any e != 0 and b > 0.
    return natDiv(a->lhs(), natMul(a->rhs(), b));
  }
  return divByPositive(a, b);
}

Nat natMod(const Nat& a, const Nat& b) {
  if (b->isConst()) {
    const std::int64_t c = b->value();
    if (a->isConst()) {
      auto r = floorMod(a->value(), c);
      return r ? natConst(*r) : keep(NatKind::Mod, a, b);
    }
    if (c == 1 || c == -1) {
      return natZero();
    }
  }
  if (!isAssumedPositiveDivisor(b)) {
    return keep(NatKind::Mod, a, b);
  }
  if (a->isConst(0) || natEqual(a, b)) {
    return natZero();
  }
  return modByPositive(a, b);
}

} // namespace risec::rise
