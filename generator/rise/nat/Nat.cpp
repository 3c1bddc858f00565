// Node construction, variables and the canonical order of Nats.
#include "rise/nat/Nat.h"
#include "rise/nat/NatInternal.h"

#include <atomic>

namespace risec::rise {

namespace detail {

Nat makeNode(NatKind kind, std::vector<Nat> ops) {
  return std::make_shared<const NatNode>(kind, 0, nullptr, std::move(ops));
}

Nat natOne() {
  static const Nat one = natConst(1);
  return one;
}

Nat natZero() {
  static const Nat zero = natConst(0);
  return zero;
}

} // namespace detail

namespace {

// Ids are only used for identity (and as a deterministic tie-break in the
// order); a process-wide counter keeps them unique across threads.
std::uint64_t freshId() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

Nat makeVar(const std::string& name, bool meta, Nat lower, Nat upper) {
  auto info = std::make_shared<NatVarInfo>();
  info->id = freshId();
  info->name = name;
  info->meta = meta;
  info->lower = std::move(lower);
  info->upper = std::move(upper);
  return natVarRef(std::move(info));
}

template <typename T> int compareValues(const T& a, const T& b) {
  if (a < b) {
    return -1;
  }
  return b < a ? 1 : 0;
}

int compareOperands(const std::vector<Nat>& a, const std::vector<Nat>& b) {
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (int c = natCompare(a[i], b[i]); c != 0) {
      return c;
    }
  }
  return compareValues(a.size(), b.size());
}

} // namespace

Nat natConst(std::int64_t v) {
  return std::make_shared<const NatNode>(NatKind::Const, v, nullptr, std::vector<Nat>{});
}

Nat natVar(const std::string& name, Nat lower, Nat upper) {
  return makeVar(name, false, std::move(lower), std::move(upper));
}

Nat natMeta(const std::string& name) {
  return makeVar(name, true, nullptr, nullptr);
}

Nat natVarRef(std::shared_ptr<const NatVarInfo> info) {
  return std::make_shared<const NatNode>(NatKind::Var, 0, std::move(info), std::vector<Nat>{});
}

int natCompare(const Nat& a, const Nat& b) {
  if (a == b) {
    return 0;
  }
  if (a->kind() != b->kind()) {
    return compareValues(static_cast<int>(a->kind()), static_cast<int>(b->kind()));
  }
  switch (a->kind()) {
  case NatKind::Const:
    return compareValues(a->value(), b->value());
  case NatKind::Var:
    if (int c = compareValues(a->var().id, b->var().id); c != 0) {
      return c;
    }
    return compareValues(a->var().name, b->var().name);
  default:
    return compareOperands(a->operands(), b->operands());
  }
}

bool natEqual(const Nat& a, const Nat& b) {
  return natCompare(a, b) == 0;
}

} // namespace risec::rise
