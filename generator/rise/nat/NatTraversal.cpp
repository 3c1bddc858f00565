// Traversals: substitution rebuilds through the smart constructors so the
// result is simplified again (substituting can enable new rules).
#include "rise/nat/NatInternal.h"

namespace risec::rise {

using namespace detail;

namespace {

using Rewrite = std::function<Nat(const Nat&)>;

Nat rebuild(const Nat& n, const std::vector<Nat>& ops) {
  switch (n->kind()) {
  case NatKind::Sum: {
    Nat acc = natZero();
    for (const auto& op : ops) {
      acc = natAdd(acc, op);
    }
    return acc;
  }
  case NatKind::Prod: {
    Nat acc = natOne();
    for (const auto& op : ops) {
      acc = natMul(acc, op);
    }
    return acc;
  }
  case NatKind::Div:
    return natDiv(ops[0], ops[1]);
  case NatKind::Mod:
    return natMod(ops[0], ops[1]);
  case NatKind::Pow:
    return natPow(ops[0], ops[1]);
  case NatKind::Min:
    return natMin(ops[0], ops[1]);
  case NatKind::Max:
    return natMax(ops[0], ops[1]);
  default:
    return n;
  }
}

// Applies `f` top-down (a non-null result replaces the whole subterm) and
// rebuilds only the parts that changed.
Nat transform(const Nat& n, const Rewrite& f) {
  if (Nat r = f(n)) {
    return r;
  }
  if (n->operands().empty()) {
    return n;
  }
  std::vector<Nat> ops;
  bool changed = false;
  for (const auto& op : n->operands()) {
    ops.push_back(transform(op, f));
    changed = changed || ops.back() != op;
  }
  return changed ? rebuild(n, ops) : n;
}

bool anyNode(const Nat& n, const std::function<bool(const Nat&)>& pred) {
  if (pred(n)) {
    return true;
  }
  for (const auto& op : n->operands()) {
    if (anyNode(op, pred)) {
      return true;
    }
  }
  return false;
}

} // namespace

namespace detail {

Nat natReplace(const Nat& n, const Nat& target, const Nat& replacement) {
  return transform(n, [&](const Nat& m) { return natEqual(m, target) ? replacement : nullptr; });
}

bool natContains(const Nat& n, const Nat& target) {
  return anyNode(n, [&](const Nat& m) { return natEqual(m, target); });
}

} // namespace detail

Nat natMapVars(const Nat& n, const std::function<Nat(const NatVarInfo&)>& f) {
  return transform(
      n, [&](const Nat& m) -> Nat { return m->kind() == NatKind::Var ? f(m->var()) : nullptr; });
}

Nat natSubstitute(const Nat& n, const std::map<std::uint64_t, Nat>& subst) {
  if (subst.empty()) {
    return n;
  }
  return natMapVars(n, [&](const NatVarInfo& v) -> Nat {
    auto it = subst.find(v.id);
    return it == subst.end() ? nullptr : it->second;
  });
}

void natForEachVar(const Nat& n, const std::function<void(const NatVarInfo&)>& f) {
  if (n->kind() == NatKind::Var) {
    f(n->var());
  }
  for (const auto& op : n->operands()) {
    natForEachVar(op, f);
  }
}

bool natContainsVar(const Nat& n, std::uint64_t id) {
  return anyNode(n, [&](const Nat& m) { return m->kind() == NatKind::Var && m->var().id == id; });
}

bool natHasMeta(const Nat& n) {
  return anyNode(n, [](const Nat& m) { return m->kind() == NatKind::Var && m->var().meta; });
}

bool natContainsMinOrMax(const Nat& n) {
  return anyNode(
      n, [](const Nat& m) { return m->kind() == NatKind::Min || m->kind() == NatKind::Max; });
}

} // namespace risec::rise
