// `risec compile FILE.rise --target c [--strategy S] [--entry NAME]
//  [--name SYMBOL] [--dump=dpia|imperative|c] [--launch L] -o DIR`
//  (docs/usage.md, "The command line"; --launch only with --target opencl).
#pragma once

#include <iosfwd>
#include <string>

namespace risec::driver {

struct CompileOptions {
  std::string file;
  std::string target = "c";
  std::string strategy; ///< the .elevate file; empty: lowerToC only
  std::string entry;    ///< default: the last def
  std::string name;     ///< default: the entry's name
  std::string outDir;   ///< required unless --dump
  std::string dump;     ///< "", "lower", "dpia", "imperative" or "c"
  /// opencl: `global=[n],local=[32]` (codegen/host/Launch.h); empty: the
  /// default rule
  std::string launch;
};

/// Compiles the entry and writes DIR/SYMBOL.c and DIR/SYMBOL.h (for opencl
/// DIR/SYMBOL.cl, DIR/SYMBOL.h and DIR/SYMBOL_host.c) atomically
/// (temporary files renamed into place; nothing is written on failure), or
/// prints the requested stage to `out` with --dump.
int runCompile(const CompileOptions& opts, std::ostream& out);

} // namespace risec::driver
