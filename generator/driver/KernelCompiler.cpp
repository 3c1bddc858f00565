#include "driver/KernelCompiler.h"

#include "driver/SourceLoader.h"
#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"
#include "support/Diagnostic.h"
#include "support/PassTimer.h"

namespace risec::driver {

codegen::Target commandLineTarget(const std::string& name) {
  std::optional<codegen::Target> target = codegen::parseTarget(name);
  if (!target)
    throw CompileError("E0611", {},
                       "the target `" + name +
                           "` is not supported; the back ends are --target c, --target openmp "
                           "and --target opencl");
  return *target;
}

codegen::CompileResult compileWithStrategy(rise::Program program, rise::TypedDef def,
                                           const std::string& strategyPath,
                                           const codegen::c::COptions& opts,
                                           const std::map<std::string, std::int64_t>& bindings) {
  if (!strategyPath.empty()) {
    // The strategy makes the optimisation choices; lowerToC then makes the
    // remaining ones (without a strategy it makes them all: docs/usage.md,
    // "Choosing a strategy").
    elevate::StrategyPtr strategy = elevate::loadStrategy(loadSource(strategyPath), bindings);
    elevate::RewriteOptions ro;
    ro.backend = codegen::backendFor(opts.target);
    def = timed("rewrite", [&] { return elevate::rewriteDef(program, def, *strategy, ro); });
    program = elevate::rewrittenProgram(program, def);
  }
  return codegen::compileToC(program, def, opts);
}

} // namespace risec::driver
