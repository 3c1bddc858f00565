// Which RISE vectors OpenCL C 1.2 can represent (docs/dpia.md, "Vectors"),
// checked on the RISE program before it is lowered:
//   E0660  a vector whose width is not 2, 3, 4, 8 or 16 (OpenCL's floatN,
//          intN, ... exist only for those), or a symbolic width;
//   E0661  a vector of `bool` (OpenCL has no bool vectors).
// The C and OpenMP back ends accept every vector (codegen/c/EmitVectors.h).
#pragma once

#include "rise/infer/Infer.h"

namespace risec::codegen::opencl {

/// Throws CompileError E0660/E0661 at the innermost expression whose type
/// holds a vector OpenCL C has no type for.
void checkVectorTypes(const rise::TypedDef& def);

} // namespace risec::codegen::opencl
