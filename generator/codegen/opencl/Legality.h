// What the first slice of the OpenCL back end supports (docs/dpia.md,
// "OpenCL"), checked on the RISE program before it is lowered:
//   E0630  a temporary in global or local memory (`toGlobal`, `toLocal`,
//          `oclToMem(Global)`, `oclToMem(Local)`, or an address-space
//          variable): local memory needs a kernel-scope allocation and
//          barriers, global memory a host-allocated buffer; neither is
//          implemented yet, so they are rejected rather than miscompiled.
// Private temporaries (`toPrivate`, `oclToMem(Private)`, `toMem`) are
// supported; E0631 (codegen/c/EmitC.cpp) rejects those too large for private
// memory.
#pragma once

#include "rise/infer/Infer.h"

namespace risec::codegen::opencl {

/// Throws CompileError E0630 at the first global or local temporary.
void checkSupported(const rise::TypedDef& def);

} // namespace risec::codegen::opencl
