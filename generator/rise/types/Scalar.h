// Scalar data types and scalar values, shared by the type system, literals and
// the reference interpreter.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace risec::rise {

/// `natType` is the type of run-time natural numbers (indexAsNat); the rest are
/// the C scalar types of the v1 grammar.
enum class ScalarKind { Bool, I8, I16, I32, I64, U8, U16, U32, U64, F32, F64, NatType };

std::string_view scalarName(ScalarKind k); ///< "f32", "natType", ...
std::optional<ScalarKind> scalarFromName(std::string_view name);
bool isFloat(ScalarKind k);
bool isSignedInt(ScalarKind k); ///< i8..i64 and natType
bool isUnsignedInt(ScalarKind k);
int scalarBits(ScalarKind k); ///< 1 for bool, 64 for natType

/// A concrete scalar. Integers are held in 64 bits and always normalised to
/// the range of `kind` (wrap-around, as in two's complement); an f32 is held
/// as a double that is exactly representable as a float.
struct ScalarValue {
  ScalarKind kind = ScalarKind::I32;
  std::int64_t i = 0;  ///< bool (0/1) and signed integers
  std::uint64_t u = 0; ///< unsigned integers
  double f = 0.0;      ///< f32 and f64

  static ScalarValue makeBool(bool b);
  static ScalarValue makeInt(ScalarKind k, std::int64_t v); ///< wraps into k's range
  static ScalarValue makeUInt(ScalarKind k, std::uint64_t v);
  static ScalarValue makeFloat(ScalarKind k, double v); ///< rounds to float for f32

  /// Numeric conversion with C semantics (`(T)x`); float->int truncates.
  ScalarValue convertTo(ScalarKind k) const;
  double asDouble() const;
  std::int64_t asInt() const;
  bool asBool() const;

  bool operator==(const ScalarValue& o) const;
};

/// RISE literal syntax: `42`, `42i64`, `7u8`, `1.5f`, `1.5`, `true`. Floats use
/// the shortest text that reads back to the same value and always carry a dot
/// or exponent.
std::string literalText(const ScalarValue& v);

} // namespace risec::rise
