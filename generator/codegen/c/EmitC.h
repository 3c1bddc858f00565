// The C back end (pipeline stages 7 to 12, timed together as "emit":
// codegen/Compile.cpp): imperative DPIA to a C translation unit and its
// header (an OpenCL kernel, its header and host wrappers for --target
// opencl), per the generated-code contract of docs/dpia.md:
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
#include "codegen/c/CAst.h"
#include "codegen/host/Launch.h"
#include "codegen/opencl/Barriers.h"
#include "dpia/Passes.h"
#include "dpia/Program.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

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
  /// C, or OpenMP: the parallel loops of dpia/Parallel.h become OpenMP
  /// work-sharing loops (docs/dpia.md, "OpenMP"), the output is C11 + OpenMP.
  Target target = Target::C;
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

class Emitter; // codegen/c/Emitter.h

/// One kernel's emission, carried between the emit stages of
/// codegen::compileToC: the emitter's state (names, memory, the ABI so far).
class Emission {
public:
  /// Runs the prologue (emitPrologue).
  Emission(const dpia::Program& program, std::vector<dpia::HoistedAllocation> temporaries,
           const COptions& opts);
  Emission(Emission&&) noexcept;
  Emission& operator=(Emission&&) noexcept;
  ~Emission();

  Emitter& emitter() { return *emitter_; }
  /// OpenCL: emits the prologue again with the private arrays that the first
  /// emission of the statements found distributed over the work-items.
  void restartWithDistributedArrays();

private:
  dpia::Program program_;
  std::vector<dpia::HoistedAllocation> temporaries_;
  COptions opts_;
  std::unique_ptr<Emitter> emitter_;
};

/// Stage 7 (EmitPrologue.cpp): the ABI prologue of the function (kernel) of
/// `program` (its command hoisted by stage 6, `temporaries` the hoisted
/// `new`s): the parameters and the KernelAbi, the size checks, and the heap
/// temporaries allocated once; OpenCL: the local and global temporaries
/// placed (codegen/opencl/Temporaries.h).
Emission emitPrologue(const dpia::Program& program,
                      const std::vector<dpia::HoistedAllocation>& temporaries,
                      const COptions& opts);

/// OpenCL, after emitPrologue: the local and global temporaries by the id of
/// their `new` variable, named as in the kernel, for opencl::insertBarriers.
const std::map<std::uint64_t, opencl::SharedTemporary>& sharedTemporaries(Emission& e);

/// Stage 9 (EmitCommands.cpp): the statements of the function's body for
/// `command` (views, assignments, loops; OpenMP and OpenCL grid-stride
/// loops). OpenCL: when private arrays are to be distributed over the
/// work-items (codegen/opencl/PrivateMemory.h), `e` starts again from the
/// prologue with them distributed and the statements are emitted again.
std::vector<CStmt> emitStatements(Emission& e, const dpia::Phrase& command);

/// Stage 10 (DeadStores.h): the prologue's stack temporaries, which the
/// dead-store elimination may remove, and the removal of their declarations.
std::set<std::string> stackTemporaries(Emission& e);
void dropStackTemporaries(Emission& e, const std::set<std::string>& names);

/// Stage 12 (EmitFiles.cpp; OpenCL: EmitOpenCLKernel.cpp): the files around
/// `statements`: the function (the prologue, the statements, the frees) or
/// the kernel, the helpers and structs it uses, the header; OpenCL: the
/// kernel formatted (the host wrappers embed it as shipped) and the host
/// wrappers (codegen/host/HostWrappers.h).
CFiles assembleFiles(Emission& e, std::vector<CStmt> statements);

} // namespace risec::codegen::c
