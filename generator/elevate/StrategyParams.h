// The parameters of a strategy file (docs/strategies.md, "Parameters"):
// `param NAME = DEFAULT [in [V, ...]]` declares an integer the strategy is
// written over, `require COND` a condition every binding must meet. A spec
// binds the parameters per variant and ISA level; `risec tune` searches the
// candidates. The conditions may also name machine facts (the ISA level's
// `vector_lanes` and `vector_registers`) and the entry's sizes.
#pragma once

#include "elevate/StrategyAst.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace risec::elevate {

/// Values by name: parameters, machine facts, sizes.
using ParamValues = std::map<std::string, std::int64_t>;

/// A `param` and a `require` as parsed (StrategyAst.h), once checked.
using StrategyParameter = SParam;
using StrategyRequirement = SRequire;

struct StrategyInterface {
  std::vector<StrategyParameter> params;
  std::vector<StrategyRequirement> requirements;

  const StrategyParameter* find(const std::string& name) const;
  /// The defaults, overridden by the entries of `bindings` that name a parameter.
  ParamValues bind(const ParamValues& bindings) const;
};

/// The parameters and requirements of a strategy file (parse errors: E0701,
/// E0702; a parameter declared twice or named like a def, rule or builtin:
/// E0706; a default or candidate below 1, or a default outside its `in`
/// list: E0712). Whether a requirement's names exist depends on the entry's
/// sizes: the spec loader checks that (E0827).
StrategyInterface strategyInterface(const std::shared_ptr<const SourceFile>& file);
StrategyInterface strategyInterface(const StrategyFileAst& ast);

/// The value of a condition; nullopt when it names something `values` lacks.
/// Comparisons and `&&` give 0 or 1; division and modulo by 0 give nullopt
/// with `*divByZero` set.
std::optional<std::int64_t> evaluate(const SExpr& e, const ParamValues& values,
                                     bool* divByZero = nullptr);

/// The condition as written (fully parenthesised only where needed).
std::string render(const SExpr& e);

/// The names a condition uses.
void namesIn(const SExpr& e, std::vector<std::string>& out);

/// Checks every requirement whose names all have values in `values` (E0713
/// when one does not hold, naming the values it was evaluated with);
/// requirements that name a size or an absent machine fact are left to
/// `risec tune` and to the kernel's run-time checks.
void checkRequirements(const StrategyInterface& iface, const ParamValues& values);

/// The machine facts a requirement may name (whatever the target).
const std::vector<std::string>& machineFactNames();

} // namespace risec::elevate
