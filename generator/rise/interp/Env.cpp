#include "rise/interp/Env.h"

namespace risec::rise::interp {

Env Env::bindValue(const std::string& name, Value v) const {
  Env e = *this;
  e.values_ = std::make_shared<const ValueBinding>(ValueBinding{name, std::move(v), values_});
  return e;
}

Env Env::bindNat(std::uint64_t id, std::int64_t v) const {
  Env e = *this;
  e.deps_ = std::make_shared<const DepBinding>(DepBinding{id, v, nullptr, deps_});
  return e;
}

Env Env::bindType(std::uint64_t id, Type t) const {
  Env e = *this;
  e.deps_ = std::make_shared<const DepBinding>(DepBinding{id, 0, std::move(t), deps_});
  e.hasTypes_ = true;
  return e;
}

const Value* Env::lookupValue(const std::string& name) const {
  for (const ValueBinding* b = values_.get(); b; b = b->next.get())
    if (b->name == name)
      return &b->value;
  return nullptr;
}

std::optional<std::int64_t> Env::lookupNat(std::uint64_t id) const {
  for (const DepBinding* b = deps_.get(); b; b = b->next.get())
    if (b->id == id && !b->type)
      return b->nat;
  return std::nullopt;
}

Type Env::lookupType(std::uint64_t id) const {
  for (const DepBinding* b = deps_.get(); b; b = b->next.get())
    if (b->id == id && b->type)
      return b->type;
  return nullptr;
}

std::optional<std::int64_t> Env::evalNat(const Nat& n) const {
  if (n->isConst())
    return n->value();
  return natEvaluate(n, [this](const NatVarInfo& v) { return lookupNat(v.id); });
}

Type Env::resolveType(const Type& t) const {
  if (!hasTypes_)
    return t;
  TypeSubst subst;
  // Innermost bindings first: keep the first binding seen for each id.
  for (const DepBinding* b = deps_.get(); b; b = b->next.get())
    if (b->type)
      subst.types.emplace(b->id, b->type);
  return substitute(t, subst);
}

} // namespace risec::rise::interp
