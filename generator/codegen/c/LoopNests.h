// Loop nests behind an OpenMP pragma that collapses them: the loops under
// `collapse(n)` must stay perfectly nested, so the passes that rewrite loops
// after emission (stage 10, c/Unswitch.cpp and c/SingleIterationLoops.cpp;
// stage 11, openmp/SimdLoops.cpp) work inside the nest, never between its
// loops.
#pragma once

#include "codegen/c/CAst.h"

#include <vector>

namespace risec::codegen::c {

/// The number of loops a pragma collapses (`collapse(2)`: 2), else 1: the
/// loops nested in its loop that must stay perfectly nested loops.
int collapsed(const CStmt& pragma);

/// A pass over a list of statements (unswitchLoops, inlineSingleIterations,
/// the `omp simd` marking).
using BodyPass = std::vector<CStmt> (*)(const std::vector<CStmt>&);

/// `loop`, behind a pragma that collapses `depth` loops, with the `depth -
/// 1` loops nested in it kept as they are (they must stay perfectly nested
/// loops, whatever their trip counts) and `inside` applied to the
/// statements inside those.
CStmt keepNest(const CStmt& loop, int depth, const BodyPass& inside);

} // namespace risec::codegen::c
