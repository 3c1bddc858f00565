// Powers: constants fold, products distribute the exponent ((n*m)^k =
// n^k*m^k, (n^a)^b = n^(a*b)), small constant powers of sums are multiplied
// out so that (n+1)^2 and (n+1)*(n+1) have the same normal form.
#include "rise/nat/NatInternal.h"

namespace risec::rise {

using namespace detail;

namespace {

// Expanding (a + b + ...)^k creates up to terms^k products before combining;
// beyond this the power stays an atom.
constexpr std::size_t kMaxExpandedTerms = 64;

Nat keepPow(const Nat& a, const Nat& b) {
  return makeNode(NatKind::Pow, {a, b});
}

bool smallExpansion(std::size_t terms, std::int64_t k) {
  std::size_t total = 1;
  for (std::int64_t i = 0; i < k; ++i) {
    total *= terms;
    if (total > kMaxExpandedTerms) {
      return false;
    }
  }
  return true;
}

std::optional<NatPoly> expandSumPower(const NatPoly& p, std::int64_t k) {
  std::optional<NatPoly> acc = p;
  for (std::int64_t i = 1; i < k && acc; ++i) {
    acc = polyMul(*acc, p);
  }
  return acc;
}

// (c * f1^e1 * ... )^b = c^b * f1^(e1*b) * ...; a non-constant power of a
// coefficient c becomes the factor c^b.
std::optional<NatPoly> termPower(const NatTerm& t, const Nat& b) {
  std::optional<NatPoly> acc;
  if (b->isConst()) {
    auto c = checkedPow(t.coeff, b->value());
    if (!c) {
      return std::nullopt;
    }
    acc = polyConst(*c);
  } else {
    acc = t.coeff == 1 ? polyConst(1) : polyOfTerm({1, {{natConst(t.coeff), b}}});
  }
  for (const auto& f : t.factors) {
    if (!acc) {
      return std::nullopt;
    }
    acc = polyMul(*acc, polyOfTerm({1, {{f.base, natMul(f.exp, b)}}}));
  }
  return acc;
}

Nat constPow(const Nat& a, const Nat& b) {
  const std::int64_t k = b->value();
  if (a->isConst()) {
    auto v = checkedPow(a->value(), k);
    return v ? natConst(*v) : keepPow(a, b);
  }
  auto p = toPoly(a);
  if (!p) {
    return keepPow(a, b);
  }
  std::optional<NatPoly> r;
  if (p->size() == 1) {
    r = termPower(p->front(), b);
  } else if (smallExpansion(p->size(), k)) {
    r = expandSumPower(*p, k);
  }
  return r ? finishPoly(std::move(*r)) : keepPow(a, b);
}

Nat symbolicPow(const Nat& a, const Nat& b) {
  if (a->isConst(1)) {
    return a;
  }
  auto p = toPoly(a);
  // 0^k depends on whether k is 0, and sums have no closed form.
  if (!p || p->size() != 1) {
    return keepPow(a, b);
  }
  auto r = termPower(p->front(), b);
  return r ? finishPoly(std::move(*r)) : keepPow(a, b);
}

} // namespace

Nat natPow(const Nat& a, const Nat& b) {
  if (!b->isConst()) {
    return symbolicPow(a, b);
  }
  if (b->value() == 0) {
    return natOne();
  }
  if (b->value() == 1) {
    return a;
  }
  if (b->value() < 0) {
    return keepPow(a, b); // not a natural number; left for evaluation to reject
  }
  return constPow(a, b);
}

} // namespace risec::rise
