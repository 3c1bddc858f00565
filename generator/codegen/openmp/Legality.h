// Legality of the OpenMP mapping (issue 5, item 3; docs/dpia.md "OpenMP"),
// checked on the RISE program before it is lowered:
//   E0620  a `mapPar` or `reducePar` inside the function of another one
//          (nested parallel loops are rejected, not sequentialised).
// Temporaries written inside a parallel loop are private by construction:
// DPIA allocates them inside the loop body, and the back end gives every
// thread its own copy of those it hoists to the heap.
#pragma once

#include "rise/infer/Infer.h"

namespace risec::codegen::openmp {

/// Throws CompileError E0620 at the inner primitive of a nested parallel loop.
void checkLegality(const rise::TypedDef& def);

} // namespace risec::codegen::openmp
