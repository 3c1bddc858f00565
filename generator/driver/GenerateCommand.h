// `risec generate SPEC.yaml... -o DIR [--name NAME] [--jobs N]
//  [--targets c,openmp,opencl] [--isas LEVELS|native] [--update] [--part all|kernels|index]
//  [--depfile FILE] [--print-dependencies]` (docs/usage.md, "Generating"):
// the whole kernel library of a set of specs.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace risec::driver {

struct GenerateOptions {
  std::vector<std::string> specs;
  std::string outDir;
  std::string name = "kernels"; ///< the umbrella header NAME.h and the manifest NAME.json
  int jobs = 0; ///< variants compiled in parallel (0: one per hardware thread); the output does not
                ///< depend on it
  std::string targets; ///< comma-separated filter, e.g. "c,openmp"; empty: all
  /// x86-64 levels and/or `native`, comma-separated, for the c and openmp
  /// variants whose spec names no `isas:` (IsaRequest.h); empty: none.
  std::string isas;
  /// Write into the existing DIR, only the files whose contents changed
  /// (for build systems: unchanged files keep their time stamps). Without it
  /// DIR is replaced as a whole.
  bool update = false;
  /// Which files to write (implies --update unless "all"): the variants'
  /// files and kernel headers ("kernels"), the umbrella header and manifest
  /// ("index"), or both.
  std::string part = "all";
  std::string depfile;            ///< also write a Makefile depfile of the inputs here
  std::string depfileTarget;      ///< the depfile's rule target (default: DIR/NAME.json)
  bool printDependencies = false; ///< print the input files, one per line, and stop
};

/// Loads every spec, compiles every variant (kept by --targets), and writes
/// the library. Nothing is written unless every variant compiled.
int runGenerate(const GenerateOptions& opts, std::ostream& out);

} // namespace risec::driver
