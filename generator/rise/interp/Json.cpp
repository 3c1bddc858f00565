#include "rise/interp/Json.h"

namespace risec::rise::interp {

namespace {

/// A recursive-descent reader over the text; `pos_` is the next character.
class JsonReader {
public:
  explicit JsonReader(std::string_view text) : text_(text) {}

  JsonValue document() {
    JsonValue v = value();
    skipSpace();
    if (pos_ != text_.size())
      fail("unexpected text after the value");
    return v;
  }

private:
  JsonValue value() {
    skipSpace();
    if (pos_ == text_.size())
      fail("unexpected end of input, expected a value");
    char c = text_[pos_];
    if (c == '[')
      return array();
    if (c == '-' || (c >= '0' && c <= '9') || startsWith("NaN") || startsWith("Infinity"))
      return number();
    if (startsWith("true") || startsWith("false"))
      return boolean();
    if (c == '"')
      fail("strings are not supported");
    if (c == '{')
      fail("objects are not supported");
    if (startsWith("null"))
      fail("null is not supported");
    fail(std::string("unexpected character `") + c + "`");
  }

  JsonValue array() {
    // RISE data is never nested this deep; the limit keeps recursion bounded.
    if (++depth_ > kMaxDepth)
      fail("arrays nested too deeply");
    JsonValue v;
    v.kind = JsonValue::Kind::Array;
    v.offset = pos_++;
    skipSpace();
    if (peek() == ']') {
      ++pos_;
      --depth_;
      return v;
    }
    for (;;) {
      v.elements.push_back(value());
      skipSpace();
      if (peek() == ']') {
        ++pos_;
        --depth_;
        return v;
      }
      if (peek() != ',')
        fail("expected `,` or `]`");
      ++pos_;
    }
  }

  JsonValue boolean() {
    JsonValue v;
    v.kind = JsonValue::Kind::Bool;
    v.offset = pos_;
    v.boolean = startsWith("true");
    pos_ += v.boolean ? 4 : 5;
    return v;
  }

  /// JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  JsonValue number() {
    JsonValue v;
    v.offset = pos_;
    if (peek() == '-')
      ++pos_;
    for (const char* special : {"NaN", "Infinity"})
      if (startsWith(special)) {
        pos_ += std::string_view(special).size();
        v.number = std::string(text_.substr(v.offset, pos_ - v.offset));
        return v;
      }
    if (peek() == '0')
      ++pos_;
    else if (!digits())
      fail("expected a digit");
    if (peek() == '.') {
      ++pos_;
      if (!digits())
        fail("expected a digit after `.`");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-')
        ++pos_;
      if (!digits())
        fail("expected a digit in the exponent");
    }
    v.number = std::string(text_.substr(v.offset, pos_ - v.offset));
    return v;
  }

  /// Consumes [0-9]*; true if there was at least one digit.
  bool digits() {
    std::size_t start = pos_;
    while (peek() >= '0' && peek() <= '9')
      ++pos_;
    return pos_ > start;
  }

  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool startsWith(std::string_view word) const { return text_.substr(pos_).starts_with(word); }

  [[noreturn]] void fail(const std::string& message) const { throw JsonSyntaxError(pos_, message); }

  static constexpr int kMaxDepth = 1000;
  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

} // namespace

JsonValue parseJson(std::string_view text) {
  return JsonReader(text).document();
}

std::string jsonPosition(std::string_view text, std::size_t offset) {
  int line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

} // namespace risec::rise::interp
