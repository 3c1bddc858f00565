#include "driver/RewriteCommand.h"

#include "codegen/Target.h"
#include "driver/KernelCompiler.h"
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
  codegen::Target target = commandLineTarget(opts.target);
  TypedDef def = inferDef(program, entry);
  elevate::StrategyPtr strategy = elevate::loadStrategy(loadSource(opts.strategy));
  elevate::RewriteOptions ro;
  ro.backend = codegen::backendFor(target);
  if (opts.trace)
    ro.trace = &err;
  TypedDef rewritten = elevate::rewriteDef(program, def, *strategy, ro);
  out << printProgram(elevate::rewrittenProgram(program, rewritten));
  return 0;
}

} // namespace risec::driver
