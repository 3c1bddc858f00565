// `risec tune SPEC --variant SYMBOL` (docs/tuning.md): searches the bindings
// of a variant's strategy parameters for the fastest correct one on this
// machine. The candidates are the solutions of the strategy's requirements
// (tune/Constraints.h, solved with Z3) at the ISA level's machine facts and
// the bench sizes; each is compiled, built, checked against the reference
// interpreter and timed (tune/Measure.h); the winner is written back into the
// spec (tune/SpecWriter.h) and every candidate into a log beside it.
#pragma once

#include <iosfwd>
#include <string>

namespace risec::driver {

struct TuneOptions {
  std::string spec;
  std::string variant;        ///< the variant's symbol
  std::string isa;            ///< an x86-64 level; empty: the best the CPU and variant allow
  std::string budget = "10m"; ///< wall-clock budget: 90s, 10m, 1h or seconds
  std::string sizes;          ///< bench sizes `m=64,n=64,k=64`; empty: the spec's `bench:`
  bool noWrite = false;       ///< leave the spec alone (the log is written)
  int runs = 3;               ///< timed runs per candidate (the best counts)
};

/// Runs the tune; prints a summary to `out`. User errors are CompileErrors
/// (E0830-E0836, E08xx of the spec).
int runTune(const TuneOptions& opts, std::ostream& out);

} // namespace risec::driver
