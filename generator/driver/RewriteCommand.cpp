#include "driver/RewriteCommand.h"

#include "codegen/Target.h"
#include "driver/SourceLoader.h"
#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"
#include "support/Diagnostic.h"

#include <ostream>

namespace risec::driver {

using namespace risec::rise;

int runRewrite(const RewriteOptions& opts, std::ostream& out, std::ostream& err) {
  Program program = parseProgram(loadSource(opts.file));
  std::string entry = resolveEntry(program, opts.entry, opts.file);
  std::optional<codegen::Target> target = codegen::parseTarget(opts.target);
  if (!target)
    throw CompileError("E0611", {},
                       "the target `" + opts.target +
                           "` is not supported; the back ends are --target c, --target openmp "
                           "and --target opencl");
  TypedDef def = inferDef(program, entry);
  elevate::StrategyPtr strategy = elevate::loadStrategy(loadSource(opts.strategy));
  elevate::RewriteOptions ro;
  ro.backend = codegen::backendFor(*target);
  if (opts.trace)
    ro.trace = &err;
  TypedDef rewritten = elevate::rewriteDef(program, def, *strategy, ro);
  out << printProgram(elevate::rewrittenProgram(program, rewritten));
  return 0;
}

} // namespace risec::driver
