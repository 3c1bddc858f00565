// A rewrite session: the context of one strategy run. It re-infers the program
// after every rule application (a rule that breaks typing is an
// InternalError), supplies deterministic fresh names, records the trace of
// successful steps and the innermost rule failure for diagnostics, and bounds
// the number of steps so that a non-terminating strategy is reported.
#pragma once

#include "elevate/Strategy.h"
#include "rules/RiseUtil.h"
#include "rules/Rule.h"

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
  std::string fragment;       ///< printed program fragment the rule was tried on
  SourceLocation fragmentLoc; ///< where the fragment comes from in the program's source
  std::size_t depth = 0;
  std::string why;  ///< the condition that failed, if the rule said (RuleContext::refuse)
  std::string form; ///< the terms the rule rewrites (RuleInfo::before), if it is a named rule
};

/// The step of a sequence `s1 ; s2 ; ...` that made a strategy fail: the
/// innermost one (a step that is itself a sequence, or a def of one, names
/// its own failing step).
struct StepFailure {
  std::string step; ///< as written
  SourceLocation loc;
  std::string program;             ///< what it was applied to, printed
  SourceLocation programLoc;       ///< where that comes from in the program's source
  std::optional<RuleFailure> rule; ///< the failure of a rule inside the step closest to the root
  std::vector<const Strategy*> before; ///< the steps of the enclosing sequences before it
};

class Session {
public:
  Session(const rise::Program& program, const rise::TypedDef& def,
          rules::Backend backend = rules::Backend::C);

  /// The initial state: the def in the stripped view.
  State initial() const;

  /// `s` with the node at `at` replaced by `replacement`, typed again.
  /// Throws InternalError when the result does not type-check or its type
  /// differs from the def's type.
  State commit(const State& s, const Path& at, const Expr& replacement, const Strategy& rule);

  rules::NameSupply& names() { return names_; }
  const rise::Program& program() const { return program_; }
  /// The back end the strategy is applied for (RuleContext::backend).
  rules::Backend backend() const { return backend_; }

  /// Trace output (null: no trace).
  void setTrace(std::ostream* out) { trace_ = out; }
  const std::vector<TraceStep>& steps() const { return steps_; }

  void recordFailure(const Strategy& rule, const State& s, const Path& at, std::string why = {},
                     std::string form = {});
  const std::optional<RuleFailure>& failure() const { return failure_; }

  /// The bookkeeping of sequences. A step starts: the rule failures recorded
  /// so far are forgotten, and the returned mark tells which step failures
  /// happen inside it.
  std::size_t beginStep();
  /// The mark alone, for a combinator that recovers from failures.
  std::size_t stepMark() const { return stepFailures_.size(); }
  /// The step that started at `mark` failed on `s` at `at`: recorded unless
  /// a step inside it was (that one is more precise).
  void stepFailed(const Strategy& step, const State& s, const Path& at, std::size_t mark);
  /// The step failure recorded since `mark` comes after the steps of `first`.
  void stepsBefore(const Strategy& first, std::size_t mark);
  /// The failures since `mark` were recovered from (`<+`, the end of `repeat`).
  void forgetStepFailures(std::size_t mark);
  /// The step failure that made the whole strategy fail (the outermost
  /// sequence records it last).
  const StepFailure* stepFailure() const;

  /// Counts one iteration of a loop (repeat, normalize); throws CompileError
  /// E0711 past the limit.
  void tick(const Strategy& where);
  static constexpr long kStepLimit = 20000;

  /// One level of a recursive def's calls (RAII): more than kDepthLimit
  /// nested calls are E0711.
  class Recursion {
  public:
    Recursion(Session& s, const Strategy& where);
    ~Recursion() { --session_.depth_; }
    Recursion(const Recursion&) = delete;
    Recursion& operator=(const Recursion&) = delete;

  private:
    Session& session_;
  };
  static constexpr int kDepthLimit = 1000;

private:
  const rise::Program& program_;
  rise::TypedDef original_;
  rules::Backend backend_;
  rules::NameSupply names_;
  std::ostream* trace_ = nullptr;
  std::vector<TraceStep> steps_;
  std::optional<RuleFailure> failure_;
  std::vector<StepFailure> stepFailures_;
  std::size_t reported_ = 0; ///< index of the step failure to report, if any
  long ticks_ = 0;
  int depth_ = 0; ///< nested calls of recursive defs
};

} // namespace risec::elevate
