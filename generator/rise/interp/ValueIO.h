// Values as text, guided by their RISE data type: reading inputs from JSON,
// writing results as JSON, checking a value against a type, and random
// values for property tests.
//
// JSON form of a value of type
//   scalar      a number, or true/false for bool; non-finite floats are the
//               tokens NaN, Infinity and -Infinity
//   n.dt        an array of n elements
//   (a, b)      an array of 2 elements
//   vec[s, k]   an array of k numbers
//   idx[n]      a number in [0, n)
// Types must be concrete: every size a constant (substitute the size
// parameters first, see instantiateEntry).
#pragma once

#include "rise/interp/Json.h"
#include "rise/interp/Value.h"
#include "support/SourceLocation.h"

#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>

namespace risec::rise::interp {

/// Where a value differs from its expected type: `path` is the position
/// inside the value ("[3][1]", "[2].fst", empty for the value itself).
struct ShapeMismatch {
  std::string path;
  std::string message; ///< "expected an array of 48 elements, found 47"

  /// "WHAT at PATH: MESSAGE", e.g. "input 2 (`x`) at [3]: expected ...".
  std::string str(const std::string& what) const;
};

/// Checks that `v` is a value of the concrete data type `t`.
std::optional<ShapeMismatch> checkValueType(const Value& v, const Type& t);

/// Reads a value of the concrete data type `t` from JSON text. `what` names
/// the value in messages ("input 2 (`x`)"). Malformed JSON is error E0414, a
/// value of the wrong shape or range E0413; both are reported at `loc`.
Value parseValue(std::string_view json, const Type& t, const std::string& what = "value",
                 const SourceLocation& loc = {});

/// The same for JSON that is already parsed (e.g. one element of a list of
/// inputs): a value of the wrong shape or range is E0413 at `loc`.
Value jsonToValue(const JsonValue& json, const Type& t, const std::string& what = "value",
                  const SourceLocation& loc = {});

/// Deterministic JSON text: integers exact, floats in the shortest form that
/// reads back to the same f32/f64 (always with a `.` or exponent, e.g. 1.0),
/// nested arrays on one line: [[1, 2], [3, 4]].
std::string valueToJson(const Value& v);

/// A random value of the concrete data type `t`: floats uniform in [-1, 1],
/// signed integers in [-8, 8], unsigned integers and natType in [0, 16],
/// bool 50/50, indices uniform in [0, n). The sequence
/// depends only on the seed of `rng` (no <random> distributions, whose
/// output differs between standard libraries).
Value randomValue(const Type& t, std::mt19937_64& rng);

/// The value of a concrete data type that holds no scalar (`3.0.f32`);
/// InternalError for a type with scalars.
Value emptyValue(const Type& t);

/// Prints valueToJson(v) (used by GoogleTest to show values).
std::ostream& operator<<(std::ostream& os, const Value& v);

} // namespace risec::rise::interp
