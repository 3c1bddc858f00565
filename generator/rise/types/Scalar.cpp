#include "rise/types/Scalar.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace risec::rise {

namespace {
struct ScalarInfo {
  ScalarKind kind;
  std::string_view name;
  int bits;
};
constexpr std::array<ScalarInfo, 12> kScalars{{
    {ScalarKind::Bool, "bool", 1},
    {ScalarKind::I8, "i8", 8},
    {ScalarKind::I16, "i16", 16},
    {ScalarKind::I32, "i32", 32},
    {ScalarKind::I64, "i64", 64},
    {ScalarKind::U8, "u8", 8},
    {ScalarKind::U16, "u16", 16},
    {ScalarKind::U32, "u32", 32},
    {ScalarKind::U64, "u64", 64},
    {ScalarKind::F32, "f32", 32},
    {ScalarKind::F64, "f64", 64},
    {ScalarKind::NatType, "natType", 64},
}};
} // namespace

std::string_view scalarName(ScalarKind k) {
  return kScalars[static_cast<int>(k)].name;
}

std::optional<ScalarKind> scalarFromName(std::string_view name) {
  for (const ScalarInfo& s : kScalars)
    if (s.name == name)
      return s.kind;
  return std::nullopt;
}

bool isFloat(ScalarKind k) {
  return k == ScalarKind::F32 || k == ScalarKind::F64;
}
bool isSignedInt(ScalarKind k) {
  return k == ScalarKind::I8 || k == ScalarKind::I16 || k == ScalarKind::I32 ||
         k == ScalarKind::I64 || k == ScalarKind::NatType;
}
bool isUnsignedInt(ScalarKind k) {
  return k == ScalarKind::U8 || k == ScalarKind::U16 || k == ScalarKind::U32 ||
         k == ScalarKind::U64;
}
int scalarBits(ScalarKind k) {
  return kScalars[static_cast<int>(k)].bits;
}

ScalarValue ScalarValue::makeBool(bool b) {
  ScalarValue v;
  v.kind = ScalarKind::Bool;
  v.i = b ? 1 : 0;
  return v;
}

ScalarValue ScalarValue::makeInt(ScalarKind k, std::int64_t x) {
  if (isUnsignedInt(k))
    return makeUInt(k, static_cast<std::uint64_t>(x));
  if (k == ScalarKind::Bool)
    return makeBool(x != 0);
  if (isFloat(k))
    return makeFloat(k, static_cast<double>(x));
  ScalarValue v;
  v.kind = k;
  int bits = scalarBits(k);
  if (bits < 64) {
    // Two's complement wrap-around into the kind's range.
    std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    std::uint64_t u = static_cast<std::uint64_t>(x) & mask;
    if (u & (std::uint64_t{1} << (bits - 1)))
      u |= ~mask;
    x = static_cast<std::int64_t>(u);
  }
  v.i = x;
  return v;
}

ScalarValue ScalarValue::makeUInt(ScalarKind k, std::uint64_t x) {
  if (!isUnsignedInt(k))
    return makeInt(k, static_cast<std::int64_t>(x));
  ScalarValue v;
  v.kind = k;
  int bits = scalarBits(k);
  v.u = bits < 64 ? (x & ((std::uint64_t{1} << bits) - 1)) : x;
  return v;
}

ScalarValue ScalarValue::makeFloat(ScalarKind k, double x) {
  if (!isFloat(k))
    return ScalarValue::makeFloat(ScalarKind::F64, x).convertTo(k);
  ScalarValue v;
  v.kind = k;
  v.f = k == ScalarKind::F32 ? static_cast<double>(static_cast<float>(x)) : x;
  return v;
}

ScalarValue ScalarValue::convertTo(ScalarKind k) const {
  if (k == ScalarKind::Bool)
    return makeBool(asBool());
  if (isFloat(k))
    return makeFloat(k, asDouble());
  if (isFloat(kind)) {
    // C truncates toward zero; out-of-range conversions are UB in C, we saturate.
    double t = std::trunc(f);
    if (std::isnan(t))
      t = 0;
    if (isUnsignedInt(k)) {
      double lim = 18446744073709549568.0;
      std::uint64_t u = t <= 0 ? 0 : t >= lim ? UINT64_MAX : static_cast<std::uint64_t>(t);
      return makeUInt(k, u);
    }
    double lim = 9223372036854774784.0;
    std::int64_t s = t <= -lim ? INT64_MIN : t >= lim ? INT64_MAX : static_cast<std::int64_t>(t);
    return makeInt(k, s);
  }
  if (isUnsignedInt(kind))
    return isUnsignedInt(k) ? makeUInt(k, u) : makeInt(k, static_cast<std::int64_t>(u));
  return isUnsignedInt(k) ? makeUInt(k, static_cast<std::uint64_t>(i)) : makeInt(k, i);
}

double ScalarValue::asDouble() const {
  if (isFloat(kind))
    return f;
  if (isUnsignedInt(kind))
    return static_cast<double>(u);
  return static_cast<double>(i);
}

std::int64_t ScalarValue::asInt() const {
  if (isFloat(kind))
    return convertTo(ScalarKind::I64).i;
  if (isUnsignedInt(kind))
    return static_cast<std::int64_t>(u);
  return i;
}

bool ScalarValue::asBool() const {
  if (isFloat(kind))
    return f != 0.0;
  if (isUnsignedInt(kind))
    return u != 0;
  return i != 0;
}

bool ScalarValue::operator==(const ScalarValue& o) const {
  if (kind != o.kind)
    return false;
  if (isFloat(kind))
    return f == o.f || (std::isnan(f) && std::isnan(o.f));
  if (isUnsignedInt(kind))
    return u == o.u;
  return i == o.i;
}

namespace {
std::string shortestFloat(double x, bool single) {
  // The shortest %g precision that reads back to the same value.
  char buf[64];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, x);
    double back = std::strtod(buf, nullptr);
    if (single ? static_cast<float>(back) == static_cast<float>(x) : back == x)
      break;
  }
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) // "n" covers nan/inf
    s += ".0";
  else if (s.find('.') == std::string::npos && s.find_first_of("eE") != std::string::npos) {
    // 1e+20 -> 1.0e+20 so the lexer sees a float.
    s.insert(s.find_first_of("eE"), ".0");
  }
  return s;
}
} // namespace

std::string literalText(const ScalarValue& v) {
  switch (v.kind) {
  case ScalarKind::Bool:
    return v.i ? "true" : "false";
  case ScalarKind::F32:
    return shortestFloat(v.f, true) + "f";
  case ScalarKind::F64:
    return shortestFloat(v.f, false);
  case ScalarKind::I32:
    return std::to_string(v.i);
  case ScalarKind::NatType:
    return std::to_string(v.i) + "n";
  default:
    if (isUnsignedInt(v.kind))
      return std::to_string(v.u) + std::string(scalarName(v.kind));
    return std::to_string(v.i) + std::string(scalarName(v.kind));
  }
}

} // namespace risec::rise
