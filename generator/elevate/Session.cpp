#include "elevate/Session.h"

#include "elevate/Path.h"
#include "rise/infer/EqualUnderPreconditions.h"
#include "rise/print/Printer.h"
#include "support/Diagnostic.h"

namespace risec::elevate {

using namespace risec::rise;

Session::Session(const Program& program, const TypedDef& def, rules::Backend backend)
    : program_(program), original_(def), backend_(backend) {
  names_.reserve(def.expr);
}

State Session::initial() const {
  return State{rules::stripImplicit(original_.expr), original_};
}

State Session::commit(const State& s, const Path& at, const Expr& replacement,
                      const Strategy& rule) {
  Expr whole = replaceAt(s.expr, at, replacement);
  names_.reserve(whole);
  TypedDef typed;
  try {
    try {
      typed = rules::retype(program_, original_.name, rules::annotateParams(whole));
      typed.expr = rules::restoreAnnotations(whole, typed.expr);
      if (!typed.expr) // inference reshaped the program (e.g. a depFun applied to a size)
        typed = rules::retype(program_, original_.name, whole);
    } catch (const CompileError&) {
      typed = rules::retype(program_, original_.name, whole);
    }
  } catch (const CompileError& e) {
    throw InternalError("rule `" + rule.display() + "` (" + rule.loc().str() +
                        ") produced a program that does not type-check (" + e.code() + ": " +
                        e.message() + "):\n" + printExpr(whole));
  }
  // A rule may add a size precondition (split(32) needs n%32 == 0) and give
  // a size as 32*(n/32); the type must still be the original one under it.
  if (!typeEqualUnder(typed.type, original_.type, typed.preconditions))
    throw InternalError("rule `" + rule.display() + "` changed the type of `" + original_.name +
                        "` from " + typeToString(original_.type) + " to " +
                        typeToString(typed.type));
  State next{rules::stripImplicit(typed.expr), typed};
  if (trace_) {
    TraceStep step{rule.display(), rule.loc(), printExpr(nodeAt(s.expr, at)),
                   printExpr(nodeAt(next.expr, at))};
    *trace_ << "step " << steps_.size() + 1 << ": " << step.rule << " (" << step.loc.str()
            << ")\n  before: " << step.before << "\n  after:  " << step.after << "\n";
    steps_.push_back(std::move(step));
  }
  failure_.reset();
  return next;
}

void Session::recordFailure(const Strategy& rule, const State& s, const Path& at, std::string why,
                            std::string form) {
  // Keep the failure closest to the root since the last success: that is the
  // position a traversal started from, the most useful fragment to show.
  // A refusal with a reason (the term had the rule's shape but failed a
  // condition: `vectorize(31)` of rows of 32) tells more than any term
  // without the rule's shape, wherever it is: it is kept over those.
  if (failure_) {
    bool had = !failure_->why.empty(), has = !why.empty();
    if (had != has ? had : failure_->depth < at.size())
      return;
  }
  const Expr& fragment = nodeAt(s.expr, at);
  failure_ = RuleFailure{rule.display(), rule.loc(),     printExpr(fragment), fragment->loc(),
                         at.size(),      std::move(why), std::move(form)};
}

std::size_t Session::beginStep() {
  failure_.reset();
  return stepFailures_.size();
}

void Session::stepFailed(const Strategy& step, const State& s, const Path& at, std::size_t mark) {
  if (stepFailures_.size() > mark) {
    stepFailures_.resize(mark + 1); // the first failure inside the step: where it began
  } else {
    const Expr& e = nodeAt(s.expr, at);
    stepFailures_.push_back(
        StepFailure{step.display(), step.loc(), printExpr(e), e->loc(), failure_, {}});
  }
  reported_ = mark;
}

void Session::stepsBefore(const Strategy& first, std::size_t mark) {
  if (mark >= stepFailures_.size())
    return;
  std::vector<const Strategy*> steps;
  first.appendSteps(steps);
  std::vector<const Strategy*>& before = stepFailures_[mark].before;
  before.insert(before.begin(), steps.begin(), steps.end());
}

void Session::forgetStepFailures(std::size_t mark) {
  if (stepFailures_.size() > mark)
    stepFailures_.resize(mark);
}

const StepFailure* Session::stepFailure() const {
  return reported_ < stepFailures_.size() ? &stepFailures_[reported_] : nullptr;
}

Session::Recursion::Recursion(Session& s, const Strategy& where) : session_(s) {
  if (session_.depth_ >= kDepthLimit)
    throw CompileError("E0711", where.loc(),
                       "the recursive strategy `" + where.display() + "` did not terminate: " +
                           std::to_string(kDepthLimit) + " calls of it are nested");
  ++session_.depth_;
}

void Session::tick(const Strategy& where) {
  if (++ticks_ > kStepLimit)
    throw CompileError("E0711", where.loc(),
                       "the strategy `" + where.display() + "` did not terminate within " +
                           std::to_string(kStepLimit) + " steps");
}

} // namespace risec::elevate
