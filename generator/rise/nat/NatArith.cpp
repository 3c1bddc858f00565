// Sums and products: computed in the polynomial view (flattening,
// distribution, like terms), falling back to an unfolded node only when a
// coefficient would overflow int64.
#include "rise/nat/NatInternal.h"

namespace risec::rise {

using namespace detail;

namespace {

using PolyOp = std::optional<NatPoly> (*)(const NatPoly&, const NatPoly&);

Nat combine(const Nat& a, const Nat& b, PolyOp op, NatKind fallback) {
  auto pa = toPoly(a);
  auto pb = toPoly(b);
  std::optional<NatPoly> r = pa && pb ? op(*pa, *pb) : std::nullopt;
  if (!r) {
    return makeNode(fallback, {a, b});
  }
  return finishPoly(std::move(*r));
}

} // namespace

Nat natAdd(const Nat& a, const Nat& b) {
  if (a->isConst(0)) {
    return b;
  }
  if (b->isConst(0)) {
    return a;
  }
  return combine(a, b, polyAdd, NatKind::Sum);
}

Nat natSub(const Nat& a, const Nat& b) {
  if (b->isConst(0)) {
    return a;
  }
  auto pa = toPoly(a);
  auto pb = toPoly(b);
  std::optional<NatPoly> r = pa && pb ? polySub(*pa, *pb) : std::nullopt;
  if (!r) {
    // Unfoldable: keep a + (-1)*b, evaluation still reports the overflow.
    return makeNode(NatKind::Sum, {a, makeNode(NatKind::Prod, {natConst(-1), b})});
  }
  return finishPoly(std::move(*r));
}

Nat natMul(const Nat& a, const Nat& b) {
  if (a->isConst(1)) {
    return b;
  }
  if (b->isConst(1)) {
    return a;
  }
  if (a->isConst(0) || b->isConst(0)) {
    return natZero();
  }
  return combine(a, b, polyMul, NatKind::Prod);
}

} // namespace risec::rise
