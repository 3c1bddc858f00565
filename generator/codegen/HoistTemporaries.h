// Pipeline stage 6 (codegen/Compile.cpp): the temporaries that do not stay
// where they are used move out of every loop to the top of the function
// (kernel), with dpia::hoistAllocations (dpia/Passes.h). Which ones depends
// on the target (docs/dpia.md, "Imperative passes" and "OpenCL"):
//   c, openmp  the heap temporaries (arrays larger than kStackLimitBytes or
//              of a symbolic size) and the pairs holding arrays, which the
//              ABI prologue allocates once (codegen/c/EmitMemory.h);
//   opencl     the local and global temporaries (and private ones too large
//              for private memory, which placement then rejects); private
//              arrays of a constant size stay where they are used.
#pragma once

#include "codegen/Target.h"
#include "dpia/Passes.h"

#include <string>
#include <vector>

namespace risec::codegen {

/// An imperative command without its hoisted `new`s, and those, outermost
/// first.
struct HoistedCommand {
  dpia::Phrase command;
  std::vector<dpia::HoistedAllocation> temporaries;
};

/// Hoists the temporaries of `command` that `target` allocates up front.
HoistedCommand hoistTemporaries(const dpia::Phrase& command, Target target);

} // namespace risec::codegen
