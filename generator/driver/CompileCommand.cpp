#include "driver/CompileCommand.h"

#include "codegen/Compile.h"
#include "codegen/host/Launch.h"
#include "dpia/Printer.h"
#include "driver/SourceLoader.h"
#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"
#include "rise/infer/Infer.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"
#include "support/Diagnostic.h"
#include "support/Text.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <unistd.h>

#ifndef RISEC_VERSION
#define RISEC_VERSION "unknown"
#endif

namespace risec::driver {

namespace fs = std::filesystem;
using namespace risec::rise;

namespace {

/// Writes all files or none: each goes to a temporary file in DIR first.
void writeAtomically(const fs::path& dir, const std::vector<codegen::OutputFile>& files) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw CompileError("E0612", {}, "the output directory `" + dir.string() + "` does not exist");
  std::vector<std::pair<fs::path, fs::path>> moves;
  auto cleanup = [&] {
    for (const auto& m : moves)
      fs::remove(m.first, ec);
  };
  for (const auto& [name, text] : files) {
    fs::path tmp = dir / ("." + name + ".tmp" + std::to_string(::getpid()));
    std::ofstream os(tmp, std::ios::binary);
    os << text;
    os.close();
    moves.push_back({tmp, dir / name});
    if (!os) {
      cleanup();
      throw CompileError("E0612", {}, "cannot write `" + (dir / name).string() + "`");
    }
  }
  for (const auto& [tmp, final] : moves) {
    fs::rename(tmp, final, ec);
    if (ec) {
      cleanup();
      throw CompileError("E0612", {}, "cannot write `" + final.string() + "`: " + ec.message());
    }
  }
}

} // namespace

int runCompile(const CompileOptions& opts, std::ostream& out) {
  if (opts.target != "c" && opts.target != "openmp" && opts.target != "opencl")
    throw CompileError("E0611", {},
                       "the target `" + opts.target +
                           "` is not supported; the back ends are --target c, --target openmp "
                           "and --target opencl");
  auto source = loadSource(opts.file);
  Program program = parseProgram(source);
  std::string entry = resolveEntry(program, opts.entry, opts.file);
  std::string symbol = opts.name.empty() ? entry : opts.name;
  if (!isCIdentifier(symbol))
    throw CompileError("E0610", {},
                       "`" + symbol + "` is not a valid C function name; choose one with --name");
  if (opts.dump.empty() && opts.outDir.empty())
    throw CompileError("E0612", {}, "no output directory; pass -o DIR");
  TypedDef def = inferDef(program, entry);
  if (!opts.strategy.empty()) {
    // The strategy makes the optimisation choices; lowerToC then makes the
    // remaining ones (DESIGN.md: it is the default when no strategy is given).
    elevate::StrategyPtr strategy = elevate::loadStrategy(loadSource(opts.strategy));
    def = elevate::rewriteDef(program, def, *strategy, {});
    program = elevate::rewrittenProgram(program, def);
  }
  codegen::c::COptions copts{symbol, opts.file, RISEC_VERSION, opts.strategy, opts.target};
  if (!opts.launch.empty()) {
    if (opts.target != "opencl")
      throw CompileError("E0514", {},
                         "--launch only applies to --target opencl; remove it or compile with "
                         "--target opencl");
    std::vector<DepBinder> sizes;
    for (Expr e = def.expr; e->kind() == ExprKind::DepLambda && e->binder().kind == Kind::Nat;
         e = e->body())
      sizes.push_back(e->binder());
    copts.launch = codegen::host::parseLaunchOption(opts.launch, sizes);
  }
  codegen::CompileResult r = codegen::compileToC(program, def, copts);
  if (opts.dump == "lower") {
    out << "def " << r.lowered.name << " =\n  " << printExpr(r.lowered.expr) << "\n";
    return 0;
  }
  if (opts.dump == "dpia") {
    out << dpia::printProgram(r.functional, false);
    return 0;
  }
  if (opts.dump == "imperative") {
    out << dpia::printProgram(r.imperative, true);
    return 0;
  }
  if (opts.dump == "c") {
    out << r.files.source;
    return 0;
  }
  writeAtomically(opts.outDir, codegen::outputFiles(r));
  return 0;
}

} // namespace risec::driver
