// libFuzzer harness of the strategy language (docs/fuzzing.md, "libFuzzer
// harnesses"). The input is a strategy file (.elevate): it is loaded (parse,
// names, arities, parameters at their defaults, requirements) and applied to
// the entry (last def) of a corpus program with elevate::rewriteDef.
//
// The program: specs/mm.rise, unless the input's first line is
//   // program: PATH
// with PATH one of the programs loaded at start-up (specs/*.rise and
// tests/rise/*.rise that type-check, and tests/rise/errors/strategy_*.rise),
// e.g. `// program: specs/dot.rise`. The line is a comment, so the whole
// input stays a strategy file; tests/fuzz/run puts it in front of the seeds
// it collects. Anything but a rewritten def or a CompileError with a code and
// a location aborts (FuzzSupport.h).
#include "FuzzPrograms.h"
#include "FuzzSupport.h"

#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"
#include "rise/infer/EqualUnderPreconditions.h"
#include "rise/infer/Infer.h"
#include "rise/parse/Parser.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace risec;
using namespace risec::rise;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::loadPrograms("risec_fuzz_strategy");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const fuzz::RewriteTarget* target = &fuzz::programFor(text);
  elevate::StrategyPtr strategy;
  if (!fuzz::resultOrDiagnostic("load strategy", [&] {
        strategy = elevate::loadStrategy(makeSourceFile("input.elevate", text));
      }))
    return 0;
  fuzz::resultOrDiagnostic("rewrite", [&] {
    TypedDef rewritten = elevate::rewriteDef(target->program, target->entry, *strategy);
    if (!typeEqualUnder(rewritten.type, target->entry.type, rewritten.preconditions))
      fuzz::finding("the rewrite changed the type of `" + target->entry.name + "` from " +
                    typeToString(target->entry.type) + " to " + typeToString(rewritten.type));
  });
  return 0;
}
