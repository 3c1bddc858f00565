// The benchmark harness shared by every benchmark executable: a variant is a
// way to run a kernel (naive C, OpenBLAS, Halide, CLBlast, risec); each
// (kernel, size, variant) becomes one Google Benchmark named
// `kernel/variant/size` with GFLOP/s and GB/s counters. Before timing, the
// variant's result is checked against the naive C on the same inputs.
#pragma once

#include "Problems.h"

#include <functional>
#include <string>

namespace bench {

struct Variant {
  /// Untimed set-up on fresh inputs (e.g. copy y into the output for an
  /// in-place BLAS call, upload buffers, JIT-compile). May be empty.
  std::function<void(Data&)> prepare;
  /// The timed call; returns 0 on success (the risec ABI).
  std::function<int(Data&)> run;
  /// Untimed, after the checked call: bring the result into `Data::out`
  /// (e.g. read a device buffer). May be empty.
  std::function<void(Data&)> finish = {};
};

/// The naive C of a kernel as a variant: the reference of every check.
Variant naiveVariant(const std::string& kernel);

/// Registers `kernel/variantName/size` for every problem of the kernel
/// (the small ones only in quick mode).
void registerVariant(const std::string& kernel, const std::string& variantName, Variant v);

/// Suffix for the thread count of this process: "-t1", "-t2", ...
std::string threadSuffix(const char* var = "OMP_NUM_THREADS");

/// Runs Google Benchmark (after registration) and returns the exit code.
int runBenchmarks(int argc, char** argv);

} // namespace bench
