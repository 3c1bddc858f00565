// The meaning of every RISE primitive on run-time values.
//
// A primitive runs when it is saturated: all of its dependent arguments (in
// the order of the binders of its signature, see Signatures.cpp) and all of
// its value arguments have been supplied. The semantics of each primitive is
// documented next to its implementation:
//   - PrimitivesData.cpp:   data-parallel and data-layout primitives
//                           (map, reduce, split, slide, iterate, ...);
//   - PrimitivesScalar.cpp: scalar operators and math functions
//                           (add, div, lt, sqrt, select, ...).
#pragma once

#include "rise/ast/Primitive.h"
#include "rise/interp/Value.h"
#include "support/SourceLocation.h"

#include <cstdint>
#include <vector>

namespace risec::rise::interp {

/// A saturated application of a primitive.
struct PrimCall {
  Prim prim = Prim::Map;
  SourceLocation loc;       ///< where run-time errors are reported
  std::vector<DepArg> deps; ///< dependent arguments, in signature order
  std::vector<Value> args;  ///< value arguments, in order

  /// The i-th dependent argument as a size (>= 0). Throws E0406 if it could
  /// not be evaluated or is negative.
  std::int64_t nat(std::size_t i) const;
  /// The i-th dependent argument as a data type.
  const Type& type(std::size_t i) const;
  const Value& arg(std::size_t i) const { return args.at(i); }
};

/// Runs a saturated primitive.
Value runPrimitive(const PrimCall& call);

/// True for the scalar operators and math functions (PrimitivesScalar.cpp).

/// Implemented in PrimitivesData.cpp and PrimitivesScalar.cpp.
Value runDataPrimitive(const PrimCall& call);
Value runScalarPrimitive(const PrimCall& call);

} // namespace risec::rise::interp
