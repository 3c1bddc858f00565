// min/max: decided by the prover when one side is provably <= the other,
// otherwise kept with the operands in canonical order (they commute).
#include "rise/nat/NatInternal.h"

#include <algorithm>

namespace risec::rise {

using namespace detail;

namespace {

Nat keepOrdered(NatKind kind, const Nat& a, const Nat& b) {
  if (natCompare(a, b) <= 0) {
    return makeNode(kind, {a, b});
  }
  return makeNode(kind, {b, a});
}

} // namespace

Nat natMin(const Nat& a, const Nat& b) {
  if (a->isConst() && b->isConst()) {
    return natConst(std::min(a->value(), b->value()));
  }
  if (natEqual(a, b) || proveLessEqual(a, b)) {
    return a;
  }
  if (proveLessEqual(b, a)) {
    return b;
  }
  return keepOrdered(NatKind::Min, a, b);
}

Nat natMax(const Nat& a, const Nat& b) {
  if (a->isConst() && b->isConst()) {
    return natConst(std::max(a->value(), b->value()));
  }
  if (natEqual(a, b) || proveLessEqual(b, a)) {
    return a;
  }
  if (proveLessEqual(a, b)) {
    return b;
  }
  return keepOrdered(NatKind::Max, a, b);
}

} // namespace risec::rise
