// libFuzzer harness of the RISE text syntax (docs/fuzzing.md, "libFuzzer
// harnesses"). The input is a .rise file:
//   1. parse it (a syntax error is a user diagnostic: done);
//   2. print it, parse the print, and print that again: the print must parse,
//      give the same defs (alpha-equivalent bodies) and the same text;
//   3. infer every def on its own (a type error is a user diagnostic);
//   4. evaluate every well-typed def with size parameters on small sizes and
//      random inputs (SmallEval.h).
// Anything but a result or a CompileError with a code and a location aborts
// (FuzzSupport.h).
#include "FuzzSupport.h"
#include "SmallEval.h"

#include "rise/infer/Infer.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace risec;
using namespace risec::rise;

namespace {

void roundTrip(const Program& program) {
  std::string printed;
  fuzz::resultOrDiagnostic("print", [&] { printed = printProgram(program); });
  Program reparsed;
  try {
    reparsed = parseProgram(makeSourceFile("printed.rise", printed));
  } catch (const CompileError& e) {
    fuzz::finding("the printed program does not parse: " + headline(e) + "\n--- printed:\n" +
                  printed);
  } catch (...) {
    fuzz::unexpectedException("re-parse of the print");
  }
  if (reparsed.defs.size() != program.defs.size() ||
      reparsed.foreigns.size() != program.foreigns.size())
    fuzz::finding("the printed program has other defs or foreign declarations:\n" + printed);
  for (std::size_t i = 0; i < program.defs.size(); ++i) {
    if (reparsed.defs[i].name != program.defs[i].name ||
        !alphaEquivalent(reparsed.defs[i].body, program.defs[i].body))
      fuzz::finding("def `" + program.defs[i].name + "` changes in the print round trip:\n" +
                    printed);
  }
  std::string again;
  fuzz::resultOrDiagnostic("print of the re-parsed program",
                           [&] { again = printProgram(reparsed); });
  if (again != printed)
    fuzz::finding("printing the re-parsed program gives another text:\n--- first:\n" + printed +
                  "\n--- second:\n" + again);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  Program program;
  if (!fuzz::resultOrDiagnostic(
          "parse", [&] { program = parseProgram(makeSourceFile("input.rise", text)); }))
    return 0;
  roundTrip(program);
  std::uint64_t seed = fuzz::inputHash(data, size);
  for (const Def& d : program.defs) {
    TypedDef typed;
    if (!fuzz::resultOrDiagnostic("infer", [&] { typed = inferDef(program, d.name); }))
      continue;
    fuzz::evaluateOnSmallSizes(typed, seed);
  }
  return 0;
}
