// What the OpenCL back end cannot compile, checked on the RISE program
// before it is lowered (docs/dpia.md, "OpenCL"):
//   E0630  `oclToMem(a)` or `oclReduceSeq(a)` whose address space `a` is a
//          variable: the back end must know where each temporary lives.
// Global, local and private temporaries are placed by
// codegen/opencl/Temporaries.h, which has the remaining rejections
// (E0631, E0633); barriers by codegen/opencl/Barriers.h (E0634, E0635).
#pragma once

#include "rise/infer/Infer.h"

namespace risec::codegen::opencl {

/// Throws CompileError E0630 at the first address-space variable.
void checkSupported(const rise::TypedDef& def);

} // namespace risec::codegen::opencl
