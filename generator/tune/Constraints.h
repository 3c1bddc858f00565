// The constraint model of `risec tune` (docs/tuning.md, "The constraint
// model"): one integer variable per strategy parameter, each among its
// candidates (`param NAME = DEFAULT in [V, ...]`), and every `require` of
// the strategy with the ISA level's machine facts and the bench sizes as
// constants. Z3 solves it and enumerates every model with blocking clauses.
#pragma once

#include "elevate/StrategyParams.h"

#include <string>
#include <vector>

namespace risec::tune {

/// What the model is built from. A parameter without an `in` list is fixed
/// to its value in `fixed` (the spec's binding, else its default).
struct TuneProblem {
  elevate::StrategyInterface iface;
  /// Machine facts (`vector_lanes`, ...) and sizes (`m`, ...) by name.
  elevate::ParamValues constants;
  /// Values of the parameters that have no candidates (their binding).
  elevate::ParamValues fixed;
};

/// The candidates a parameter ranges over: its `in` list, else its fixed
/// value (or the default).
std::vector<std::int64_t> domainOf(const TuneProblem& p, const elevate::StrategyParameter& param);

/// Every binding of the parameters that the model admits, found by Z3, in
/// lexicographic order of the values (parameters in declaration order).
/// A requirement that names something that is neither a parameter nor a
/// constant is E0833 at the requirement.
std::vector<elevate::ParamValues> solveCandidates(const TuneProblem& p);

/// The same set by brute force with elevate::evaluate (a requirement that
/// does not evaluate, e.g. a division by zero, rejects the binding). The
/// reference of the tests; also whether one binding is admitted.
std::vector<elevate::ParamValues> bruteForceCandidates(const TuneProblem& p);
bool admits(const TuneProblem& p, const elevate::ParamValues& binding);

/// `candidates` reordered nearest `from` first: by the number of parameters
/// whose value differs from `from`'s (one changed, then two, ...), each
/// group in its order before (stable). A budget that cannot time every
/// candidate then explores around the current binding instead of one corner
/// of the lexicographic order.
void nearestFirst(std::vector<elevate::ParamValues>& candidates, const elevate::ParamValues& from);

/// The model as text, one constraint per line (for the tune log).
std::string constraintsText(const TuneProblem& p);

} // namespace risec::tune
