#include "elevate/Rewriter.h"

#include "elevate/Session.h"
#include "rise/print/Printer.h"
#include "rules/RiseUtil.h"
#include "support/Diagnostic.h"

namespace risec::elevate {

using namespace risec::rise;

namespace {

/// A printed term cut to its first lines: a diagnostic shows where a step
/// failed, not the whole program.
std::string excerpt(const std::string& term) {
  constexpr std::size_t kLines = 12;
  std::size_t pos = 0;
  for (std::size_t line = 0; line < kLines; ++line) {
    pos = term.find('\n', pos);
    if (pos == std::string::npos)
      return term;
    ++pos;
  }
  std::size_t rest = 1;
  for (std::size_t p = pos; (p = term.find('\n', p)) != std::string::npos; ++p)
    ++rest;
  return term.substr(0, pos) + "  ... (" + std::to_string(rest) + " more lines)";
}

/// The notes about a rule that did not apply, reported at `at`: what it
/// rewrites (where it is written, if not at `at`), and where the term it was
/// tried on comes from, with the condition that failed if the rule said.
void addRuleNotes(CompileError& e, const RuleFailure& r, const SourceLocation& at) {
  if (r.loc.known()) {
    bool elsewhere = r.loc.line != at.line || r.loc.column != at.column;
    if (!r.form.empty())
      e.note(r.loc, "the rule `" + r.rule + "`" + (elsewhere ? ", written here," : "") +
                        " rewrites " + r.form);
    else if (elsewhere)
      e.note(r.loc, "the rule `" + r.rule + "` is written here");
  }
  std::string why = r.why.empty() ? "" : ": " + r.why;
  if (r.fragmentLoc.known())
    e.note(r.fragmentLoc, "the term it was applied to comes from here" + why);
  else if (!why.empty())
    e.note(at, "the rule does not apply" + why);
}

/// E0710 at the step that failed: what failed inside it and on what, the
/// program's source of that sub-term, and the steps before it (which
/// succeeded).
CompileError stepFailureError(const StepFailure& f) {
  std::string what =
      f.rule
          ? "`" + f.rule->rule + "` does not apply to " + excerpt(f.rule->fragment)
          : "nothing in the program matches it; the program at this step is " + excerpt(f.program);
  CompileError e("E0710", f.loc, "the strategy failed at the step `" + f.step + "`: " + what);
  if (f.rule)
    addRuleNotes(e, *f.rule, f.loc);
  else if (f.programLoc.known())
    e.note(f.programLoc, "the term it was applied to comes from here");
  std::size_t n = f.before.size();
  if (n > 0)
    e.note(f.before.front()->loc(),
           n == 1 ? "the step before it succeeded: `" + f.before.front()->display() + "`"
                  : "the " + std::to_string(n) + " steps before it succeeded, from `" +
                        f.before.front()->display() + "` to `" + f.before.back()->display() + "`");
  return e;
}

} // namespace

TypedDef rewriteDef(const Program& program, const TypedDef& def, const Strategy& strategy,
                    const RewriteOptions& opts) {
  Session session(program, def, opts.backend);
  session.setTrace(opts.trace);
  auto result = strategy.apply(session.initial(), {}, session);
  if (result)
    return result->typed;
  if (const StepFailure* f = session.stepFailure())
    throw stepFailureError(*f);
  if (const auto& f = session.failure()) {
    CompileError e("E0710", f->loc,
                   "the strategy failed: `" + f->rule + "` does not apply to " + f->fragment);
    addRuleNotes(e, *f, f->loc);
    throw e;
  }
  throw CompileError("E0710", strategy.loc(),
                     "the strategy failed: `" + strategy.display() + "` does not apply to " +
                         printExpr(rules::stripImplicit(def.expr)));
}

Program rewrittenProgram(const Program& program, const TypedDef& def) {
  return rules::singleDefProgram(program, def.name, rules::stripImplicit(def.expr));
}

} // namespace risec::elevate
