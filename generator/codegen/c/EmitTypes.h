// RISE data types and scalar values in C: scalars map to <stdint.h> /
// <stdbool.h> types (natType and idx[n] to the index type `int`), pairs to
// `struct pair_A_B` (declared once per program, in first-use order), arrays
// are flattened to their scalar (or struct) element.
#pragma once

#include "codegen/c/CAst.h"
#include "rise/types/Type.h"

#include <functional>
#include <string>
#include <vector>

namespace risec::codegen::c {

class TypeMapper {
public:
  /// The C type of a vector component of a pair (`risec_f32x4`, `float4`):
  /// set by the emitter; without it such pairs are not supported.
  std::function<CType(const rise::Type&)> vector;

  /// The C type of a non-array data type (scalar, index, pair). A pair whose
  /// components are vectors is a struct with vector fields (`struct
  /// pair_f32x4_f32 { risec_f32x4 fst; float snd; }`); a bare vector is
  /// stored as its lanes (the scalar element).
  CType element(const rise::Type& t);
  /// The innermost non-array type of a (nested) array type.
  static rise::Type innermost(const rise::Type& t);
  /// The total number of elements of a (nested) array type (1 for non-arrays).
  static rise::Nat count(const rise::Type& t);
  /// Bytes of one element, if known (scalars, pairs of scalars).
  static std::int64_t bytes(const rise::Type& t);
  /// The struct definitions needed so far, in order of first use.
  const std::vector<StructDef>& structs() const { return structs_; }
  /// The pair type of each of structs(), in the same order.
  const std::vector<rise::Type>& structTypes() const { return structTypes_; }

private:
  std::vector<StructDef> structs_;
  std::vector<rise::Type> structTypes_;
};

/// Whether the pair type `t` (or a pair nested in it) has a vector
/// component: its struct has vector fields.
bool pairHoldsVector(const rise::Type& t);

/// Why values of the data type `t` have no memory layout in the generated
/// code (an array of pairs holding arrays, or holding vectors that cannot be
/// struct fields), or an empty string when they have one. A pair holding
/// arrays is laid out component by component.
std::string layoutProblem(const rise::Type& t);

/// The name of the struct of a pair type without `struct `: `pair_f32_i32`,
/// `pair_f32_pair_i32_i32`; a vector component is tagged like `f32x4`
/// (`pair_f32x4_f32x4`, the struct of a foreign function's pair of vectors).
std::string pairStructName(const rise::Type& t);
/// The C spelling of a scalar type: `float`, `int32_t`, `bool`, `int` (natType).
std::string scalarCType(rise::ScalarKind k);
/// A C literal for a scalar value: `1.5f`, `2.0`, `42`, `(int64_t)42`, `true`.
CExpr scalarLiteral(const rise::ScalarValue& v);

} // namespace risec::codegen::c
