// Legality of the OpenMP mapping (issue 5, item 3; docs/dpia.md "Legality of
// parallel mappings"), checked on the lowered RISE program
// (codegen/Compile.cpp, after lowerToC):
//   E0620  a `mapPar` or `reducePar` inside the function of a `mapPar`
//          (nested parallel loops are rejected, not sequentialised).
//   E0622  a `mapPar` or `reducePar` inside the operator of a `reducePar`: the
//          operator runs inside the parallel loop and again when the partial
//          results are combined.
//   E0623  a `mapPar` that writes the accumulator of a sequential reduction
//          (`reduceSeq`, `scanSeq`), which is updated in place, while the
//          operator reads the accumulator other than at the element each
//          iteration writes: the iterations race on that shared temporary.
// Every other temporary written inside a parallel loop is private by
// construction: DPIA allocates it inside the loop body, and the back end
// gives every thread its own copy of those it hoists to the heap; a
// temporary allocated outside a mapPar is written by it only through its
// output, at the iteration's own index.
#pragma once

#include "rise/infer/Infer.h"

namespace risec::codegen::openmp {

/// Throws CompileError E0620, E0622 or E0623 at the offending primitive.
void checkLegality(const rise::TypedDef& lowered);

} // namespace risec::codegen::openmp
