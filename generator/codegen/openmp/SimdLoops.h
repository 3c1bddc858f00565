// `#pragma omp simd` on the innermost loops of a parallel loop's body
// (pipeline stage 11, codegen/Compile.cpp, for --target openmp).
//
// GCC outlines the body of `omp parallel for` into a function that reads the
// pointers from a struct, so their `restrict` is lost: a loop that GCC
// vectorises at the top level (gathers from clamped indices, masked loads of
// zero-padded neighbours) stays scalar inside the parallel loop because the
// stores may alias the loads (docs/dpia.md, "OpenMP"). A DPIA map loop has no
// dependence between its iterations, so the innermost ones are marked
// `omp simd` when that is visible in the C itself:
//   - the loop counts `for (int v = ...; ...; v += ...)` and its body has no
//     loop, `break`, `return` or pragma;
//   - every store goes to a variable declared in the body, or to an element
//     whose index mentions v;
//   - an array stored to is read only at an index it is stored to (the same
//     expression), so no iteration reads what another one writes.
// Loops that do not pass (e.g. a sequential reduction into an accumulator
// declared outside) are left as they are, and so are loops with a constant
// trip count below kShortLoop: `omp simd` makes GCC vectorise regardless of
// its cost model, and a loop of fewer iterations than a vector has lanes
// (the 5 taps of gaussian_fused's window) ran 2x slower with masked gathers
// than unrolled and scalar.
#pragma once

#include "codegen/c/CAst.h"

#include <vector>

namespace risec::codegen::openmp {

/// Constant trip counts below this (the floats of an AVX-512 vector) are not
/// marked.
constexpr long long kShortLoop = 16;

/// Whether `loop` counts to a constant below kShortLoop (`v < 5`).
bool isShortLoop(const c::CStmt& loop);

/// `body` with `#pragma omp simd` before every innermost loop that passes the
/// checks above and is nested in an `omp parallel for` loop (not a reduction).
std::vector<c::CStmt> markSimdLoops(const std::vector<c::CStmt>& body);

/// Whether the loop `loop` (a For statement) passes the checks above.
bool isSimdSafe(const c::CStmt& loop);

/// `omp simd`.
std::string simdPragma();

} // namespace risec::codegen::openmp
