// Scalar operators and math functions with the semantics of C for the
// operands' scalar kind. Both operands of a binary operator have the same
// kind (the type system guarantees it).
//
//   add sub mul  integers wrap around to the kind's width (two's complement);
//                f32 rounds to float after every operation, f64 is double.
//   div mod      integers truncate toward zero like C (-7 / 2 = -3,
//                -7 % 2 = -1); dividing by zero is error E0401; for i32, i64
//                and natType, MIN / -1 and MIN % -1 (undefined in C) are
//                error E0402; for the narrower i8/i16 (promoted to int in C)
//                the quotient wraps. Float div is IEEE (x / 0 = inf), float
//                mod is fmod / fmodf.
//   min max      min(a, b) = a < b ? a : b, max(a, b) = a > b ? a : b
//                (the C conditional expression, also for floats).
//   neg          0 - a, wrapping for integers.
//   equal notEqual lt le gt ge
//                C comparisons, giving bool.
//   and or not   on bool.
//   sqrt exp log pow fabs floor sin cos tanh
//                the C math library in the operand's precision: sqrtf, expf,
//                ... for f32 and sqrt, exp, ... for f64.
#pragma once

#include "rise/ast/Primitive.h"
#include "rise/types/Scalar.h"
#include "support/SourceLocation.h"

namespace risec::rise::interp {

/// add sub mul div mod min max pow, equal notEqual lt le gt ge, and or.
/// `loc` is where a division error is reported.
ScalarValue scalarBinary(Prim op, const ScalarValue& a, const ScalarValue& b,
                         const SourceLocation& loc);

/// neg not sqrt exp log fabs floor sin cos tanh.
ScalarValue scalarUnary(Prim op, const ScalarValue& a);

} // namespace risec::rise::interp
