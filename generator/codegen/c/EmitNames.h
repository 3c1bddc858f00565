// Deterministic, collision-free C names for the generated function: RISE
// binder names are kept where possible (`row`, `acc`), numbered when taken
// (`i`, `i_2`); C keywords and the names risec emits itself are reserved.
#pragma once

#include <set>
#include <string>

namespace risec::codegen::c {

class NameTable {
public:
  NameTable();
  /// A new unique C identifier derived from `hint`.
  std::string fresh(const std::string& hint);
  /// Marks `name` as taken.
  void reserve(const std::string& name) { used_.insert(name); }
  bool taken(const std::string& name) const { return used_.count(name) > 0; }

private:
  std::set<std::string> used_;
};

} // namespace risec::codegen::c
