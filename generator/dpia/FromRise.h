// RISE -> functional DPIA (pipeline stage "to DPIA", RISE & Shine §V-B).
//
// Every low-level RISE primitive becomes the fully applied DPIA primitive of
// the same name, with read/write-annotated types (Primitive.h, `access`).
// The translation infers the annotation of every expression bottom-up and
// checks it where it is consumed:
//   - a `Wr` expression (e.g. the result of `mapSeq`) where `Rd` is needed is
//     a missing `toMem` (E0601);
//   - an `Rd` array (a view of memory) where `Wr` is needed is a missing
//     explicit copy (E0602): copying an array is a choice (sequential,
//     vectorised, parallel) that must be made in RISE. Rd values copied by a
//     single assignment (scalars, vectors, pairs of those) are accepted.
// A `map` of layout functions (split, join, transpose, asVector, asScalar,
// unzip, maps of those) over a written array is written too: accT writes it
// through a map acceptor (dpia/primitives/Maps.cpp), as Shine's DPIA does.
// The same analysis runs in "repair" mode for lowerToC (lower/LowerToC.h):
// instead of failing it records where a `toMem` or a copy is needed.
#pragma once

#include "dpia/Program.h"
#include "rise/infer/Infer.h"

#include <map>
#include <set>

namespace risec::dpia {

/// What repair mode found missing at one RISE expression.
enum class Repair {
  ToMem,   ///< wrap the expression in `toMem`
  Copy,    ///< wrap the expression in an explicit copy `mapSeq(fun(x => x))`
  ViewMap, ///< the `mapSeq` (lowered from `map`) only rearranges data: keep it a `map` view
};
using Repairs = std::map<const rise::ExprNode*, Repair>;

/// Translates a typed entry (`depFun(sizes) => fun(inputs) => body`) into
/// functional DPIA. Throws CompileError E06xx when a choice is missing.
Program fromRise(const rise::TypedDef& def);

/// Runs the same analysis but returns the places that need a `toMem` or a
/// copy instead of failing on them (other errors still throw).
/// `viewableMaps` are the `mapSeq` primitives that lowerToC made from `map`:
/// when their function only builds a view, the repair is to keep them a
/// read-only `map` (a view computed on access) rather than to copy; when
/// their array is written and their function a layout function, to keep
/// them a written `map` (written through, with no temporary). With
/// `readViews` (OpenCL, as Shine reads a `map`) such a map whose result is
/// read is kept a view too, rather than stored (in private memory, which
/// the work-items of a parallel map that reads it could not share).
Repairs findRepairs(const rise::TypedDef& def,
                    const std::set<const rise::ExprNode*>& viewableMaps = {},
                    bool readViews = false);

} // namespace risec::dpia
