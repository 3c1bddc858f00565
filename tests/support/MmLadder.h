// The matrix-multiplication ladder of ELEVATE (ICFP 2020, Section 5) as
// checked in under specs/: specs/mm.rise rewritten by specs/mm.STEP.elevate
// and compiled exactly as
//
//   risec compile specs/mm.rise --target TARGET --strategy specs/mm.STEP.elevate
//         --name mm_STEP (with - as _)
//
// where TARGET is openmp for the parallel step and c for the others
// does, except that the header comment names the version "golden" (so that a
// version bump does not change the golden files).
#pragma once

#include "codegen/Compile.h"
#include "rise/ast/Expr.h"
#include "rise/infer/Infer.h"

#include <string>
#include <vector>

namespace risec::testsupport {

/// The steps in ladder order: baseline, blocking, ..., parallel.
const std::vector<std::string>& mmLadderSteps();

/// `openmp` for the parallel step, `c` otherwise.
std::string mmLadderTarget(const std::string& step);

/// `mm_STEP` with `-` replaced by `_`.
std::string mmLadderSymbol(const std::string& step);

struct MmLadderKernel {
  rise::TypedDef original;  ///< mm as in specs/mm.rise
  rise::Program program;    ///< the rewritten program
  rise::TypedDef rewritten; ///< mm after the step's strategy (before lowerToC)
  codegen::CompileResult compiled;
};

/// Rewrites mm with the step's strategy and compiles it to C.
MmLadderKernel compileMmLadderStep(const std::string& step);

} // namespace risec::testsupport
