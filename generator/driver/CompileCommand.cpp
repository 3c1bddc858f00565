#include "driver/CompileCommand.h"

#include "codegen/Compile.h"
#include "codegen/ReservedSymbols.h"
#include "codegen/host/Launch.h"
#include "driver/KernelCompiler.h"
#include "driver/OutputWriter.h"
#include "driver/SourceLoader.h"
#include "rise/infer/Infer.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"
#include "support/PassTimer.h"
#include "support/Text.h"

#include <ostream>

#ifndef RISEC_VERSION
#define RISEC_VERSION "unknown"
#endif

namespace risec::driver {

using namespace risec::rise;

int runCompile(const CompileOptions& opts, std::ostream& out) {
  codegen::Target target = commandLineTarget(opts.target);
  auto source = loadSource(opts.file);
  Program program = timed("parse", [&] { return parseProgram(source); });
  std::string entry = resolveEntry(program, opts.entry, opts.file);
  std::string symbol = opts.name.empty() ? entry : opts.name;
  if (!isCIdentifier(symbol))
    throw CompileError("E0610", {},
                       "`" + symbol + "` is not a valid C function name; choose one with --name");
  if (std::string why = codegen::reservedSymbol(symbol, target); !why.empty()) {
    // named after the entry: point at its def
    const rise::Def* d = opts.name.empty() ? program.findDef(entry) : nullptr;
    throw CompileError("E0610", d ? d->loc : SourceLocation{},
                       "the kernel cannot be named `" + symbol + "`: that is " + why +
                           ", which the generated files see; choose another name with --name "
                           "(e.g. --name " +
                           symbol + "_kernel)");
  }
  if (opts.dump.empty() && opts.outDir.empty())
    throw CompileError("E0612", {}, "no output directory; pass -o DIR");
  TypedDef def = timed("infer", [&] { return inferDef(program, entry); });
  codegen::c::COptions copts{symbol, opts.file, RISEC_VERSION, opts.strategy, target};
  if (!opts.launch.empty()) {
    if (target != codegen::Target::OpenCL)
      throw CompileError("E0514", {},
                         "--launch only applies to --target opencl; remove it or compile with "
                         "--target opencl");
    copts.launch = codegen::host::parseLaunchOption(opts.launch, sizeBinders(def));
  }
  codegen::CompileResult r = compileWithStrategy(program, def, opts.strategy, copts);
  if (!opts.dump.empty()) { // one of codegen::dumpStages()
    out << codegen::dumpStage(r, opts.dump);
    return 0;
  }
  timed("write", [&] { writeAtomically(opts.outDir, codegen::outputFiles(r)); });
  return 0;
}

} // namespace risec::driver
