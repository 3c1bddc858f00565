// A rewrite session: the context of one strategy run. It re-infers the program
// after every rule application (a rule that breaks typing is an
// InternalError), supplies deterministic fresh names, records the trace of
// successful steps and the innermost rule failure for diagnostics, and bounds
// the number of steps so that a non-terminating strategy is reported.
#pragma once

#include "elevate/Strategy.h"
#include "rules/RiseUtil.h"

#include <ostream>

namespace risec::elevate {

struct TraceStep {
  std::string rule; ///< as written, e.g. `splitJoin(32)`
  SourceLocation loc;
  std::string before, after; ///< printed fragments
};

struct RuleFailure {
  std::string rule;
  SourceLocation loc;
  std::string fragment; ///< printed program fragment the rule was tried on
  std::size_t depth = 0;
};

class Session {
public:
  Session(const rise::Program& program, const rise::TypedDef& def);

  /// The initial state: the def in the stripped view.
  State initial() const;

  /// `s` with the node at `at` replaced by `replacement`, typed again.
  /// Throws InternalError when the result does not type-check or its type
  /// differs from the def's type.
  State commit(const State& s, const Path& at, const Expr& replacement, const Strategy& rule);

  rules::NameSupply& names() { return names_; }
  const rise::Program& program() const { return program_; }

  /// Trace output (null: no trace).
  void setTrace(std::ostream* out) { trace_ = out; }
  const std::vector<TraceStep>& steps() const { return steps_; }

  void recordFailure(const Strategy& rule, const State& s, const Path& at);
  const std::optional<RuleFailure>& failure() const { return failure_; }

  /// Counts one iteration of a loop (repeat, normalize); throws CompileError
  /// E0711 past the limit.
  void tick(const Strategy& where);
  static constexpr long kStepLimit = 20000;

private:
  const rise::Program& program_;
  rise::TypedDef original_;
  rules::NameSupply names_;
  std::ostream* trace_ = nullptr;
  std::vector<TraceStep> steps_;
  std::optional<RuleFailure> failure_;
  long ticks_ = 0;
};

} // namespace risec::elevate
