// padEmpty's padding is never written (docs/language.md, "padEmpty"), so no
// program may read it: neither the interpreter nor the generated code can
// give it a meaning that agrees. This check refuses, at the `padEmpty`, a
// program in which its result may be read.
#pragma once

#include "rise/ast/Expr.h"

namespace risec::rise {

/// Throws E0314 at the first `padEmpty` of the typed expression `e` whose
/// result is not written into `e`'s own result. A position is written when
/// it is the result itself, the body of a `fun` or `depFun` in a written
/// position (also one applied to an argument: `x |> fun(g => ...)`), the
/// function of a map-like primitive (map, mapSeq, mapPar, mapGlobal, ...,
/// iterateStream) or the body of a `let` in a written position, an argument
/// of a writable view (zip, split, join, transpose, take, concat, makePair,
/// asVector, asScalar, ...) or of a `padEmpty` in a written position.
/// Everything else may be read: an argument of any other primitive, of a
/// foreign function or of a variable, and what `toMem` stores.
void checkPadEmptyIsNeverRead(const Expr& e);

} // namespace risec::rise
