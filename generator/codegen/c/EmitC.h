// The C back end (pipeline stage "emit" for --target c): imperative DPIA to
// a C translation unit and its header, per DESIGN.md's generated-code
// contract:
//
//   int SYMBOL(T* restrict output, int n, ..., const T* restrict x, ...);
//
// output first, then the Nat size parameters in depFun order, then the
// inputs in fun order. Arrays of any rank are flat pointers to their scalar
// (or pair struct) elements; scalar inputs are passed by value; a scalar
// result is a one-element output array. Indices and sizes have type `int`.
//
// Return codes (also in the header's doc comment and docs/dpia.md):
//   0  success
//   1  a size precondition of the program does not hold (e.g. n % 32 != 0)
//   2  a size parameter is negative
//   3  an array (input, output or temporary) would have more than INT_MAX
//      elements, so its indices do not fit the index type
//   4  a temporary could not be allocated (malloc returned NULL)
// Every check happens before anything is written or allocated.
//
// Memory policy: temporaries of a constant size of at most kStackLimitBytes
// are C arrays (or plain variables) declared where they are used; all other
// temporaries are allocated with malloc once at the start of the function
// (hoisted out of every loop) and freed before it returns. There are no VLAs.
#pragma once

#include "codegen/KernelAbi.h"
#include "codegen/host/Launch.h"
#include "dpia/Program.h"

#include <cstdint>
#include <optional>
#include <string>

namespace risec::codegen::c {

constexpr std::int64_t kStackLimitBytes = 1024;

enum ErrorCode : int {
  kOk = 0,
  kPreconditionFailed = 1,
  kNegativeSize = 2,
  kSizeTooLarge = 3,
  kOutOfMemory = 4,
};

struct COptions {
  std::string symbol;       ///< the C function name
  std::string sourceName;   ///< the .rise file as given (for the header comment)
  std::string version;      ///< risec version
  std::string strategyName; ///< the strategy file as given; empty: the default lowerToC
  /// `c`, or `openmp`: the parallel loops of dpia/Parallel.h become OpenMP
  /// work-sharing loops (docs/dpia.md, "OpenMP"), the output is C11 + OpenMP.
  std::string target = "c";
  /// opencl: the launch configuration of the host wrappers (--launch, a
  /// spec's `launch:`); none: the default rule (codegen/host/Launch.h).
  std::optional<host::Launch> launch = std::nullopt;
};

struct CFiles {
  std::string source; ///< SYMBOL.c (SYMBOL.cl for OpenCL)
  std::string header; ///< SYMBOL.h
  KernelAbi abi;      ///< the parameters of the function (kernel), in ABI order
  /// opencl: SYMBOL_host.c, the host wrappers (codegen/host/HostWrappers.h)
  std::string hostSource;
};

/// Emits C for an imperative DPIA program (dpia::translateToImperative done).
/// Runs the imperative passes (unrolling, hoisting) first.
CFiles emitC(const dpia::Program& program, const COptions& opts);

} // namespace risec::codegen::c
