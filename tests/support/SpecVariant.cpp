#include "SpecVariant.h"

#include "codegen/host/Launch.h"
#include "driver/SourceLoader.h"
#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"

namespace risec::testsupport {

CompiledVariant compileVariant(const driver::KernelSpec& spec, const driver::VariantSpec& variant,
                               const std::string& isa) {
  CompiledVariant v{spec.program, spec.typedEntry, {}};
  if (!variant.strategyPath.empty()) {
    elevate::StrategyPtr strategy = elevate::loadStrategy(driver::loadSource(variant.strategyPath),
                                                          variant.strategyBindings(isa));
    v.rewritten = elevate::rewriteDef(spec.program, spec.typedEntry, *strategy, {});
    v.program = elevate::rewrittenProgram(spec.program, v.rewritten);
  }
  codegen::c::COptions opts{variant.symbol, spec.sourcePath, "catalogue", variant.strategyPath,
                            variant.target};
  if (variant.launch)
    opts.launch = codegen::host::Launch{variant.launch->global, variant.launch->local};
  v.compiled = codegen::compileToC(v.program, v.rewritten, opts);
  return v;
}

} // namespace risec::testsupport
