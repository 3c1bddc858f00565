#include "rise/interp/ValueIO.h"

#include "rise/interp/RuntimeError.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace risec::rise::interp {

namespace {

/// The constant size of an array, vector or index type.
std::int64_t constSize(const Type& t) {
  if (!t->size()->isConst())
    throw InternalError("interpreter: the type " + typeToString(t) +
                        " has a size that is not a constant");
  return t->size()->value();
}

std::string elementsText(std::int64_t n) {
  return std::to_string(n) + (n == 1 ? " element" : " elements");
}

std::string scalarText(ScalarKind k) {
  std::string name(scalarName(k));
  return std::string(name[0] == 'i' || name[0] == 'f' ? "an " : "a ") + name + " value";
}

/// What a value of type `t` looks like, for "expected ..." messages.
std::string expectedText(const Type& t) {
  switch (t->kind()) {
  case TypeKind::Scalar:
    return scalarText(t->scalar());
  case TypeKind::Array:
    return "an array of " + elementsText(constSize(t));
  case TypeKind::Pair:
    return "a pair";
  case TypeKind::Vec:
    return "a " + typeToString(t) + " of " + std::to_string(constSize(t)) + " lanes";
  case TypeKind::Index:
    return "an index in [0, " + std::to_string(constSize(t)) + ")";
  default:
    throw InternalError("interpreter: " + typeToString(t) + " is not a concrete data type");
  }
}

// ---- checking a value -----------------------------------------------------------

class TypeChecker {
public:
  std::optional<ShapeMismatch> check(const Value& v, const Type& t, const std::string& path) {
    switch (t->kind()) {
    case TypeKind::Scalar:
      if (v.isScalar() && v.asScalar().kind == t->scalar())
        return std::nullopt;
      return mismatch(path, t, describeValue(v));
    case TypeKind::Array:
      return checkArray(v, t, path);
    case TypeKind::Pair:
      if (!v.isPair())
        return mismatch(path, t, describeValue(v));
      if (auto m = check(v.first(), t->first(), path + ".fst"))
        return m;
      return check(v.second(), t->second(), path + ".snd");
    case TypeKind::Vec:
      return checkVector(v, t, path);
    case TypeKind::Index:
      if (v.isIndex() && v.asIndex().bound == constSize(t) && v.asIndex().value >= 0 &&
          v.asIndex().value < constSize(t))
        return std::nullopt;
      return mismatch(path, t, v.isIndex() ? std::to_string(v.asIndex().value) : describeValue(v));
    default:
      throw InternalError("interpreter: " + typeToString(t) + " is not a concrete data type");
    }
  }

private:
  static ShapeMismatch mismatch(const std::string& path, const Type& t, const std::string& found) {
    return {path, "expected " + expectedText(t) + ", found " + found};
  }

  std::optional<ShapeMismatch> checkArray(const Value& v, const Type& t, const std::string& path) {
    if (!v.isArray())
      return mismatch(path, t, describeValue(v));
    if (static_cast<std::int64_t>(v.size()) != constSize(t))
      return mismatch(path, t, std::to_string(v.size()));
    for (std::size_t i = 0; i < v.size(); ++i)
      if (auto m = check(v[i], t->elem(), path + "[" + std::to_string(i) + "]"))
        return m;
    return std::nullopt;
  }

  std::optional<ShapeMismatch> checkVector(const Value& v, const Type& t, const std::string& path) {
    if (!v.isVector() || static_cast<std::int64_t>(v.lanes().size()) != constSize(t))
      return mismatch(path, t, describeValue(v));
    for (const ScalarValue& lane : v.lanes())
      if (lane.kind != t->elem()->scalar())
        return mismatch(path, t, describeValue(v));
    return std::nullopt;
  }
};

// ---- reading JSON ---------------------------------------------------------------

/// Thrown inside the reader, turned into E0413 by parseValue.
struct ShapeError {
  ShapeMismatch mismatch;
};

std::string describeJson(const JsonValue& j) {
  switch (j.kind) {
  case JsonValue::Kind::Number:
    return j.number;
  case JsonValue::Kind::Bool:
    return j.boolean ? "true" : "false";
  case JsonValue::Kind::Array:
    return "an array of " + elementsText(static_cast<std::int64_t>(j.elements.size()));
  }
  return "?";
}

bool isIntegerText(const std::string& s) {
  std::size_t i = s.starts_with("-") ? 1 : 0;
  if (i == s.size())
    return false;
  for (; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9')
      return false;
  return true;
}

/// Parses a JSON number token as a float of kind k (f32 is read as a float
/// directly, so it is rounded once, not twice via double).
ScalarValue floatFromText(const std::string& s, ScalarKind k) {
  bool negative = s.starts_with("-");
  std::string_view body = std::string_view(s).substr(negative ? 1 : 0);
  if (body == "NaN")
    return ScalarValue::makeFloat(k, std::nan(""));
  if (body == "Infinity")
    return ScalarValue::makeFloat(k, negative ? -INFINITY : INFINITY);
  const char *begin = s.data(), *end = s.data() + s.size();
  if (k == ScalarKind::F32) {
    float f = 0;
    if (std::from_chars(begin, end, f).ec == std::errc::result_out_of_range)
      f = std::strtof(begin, nullptr); // overflow to inf or underflow to 0, like C
    return ScalarValue::makeFloat(k, f);
  }
  double d = 0;
  if (std::from_chars(begin, end, d).ec == std::errc::result_out_of_range)
    d = std::strtod(begin, nullptr);
  return ScalarValue::makeFloat(k, d);
}

/// Parses an integer token into kind k; nullopt if it is out of k's range.
std::optional<ScalarValue> intFromText(const std::string& s, ScalarKind k) {
  if (isUnsignedInt(k)) {
    std::uint64_t u = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), u);
    if (ec != std::errc() || end != s.data() + s.size())
      return std::nullopt; // negative or too large
    ScalarValue v = ScalarValue::makeUInt(k, u);
    return v.u == u ? std::optional(v) : std::nullopt;
  }
  std::int64_t i = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
  if (ec != std::errc() || end != s.data() + s.size())
    return std::nullopt;
  ScalarValue v = ScalarValue::makeInt(k, i);
  return v.i == i ? std::optional(v) : std::nullopt; // makeInt wraps out-of-range values
}

class JsonToValue {
public:
  Value convert(const JsonValue& j, const Type& t, const std::string& path) {
    switch (t->kind()) {
    case TypeKind::Scalar:
      return Value::scalar(scalar(j, t, path));
    case TypeKind::Array:
      return array(j, t, path);
    case TypeKind::Pair: {
      expectArray(j, t, 2, path);
      Value a = convert(j.elements[0], t->first(), path + ".fst");
      return Value::pair(a, convert(j.elements[1], t->second(), path + ".snd"));
    }
    case TypeKind::Vec:
      return vector(j, t, path);
    case TypeKind::Index:
      return index(j, t, path);
    default:
      throw InternalError("interpreter: " + typeToString(t) + " is not a concrete data type");
    }
  }

private:
  [[noreturn]] static void fail(const std::string& path, const Type& t, const std::string& found) {
    throw ShapeError{{path, "expected " + expectedText(t) + ", found " + found}};
  }

  static void expectArray(const JsonValue& j, const Type& t, std::size_t n,
                          const std::string& path) {
    if (j.kind != JsonValue::Kind::Array)
      fail(path, t, describeJson(j));
    if (j.elements.size() != n)
      fail(path, t,
           t->kind() == TypeKind::Array ? std::to_string(j.elements.size()) : describeJson(j));
  }

  Value array(const JsonValue& j, const Type& t, const std::string& path) {
    expectArray(j, t, static_cast<std::size_t>(constSize(t)), path);
    std::vector<Value> out;
    out.reserve(j.elements.size());
    for (std::size_t i = 0; i < j.elements.size(); ++i)
      out.push_back(convert(j.elements[i], t->elem(), path + "[" + std::to_string(i) + "]"));
    return Value::array(std::move(out));
  }

  Value vector(const JsonValue& j, const Type& t, const std::string& path) {
    expectArray(j, t, static_cast<std::size_t>(constSize(t)), path);
    std::vector<ScalarValue> lanes;
    for (std::size_t i = 0; i < j.elements.size(); ++i)
      lanes.push_back(scalar(j.elements[i], t->elem(), path + "<" + std::to_string(i) + ">"));
    return Value::vector(std::move(lanes));
  }

  ScalarValue scalar(const JsonValue& j, const Type& t, const std::string& path) {
    ScalarKind k = t->scalar();
    if (k == ScalarKind::Bool) {
      if (j.kind != JsonValue::Kind::Bool)
        fail(path, t, describeJson(j));
      return ScalarValue::makeBool(j.boolean);
    }
    if (j.kind != JsonValue::Kind::Number)
      fail(path, t, describeJson(j));
    if (isFloat(k))
      return floatFromText(j.number, k);
    if (!isIntegerText(j.number))
      fail(path, t, j.number);
    std::optional<ScalarValue> v = intFromText(j.number, k);
    if (!v)
      throw ShapeError{{path, j.number + " is out of range for " + std::string(scalarName(k))}};
    return *v;
  }

  Value index(const JsonValue& j, const Type& t, const std::string& path) {
    std::int64_t n = constSize(t);
    if (j.kind != JsonValue::Kind::Number || !isIntegerText(j.number))
      fail(path, t, describeJson(j));
    std::optional<ScalarValue> v = intFromText(j.number, ScalarKind::I64);
    if (!v || v->i < 0 || v->i >= n)
      fail(path, t, j.number);
    return Value::index(v->i, n);
  }
};

// ---- writing JSON ---------------------------------------------------------------

/// The shortest text that reads back to the same float (f32) or double (f64).
std::string floatText(const ScalarValue& s) {
  if (std::isnan(s.f))
    return "NaN";
  if (std::isinf(s.f))
    return s.f > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  std::to_chars_result r = s.kind == ScalarKind::F32
                               ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(s.f))
                               : std::to_chars(buf, buf + sizeof buf, s.f);
  std::string text(buf, r.ptr);
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0"; // show that it is a float
  return text;
}

std::string scalarJson(const ScalarValue& s) {
  if (s.kind == ScalarKind::Bool)
    return s.i ? "true" : "false";
  if (isFloat(s.kind))
    return floatText(s);
  if (isUnsignedInt(s.kind))
    return std::to_string(s.u);
  return std::to_string(s.i);
}

void writeJson(std::string& out, const Value& v) {
  auto list = [&out](const auto& items, auto writeItem) {
    out += '[';
    bool first = true;
    for (const auto& item : items) {
      if (!first)
        out += ", ";
      first = false;
      writeItem(item);
    }
    out += ']';
  };
  switch (v.kind()) {
  case Value::Kind::Scalar:
    out += scalarJson(v.asScalar());
    return;
  case Value::Kind::Array:
    list(v.elements(), [&out](const Value& e) { writeJson(out, e); });
    return;
  case Value::Kind::Pair:
    list(std::vector<Value>{v.first(), v.second()}, [&out](const Value& e) { writeJson(out, e); });
    return;
  case Value::Kind::Vector:
    list(v.lanes(), [&out](const ScalarValue& s) { out += scalarJson(s); });
    return;
  case Value::Kind::Index:
    out += std::to_string(v.asIndex().value);
    return;
  case Value::Kind::Function:
    throw InternalError("interpreter: a function value has no JSON form");
  }
}

// ---- random values --------------------------------------------------------------

ScalarValue randomScalar(ScalarKind k, std::mt19937_64& rng) {
  if (isFloat(k)) {
    double unit = static_cast<double>(rng() >> 11) * 0x1.0p-53; // [0, 1)
    return ScalarValue::makeFloat(k, 2.0 * unit - 1.0);
  }
  if (k == ScalarKind::Bool)
    return ScalarValue::makeBool((rng() & 1) != 0);
  auto r = static_cast<std::int64_t>(rng() % 17);
  if (isUnsignedInt(k) || k == ScalarKind::NatType)
    return ScalarValue::makeInt(k, r);
  return ScalarValue::makeInt(k, r - 8);
}

} // namespace

std::string ShapeMismatch::str(const std::string& what) const {
  return what + (path.empty() ? "" : " at " + path) + ": " + message;
}

std::optional<ShapeMismatch> checkValueType(const Value& v, const Type& t) {
  return TypeChecker().check(v, t, "");
}

Value parseValue(std::string_view json, const Type& t, const std::string& what,
                 const SourceLocation& loc) {
  JsonValue j;
  try {
    j = parseJson(json);
  } catch (const JsonSyntaxError& e) {
    runtimeError(errc::kJsonSyntax, loc,
                 what + ": invalid JSON at " + jsonPosition(json, e.offset) + ": " + e.what());
  }
  return jsonToValue(j, t, what, loc);
}

Value jsonToValue(const JsonValue& json, const Type& t, const std::string& what,
                  const SourceLocation& loc) {
  try {
    return JsonToValue().convert(json, t, "");
  } catch (const ShapeError& e) {
    runtimeError(errc::kInputShape, loc, e.mismatch.str(what));
  }
}

std::string valueToJson(const Value& v) {
  std::string out;
  writeJson(out, v);
  return out;
}

Value randomValue(const Type& t, std::mt19937_64& rng) {
  switch (t->kind()) {
  case TypeKind::Scalar:
    return Value::scalar(randomScalar(t->scalar(), rng));
  case TypeKind::Array: {
    std::vector<Value> out;
    for (std::int64_t i = 0; i < constSize(t); ++i)
      out.push_back(randomValue(t->elem(), rng));
    return Value::array(std::move(out));
  }
  case TypeKind::Pair: {
    Value a = randomValue(t->first(), rng);
    return Value::pair(a, randomValue(t->second(), rng));
  }
  case TypeKind::Vec: {
    std::vector<ScalarValue> lanes;
    for (std::int64_t i = 0; i < constSize(t); ++i)
      lanes.push_back(randomScalar(t->elem()->scalar(), rng));
    return Value::vector(std::move(lanes));
  }
  case TypeKind::Index: {
    std::int64_t n = constSize(t);
    if (n <= 0)
      throw InternalError("interpreter: idx[" + std::to_string(n) + "] has no values");
    return Value::index(static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n)), n);
  }
  default:
    throw InternalError("interpreter: " + typeToString(t) + " is not a concrete data type");
  }
}

Value emptyValue(const Type& t) {
  switch (t->kind()) {
  case TypeKind::Array: {
    std::vector<Value> out;
    for (std::int64_t i = 0; i < constSize(t); ++i)
      out.push_back(emptyValue(t->elem()));
    return Value::array(std::move(out));
  }
  case TypeKind::Pair:
    return Value::pair(emptyValue(t->first()), emptyValue(t->second()));
  default:
    throw InternalError("interpreter: " + typeToString(t) + " holds a scalar, it is not empty");
  }
}

std::ostream& operator<<(std::ostream& os, const Value& v) {
  if (v.isFunction())
    return os << "<function>";
  return os << valueToJson(v);
}

} // namespace risec::rise::interp
