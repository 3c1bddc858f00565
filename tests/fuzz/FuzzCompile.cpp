// libFuzzer harness of the whole compile pipeline (docs/fuzzing.md,
// "libFuzzer harnesses"). The input is a strategy file, as for the strategy
// harness (FuzzStrategy.cpp, FuzzPrograms.h: `// program: PATH` names the
// program, specs/mm.rise by default); a leading `// target: c|openmp|opencl`
// line picks the target, else the input's hash does. The strategy is applied
// to the program's entry and the result compiled in-process with
// codegen::compileToC (lowerToC, DPIA, accT/conT, the passes, C emission,
// formatting and the verifying parse), as `risec compile` does. Anything
// but generated files or a CompileError with a code and a location aborts
// (FuzzSupport.h).
#include "FuzzPrograms.h"
#include "FuzzSupport.h"

#include "codegen/Compile.h"
#include "codegen/Target.h"
#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"
#include "rise/parse/Parser.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace risec;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::loadPrograms("risec_fuzz_compile");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const fuzz::RewriteTarget& target = fuzz::programFor(text);
  const codegen::Target targets[] = {codegen::Target::C, codegen::Target::OpenMP,
                                     codegen::Target::OpenCL};
  codegen::c::COptions opts;
  std::optional<codegen::Target> named = codegen::parseTarget(fuzz::headerValue(text, "target"));
  opts.target = named ? *named : targets[fuzz::inputHash(data, size) % 3];
  opts.symbol = "fuzzed";
  opts.sourceName = target.entry.name;
  opts.version = "fuzz";
  opts.strategyName = "input.elevate";
  elevate::StrategyPtr strategy;
  if (!fuzz::resultOrDiagnostic("load strategy", [&] {
        strategy = elevate::loadStrategy(rise::makeSourceFile("input.elevate", text));
      }))
    return 0;
  rise::TypedDef rewritten;
  elevate::RewriteOptions ro;
  ro.backend = codegen::backendFor(opts.target); // as `risec compile` does
  if (!fuzz::resultOrDiagnostic("rewrite", [&] {
        rewritten = elevate::rewriteDef(target.program, target.entry, *strategy, ro);
      }))
    return 0;
  fuzz::resultOrDiagnostic("compile", [&] {
    codegen::CompileResult r = codegen::compileToC(target.program, rewritten, opts);
    if (r.files.source.empty() || r.files.header.empty())
      fuzz::finding("compileToC returned an empty source or header");
  });
  return 0;
}
