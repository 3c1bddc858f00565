// The access analysis of the lowering stage (lower/LowerToC.h, step 2): which
// expressions of a low-level RISE program need a `toMem`, an explicit copy,
// or to stay a `map` view, so that the translation to DPIA (dpia/FromRise.h)
// finds every memory choice made.
//
// It infers, bottom-up, the read/write-annotated DPIA type (dpia/PhraseType.h)
// of every expression, from what each primitive does with its arguments as
// the primitive table declares it (rise/ast/Primitive.h, `PrimAccess`), and
// checks it where it is consumed, as the translation does, without building
// DPIA phrases. Where the translation would fail it records a repair instead:
//   - a written (`Wr`) expression where a read one (`Rd`) is needed (the
//     result of a loop read by another primitive, E0601): `toMem`;
//   - a read array (a view of memory) where a written one is needed (E0602):
//     an explicit copy `mapSeq(fun(x => x))`, nested per array dimension;
//     values copied by one assignment (scalars, vectors, pairs of those,
//     dpia::copiedByAssignment) are accepted as they are;
//   - a `mapSeq` that lowering made from `map` (`viewableMaps`) whose
//     function only builds a view: keep it a read-only `map`, computed on
//     access, instead of copying its result (ViewMap);
//   - such a map of layout functions (split, join, transpose, asVector,
//     asScalar, unzip, maps of those; PrimTraits::layoutView) over a written
//     array: keep it a written `map`, written through into the memory of the
//     array's producer (ViewMap);
//   - with `readViews` (OpenCL, as Shine reads a `map`): such a map whose
//     result is read and whose function computes on access stays a view too,
//     rather than being stored in private memory.
// A program the translation rejects for its form (an entry without named
// sizes, an application form the C back end does not support, E0605, E0699)
// is rejected here with the same error.
#pragma once

#include "rise/ast/Expr.h"
#include "rise/ast/Primitive.h"
#include "rise/infer/Infer.h"

#include <map>
#include <set>

namespace risec::lower {

/// What the access analysis found missing at one RISE expression.
enum class Repair {
  ToMem,   ///< wrap the expression in `toMem`
  Copy,    ///< wrap the expression in an explicit copy `mapSeq(fun(x => x))`
  ViewMap, ///< the `mapSeq` (lowered from `map`) only rearranges data: keep it a `map` view
};
using Repairs = std::map<const rise::ExprNode*, Repair>;

/// The places of `def` (a typed entry, `depFun(sizes) => fun(inputs) =>
/// body`) that need a repair, for one round: lowerToC applies them and asks
/// again until none is left. `viewableMaps` are the `mapSeq` primitives that
/// lowerToC made from `map`.
Repairs findRepairs(const rise::TypedDef& def,
                    const std::set<const rise::ExprNode*>& viewableMaps = {},
                    bool readViews = false);

} // namespace risec::lower
