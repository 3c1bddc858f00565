// The names a strategy file can use besides its own defs: combinators,
// traversals, locations, predicates and normal forms (this registry), and
// the rules (ruleRegistry: the rewrite rules of generator/rules and the
// lowering stage's `lowerToC`).
#pragma once

#include "elevate/Strategy.h"
#include "rules/Rule.h"

#include <functional>
#include <map>
#include <variant>

namespace risec::elevate {

/// A resolved argument of a call in a strategy file.
struct Arg {
  std::variant<std::int64_t, rise::AddrSpace, std::vector<std::int64_t>, StrategyPtr> value;
  SourceLocation loc;
};

struct Builtin {
  std::string category; ///< "combinator", "traversal", "location", "predicate", "normal form"
  std::vector<rules::ParamKind> params;
  std::function<StrategyPtr(const std::vector<Arg>&, const SourceLocation&)> make;
  /// True when the last parameter is the strategy that `s @ NAME(...)` supplies.
  bool traversal = false;
  /// True when its integer arguments are repetition counts (0 and up), not
  /// sizes (1 and up).
  bool counts = false;
};

class StrategyRegistry {
public:
  static const StrategyRegistry& instance();
  const Builtin* find(const std::string& name) const;
  const std::map<std::string, Builtin>& all() const { return builtins_; }

private:
  std::map<std::string, Builtin> builtins_;
};

/// Every rule a strategy can name: rules::RuleRegistry::instance() (the
/// rewrite rules) and the lowering stage's rule `lowerToC` (lower/LowerRule.h).
const rules::RuleRegistry& ruleRegistry();

} // namespace risec::elevate
