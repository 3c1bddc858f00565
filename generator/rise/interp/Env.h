// The evaluation environment: what the variables in scope stand for.
//
//   - value variables (lambda binders), by name, innermost binding first;
//   - dependent variables (depFun binders, the size parameters of the entry),
//     by id: Nat variables to numbers, Data variables to types.
//
// Environments are persistent linked lists, so extending one is O(1) and
// closures capture their environment by sharing it.
#pragma once

#include "rise/interp/Value.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace risec::rise::interp {

class Env {
public:
  Env bindValue(const std::string& name, Value v) const;
  Env bindNat(std::uint64_t id, std::int64_t v) const;
  Env bindType(std::uint64_t id, Type t) const;

  /// The innermost binding of `name`, or null.
  const Value* lookupValue(const std::string& name) const;
  std::optional<std::int64_t> lookupNat(std::uint64_t id) const;
  Type lookupType(std::uint64_t id) const; ///< null if unbound

  /// Evaluates a Nat with the Nat variables of this environment; nullopt if a
  /// variable is unbound or a division by zero happens.
  std::optional<std::int64_t> evalNat(const Nat& n) const;
  /// Replaces the Data variables bound here (Nat variables are kept).
  Type resolveType(const Type& t) const;

private:
  struct ValueBinding {
    std::string name;
    Value value;
    std::shared_ptr<const ValueBinding> next;
  };
  struct DepBinding {
    std::uint64_t id;
    std::int64_t nat = 0; ///< for Nat variables
    Type type;            ///< for Data variables (null for Nat variables)
    std::shared_ptr<const DepBinding> next;
  };

  std::shared_ptr<const ValueBinding> values_;
  std::shared_ptr<const DepBinding> deps_;
  bool hasTypes_ = false; ///< any Data binding in deps_ (skips substitution otherwise)
};

} // namespace risec::rise::interp
