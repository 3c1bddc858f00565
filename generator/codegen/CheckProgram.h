// The checks of the pipeline on RISE (codegen/Compile.cpp): what the target
// cannot compile, before lowering (stage 0), and the legality of the
// parallel mapping, after it (stage 2).
#pragma once

#include "codegen/Target.h"
#include "codegen/opencl/MappingLegality.h"
#include "rise/infer/Infer.h"

#include <string>

namespace risec::codegen {

/// Stage 0: every parameter and the result of the entry have a memory layout
/// (c::layoutProblem, else E0699); OpenCL: no address-space variable
/// (opencl/Legality.h, E0630) and only vectors OpenCL C has types for
/// (opencl/VectorTypes.h, E0660, E0661).
void checkTypedProgram(const rise::TypedDef& def, Target target);

/// Stage 2: the legality of the parallel mapping of the lowered program
/// (docs/dpia.md, "Legality of parallel mappings"): openmp/Legality.h,
/// opencl/MappingLegality.h; C has nothing to check. Returns OpenCL's
/// rule-7 violations, which stage 8 decides per kernel phase
/// (opencl::checkIndexingPerPhase).
opencl::IndexingViolations checkParallelMapping(const rise::TypedDef& lowered, Target target);

} // namespace risec::codegen
