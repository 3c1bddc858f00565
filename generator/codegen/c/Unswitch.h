// Loop versioning on invariant guards (pipeline stage 10, codegen/Compile.cpp;
// C and OpenMP).
//
// A padded view reads through a guard, `c ? xs[...] : 0.0f` (padCst,
// docs/dpia.md). Where c does not change while a loop runs (padReduce pads
// the loop over k of a blocked matrix product, and the guard `p + 4 * l < k`
// depends only on the loops around the tile's), the loop gets a second copy
// with c resolved, run when c has that value:
//
//   if (p + 4 * l < k) {
//     for (int q = 0; q < 32; q += 1) ... acc[..] + A[..] * B[..];
//   } else {
//     for (int q = 0; q < 32; q += 1) ... acc[..] + 0.0f * ...;
//   }
//
// (with one guard taken, the copy in the else branch takes it as false: its
// loops are not versioned on it again).
// so that the C compiler vectorises the first copy, which it does not do for
// loads under a condition. The guards are taken one after the other, each
// as the value whose branch reads memory (`c ? 0.0f : xs[i]` as false, the
// condition then negated: `a < b` becomes `a >= b`), until none that
// qualifies is left; the copy is made only if it then reads
// no memory under a guard (a guard that changes with the loop, such as the
// column tests of a stencil, leaves nothing to gain), or only under guards
// that do not change in the innermost loop around the read, which is then
// versioned on them in turn (mm's loop permutation: the clamp of B's vector
// load does not change in the loop over a chunk of k, padReduce's guard
// `q + 4 * l < k` only in the loop inside it). A guard qualifies when
// it is integer arithmetic on variables and literals (no read of memory, no
// call but risec_min/risec_max, no assignment, no division but by a non-zero
// literal), so evaluating it once before the loop is the same as in every
// iteration, and none of its variables is declared or assigned in the loop.
// A loop whose body declares variables (a long computation per iteration,
// such as harris' fused stages, where a guard costs little and two copies
// are hard to read) is left as it is, as is a loop with a pragma before it
// (`omp parallel for`, `omp simd`) and, for `collapse(k)`, the k - 1 loops
// nested in it (they must stay perfectly nested); the loops inside the original copy are
// treated in turn. OpenCL does not run this pass (a loop there may hold a
// barrier).
//
// The same pass takes padClamp's clamps out of innermost counting loops: a
// subscript's `risec_min(a, x)` or `risec_max(a, x)` with `a` unchanged in the
// loop and `x` affine in its index does not bite in the loop if it does not
// at the end x moves towards. Where that test is decided (the sides differ
// by a constant, also once a `risec_min` bound of the loop is taken as either
// argument) the clamp is dropped (always true) or kept (never true); where it
// is not, and the subscript then steps by one element, the loop is versioned:
//
//   if (32 * j + 31 < n) {
//     for (int l = 0; l < 32; l += 1) tmp[...] = B[(n * i) + (l + 32 * j)];
//   } else {
//     for (int l = 0; l < 32; l += 1) tmp[...] = B[(n * i) + risec_min(n - 1, l + 32 * j)];
//   }
#pragma once

#include "codegen/c/CAst.h"

#include <vector>

namespace risec::codegen::c {

/// `body` with its loops unswitched on the guards invariant in them.
std::vector<CStmt> unswitchLoops(const std::vector<CStmt>& body);

/// `body` with every counting loop of one iteration (`for (int k = 0; k <
/// 1; k += 1)`: a mapSeq over rows of one element, a vector map of one
/// vector) replaced by its body, the index 0 (c/SingleIterationLoops.cpp).
/// It runs after the versioning, which takes such a loop as the innermost
/// one its guards do not change in (mm's loop permutation). A loop behind a
/// pragma stays, as does one whose index the substitution cannot remove
/// from a pre-rendered size.
std::vector<CStmt> inlineSingleIterations(const std::vector<CStmt>& body);

} // namespace risec::codegen::c
