#include "elevate/Rewriter.h"

#include "elevate/Session.h"
#include "rise/print/Printer.h"
#include "rules/RiseUtil.h"
#include "support/Diagnostic.h"

namespace risec::elevate {

using namespace risec::rise;

TypedDef rewriteDef(const Program& program, const TypedDef& def, const Strategy& strategy,
                    const RewriteOptions& opts) {
  Session session(program, def);
  session.setTrace(opts.trace);
  auto result = strategy.apply(session.initial(), {}, session);
  if (result)
    return result->typed;
  if (const auto& f = session.failure())
    throw CompileError("E0710", f->loc,
                       "the strategy failed: `" + f->rule + "` does not apply to " + f->fragment);
  throw CompileError("E0710", strategy.loc(),
                     "the strategy failed: `" + strategy.display() + "` does not apply to " +
                         printExpr(rules::stripImplicit(def.expr)));
}

Program rewrittenProgram(const Program& program, const TypedDef& def) {
  return rules::singleDefProgram(program, def.name, rules::stripImplicit(def.expr));
}

} // namespace risec::elevate
