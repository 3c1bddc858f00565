#include "rise/interp/Value.h"

#include "support/Diagnostic.h"

#include <cmath>

namespace risec::rise::interp {

// ---- construction -------------------------------------------------------------

Value Value::scalar(ScalarValue s) {
  return Value(Repr(s));
}

Value Value::array(std::vector<Value> elements) {
  return Value(Repr(std::make_shared<const std::vector<Value>>(std::move(elements))));
}

Value Value::pair(Value first, Value second) {
  return Value(
      Repr(std::make_shared<const PairData>(PairData{std::move(first), std::move(second)})));
}

Value Value::vector(std::vector<ScalarValue> lanes) {
  for (const ScalarValue& l : lanes)
    if (l.kind != lanes.front().kind)
      throw InternalError("vector value with lanes of different kinds");
  return Value(Repr(std::make_shared<const std::vector<ScalarValue>>(std::move(lanes))));
}

Value Value::index(std::int64_t value, std::int64_t bound) {
  return Value(Repr(IndexValue{value, bound}));
}

Value Value::function(std::shared_ptr<const Callable> f) {
  return Value(Repr(std::move(f)));
}

// ---- access -------------------------------------------------------------------

namespace {
[[noreturn]] void wrongKind(const char* wanted, const Value& v) {
  throw InternalError(std::string("interpreter: expected ") + wanted + ", found " +
                      describeValue(v));
}
} // namespace

const ScalarValue& Value::asScalar() const {
  if (!isScalar())
    wrongKind("a scalar", *this);
  return std::get<ScalarValue>(repr_);
}

const std::vector<Value>& Value::elements() const {
  if (!isArray())
    wrongKind("an array", *this);
  return *std::get<std::shared_ptr<const std::vector<Value>>>(repr_);
}

const Value& Value::first() const {
  if (!isPair())
    wrongKind("a pair", *this);
  return std::get<std::shared_ptr<const PairData>>(repr_)->first;
}

const Value& Value::second() const {
  if (!isPair())
    wrongKind("a pair", *this);
  return std::get<std::shared_ptr<const PairData>>(repr_)->second;
}

const std::vector<ScalarValue>& Value::lanes() const {
  if (!isVector())
    wrongKind("a vector", *this);
  return *std::get<std::shared_ptr<const std::vector<ScalarValue>>>(repr_);
}

const IndexValue& Value::asIndex() const {
  if (!isIndex())
    wrongKind("an index", *this);
  return std::get<IndexValue>(repr_);
}

const Callable& Value::function() const {
  if (!isFunction())
    wrongKind("a function", *this);
  return *std::get<std::shared_ptr<const Callable>>(repr_);
}

bool Value::operator==(const Value& o) const {
  if (kind() != o.kind())
    return false;
  switch (kind()) {
  case Kind::Scalar:
    return asScalar() == o.asScalar();
  case Kind::Array:
    return elements() == o.elements();
  case Kind::Pair:
    return first() == o.first() && second() == o.second();
  case Kind::Vector:
    return lanes() == o.lanes();
  case Kind::Index:
    return asIndex() == o.asIndex();
  case Kind::Function:
    return &function() == &o.function();
  }
  return false;
}

DepArg DepArg::ofNat(std::int64_t n) {
  DepArg d;
  d.kind = Kind::Nat;
  d.nat = n;
  d.natExpr = natConst(n);
  return d;
}

Value apply(const Value& f, const Value& arg) {
  return f.function().apply(arg);
}

Value applyDep(const Value& f, const DepArg& arg) {
  return f.function().applyDep(arg);
}

// ---- comparison ---------------------------------------------------------------

namespace {

bool scalarsClose(const ScalarValue& a, const ScalarValue& b, double rtol, double atol) {
  if (a.kind != b.kind)
    return false;
  if (!isFloat(a.kind))
    return a == b;
  if (std::isnan(a.f) || std::isnan(b.f))
    return std::isnan(a.f) && std::isnan(b.f);
  if (std::isinf(a.f) || std::isinf(b.f))
    return a.f == b.f;
  return std::fabs(a.f - b.f) <= atol + rtol * std::fabs(b.f);
}

std::string scalarMismatch(const ScalarValue& a, const ScalarValue& b) {
  return literalText(a) + " vs " + literalText(b) + " (expected)";
}

/// Walks both values in lockstep; `path` is the position so far ("[3][1]").
class CloseComparer {
public:
  CloseComparer(double rtol, double atol, std::string* why) : rtol_(rtol), atol_(atol), why_(why) {}

  bool compare(const Value& a, const Value& b, const std::string& path) {
    if (a.kind() != b.kind())
      return fail(path, describeValue(a) + " vs " + describeValue(b) + " (expected)");
    switch (a.kind()) {
    case Value::Kind::Scalar:
      return scalarsClose(a.asScalar(), b.asScalar(), rtol_, atol_) ||
             fail(path, scalarMismatch(a.asScalar(), b.asScalar()));
    case Value::Kind::Array:
      return compareArrays(a, b, path);
    case Value::Kind::Pair:
      return compare(a.first(), b.first(), path + ".fst") &&
             compare(a.second(), b.second(), path + ".snd");
    case Value::Kind::Vector:
      return compareLanes(a.lanes(), b.lanes(), path);
    case Value::Kind::Index:
      return a.asIndex() == b.asIndex() ||
             fail(path, "index " + std::to_string(a.asIndex().value) + " vs " +
                            std::to_string(b.asIndex().value) + " (expected)");
    case Value::Kind::Function:
      return fail(path, "cannot compare functions");
    }
    return false;
  }

private:
  bool compareArrays(const Value& a, const Value& b, const std::string& path) {
    if (a.size() != b.size())
      return fail(path, describeValue(a) + " vs " + describeValue(b) + " (expected)");
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!compare(a[i], b[i], path + "[" + std::to_string(i) + "]"))
        return false;
    return true;
  }

  bool compareLanes(const std::vector<ScalarValue>& a, const std::vector<ScalarValue>& b,
                    const std::string& path) {
    if (a.size() != b.size())
      return fail(path, "vectors of " + std::to_string(a.size()) + " and " +
                            std::to_string(b.size()) + " lanes");
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!scalarsClose(a[i], b[i], rtol_, atol_))
        return fail(path + "<" + std::to_string(i) + ">", scalarMismatch(a[i], b[i]));
    return true;
  }

  bool fail(const std::string& path, const std::string& message) {
    if (why_)
      *why_ = (path.empty() ? "" : "at " + path + ": ") + message;
    return false;
  }

  double rtol_, atol_;
  std::string* why_;
};

} // namespace

bool valuesClose(const Value& actual, const Value& expected, double rtol, double atol,
                 std::string* why) {
  return CloseComparer(rtol, atol, why).compare(actual, expected, "");
}

std::string describeValue(const Value& v) {
  switch (v.kind()) {
  case Value::Kind::Scalar: {
    std::string name(scalarName(v.asScalar().kind));
    return std::string(name[0] == 'i' || name[0] == 'f' ? "an " : "a ") + name + " scalar";
  }
  case Value::Kind::Array:
    return "an array of " + std::to_string(v.size()) + (v.size() == 1 ? " element" : " elements");
  case Value::Kind::Pair:
    return "a pair";
  case Value::Kind::Vector: {
    const auto& lanes = v.lanes();
    std::string s = lanes.empty() ? "?" : std::string(scalarName(lanes.front().kind));
    return "vec[" + s + ", " + std::to_string(lanes.size()) + "]";
  }
  case Value::Kind::Index:
    return "an index";
  case Value::Kind::Function:
    return "a function";
  }
  return "?";
}

} // namespace risec::rise::interp
