// A minimal JSON reader for interpreter inputs: arrays, numbers, true and
// false (plus the non-standard number tokens NaN, Infinity and -Infinity,
// which valueToJson writes for non-finite floats). Strings, objects and null
// are rejected: RISE data never needs them. No dependency on a JSON library.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace risec::rise::interp {

struct JsonValue {
  enum class Kind { Number, Bool, Array } kind = Kind::Number;
  std::string number; ///< Number: the literal text, e.g. "-1.5e3" or "NaN"
  bool boolean = false;
  std::vector<JsonValue> elements; ///< Array
  std::size_t offset = 0;          ///< where the value starts in the text
};

/// A syntax error at a byte offset of the text.
struct JsonSyntaxError : std::runtime_error {
  JsonSyntaxError(std::size_t offset, const std::string& message)
      : std::runtime_error(message), offset(offset) {}
  std::size_t offset;
};

/// Parses one JSON value (surrounded by optional whitespace). Throws
/// JsonSyntaxError.
JsonValue parseJson(std::string_view text);

/// "line 1, column 7" for a byte offset of `text`.
std::string jsonPosition(std::string_view text, std::size_t offset);

} // namespace risec::rise::interp
