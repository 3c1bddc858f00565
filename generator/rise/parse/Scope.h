// The binders visible at a point of the parse. depFun binders may be used in
// types (a size name becomes its Nat variable, a Data name its type
// variable); fun binders only matter because they shadow a depFun binder of
// the same name in expression position (`depFun(t: Data => fun(t => f(t)))`
// passes the value `t`, not the type).
#pragma once

#include "rise/types/Type.h"

#include <optional>
#include <string>
#include <vector>

namespace risec::rise {

class Scope {
public:
  void pushValue(const std::string& name) { entries_.push_back({name, std::nullopt}); }
  void pushDep(const DepBinder& b) { entries_.push_back({b.name(), b}); }
  std::size_t size() const { return entries_.size(); }
  /// Drops every binder pushed since size() returned `mark`.
  void restore(std::size_t mark) { entries_.resize(mark); }

  /// The innermost depFun binder named `name`; fun binders are invisible in types.
  const DepBinder* findDep(const std::string& name) const {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
      if (it->dep && it->name == name)
        return &*it->dep;
    return nullptr;
  }

  /// True if `name` in expression position means a Data type parameter.
  bool isDataBinder(const std::string& name) const {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it)
      if (it->name == name)
        return it->dep && it->dep->kind == Kind::Data;
    return false;
  }

private:
  struct Entry {
    std::string name;
    std::optional<DepBinder> dep; ///< empty for fun binders
  };
  std::vector<Entry> entries_;
};

} // namespace risec::rise
