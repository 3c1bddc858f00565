// RISE data types and scalar values in C: scalars map to <stdint.h> /
// <stdbool.h> types (natType and idx[n] to the index type `int`), pairs to
// `struct pair_A_B` (declared once per program, in first-use order), arrays
// are flattened to their scalar (or struct) element.
#pragma once

#include "codegen/c/CAst.h"
#include "rise/types/Type.h"

#include <string>
#include <vector>

namespace risec::codegen::c {

class TypeMapper {
public:
  /// The C type of a non-array data type (scalar, index, pair).
  CType element(const rise::Type& t);
  /// The innermost non-array type of a (nested) array type.
  static rise::Type innermost(const rise::Type& t);
  /// The total number of elements of a (nested) array type (1 for non-arrays).
  static rise::Nat count(const rise::Type& t);
  /// Bytes of one element, if known (scalars, pairs of scalars).
  static std::int64_t bytes(const rise::Type& t);
  /// The struct definitions needed so far, in order of first use.
  const std::vector<StructDef>& structs() const { return structs_; }

private:
  std::vector<StructDef> structs_;
};

/// The C spelling of a scalar type: `float`, `int32_t`, `bool`, `int` (natType).
std::string scalarCType(rise::ScalarKind k);
/// A C literal for a scalar value: `1.5f`, `2.0`, `42`, `(int64_t)42`, `true`.
CExpr scalarLiteral(const rise::ScalarValue& v);

} // namespace risec::codegen::c
