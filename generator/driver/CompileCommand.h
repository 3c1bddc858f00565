// `risec compile FILE.rise --target c [--strategy S] [--entry NAME]
//  [--name SYMBOL] [--dump=dpia|imperative|c] -o DIR` (DESIGN.md, "CLI contract").
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
};

/// Compiles the entry and writes DIR/SYMBOL.c and DIR/SYMBOL.h atomically
/// (temporary files renamed into place; nothing is written on failure), or
/// prints the requested stage to `out` with --dump.
int runCompile(const CompileOptions& opts, std::ostream& out);

} // namespace risec::driver
