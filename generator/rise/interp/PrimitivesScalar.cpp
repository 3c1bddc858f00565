// Scalar operators and math functions (semantics: ScalarOps.h). On vector
// values (vec[s, k]) every operator and function applies lane by lane.
#include "rise/interp/Primitives.h"
#include "rise/interp/RuntimeError.h"
#include "rise/interp/ScalarOps.h"

#include <cstdint>
#include <limits>
#include <math.h> // the C functions sqrtf, sqrt, ... by their C names

namespace risec::rise::interp {

namespace {

[[noreturn]] void badOperands(Prim op, const ScalarValue& a) {
  throw InternalError("interpreter: `" + std::string(primName(op)) + "` applied to " +
                      std::string(scalarName(a.kind)));
}

// ---- floats -------------------------------------------------------------------

/// Applies a binary C operation in the precision of `k`: an f32 operation is
/// computed on floats, so its result is rounded to float like in C.
template <class Op> ScalarValue floatBinary(ScalarKind k, double a, double b, Op op) {
  if (k == ScalarKind::F32)
    return ScalarValue::makeFloat(k, op(static_cast<float>(a), static_cast<float>(b)));
  return ScalarValue::makeFloat(k, op(a, b));
}

ScalarValue floatArith(Prim op, const ScalarValue& a, const ScalarValue& b) {
  ScalarKind k = a.kind;
  bool f32 = k == ScalarKind::F32;
  switch (op) {
  case Prim::Add:
    return floatBinary(k, a.f, b.f, [](auto x, auto y) { return x + y; });
  case Prim::Sub:
    return floatBinary(k, a.f, b.f, [](auto x, auto y) { return x - y; });
  case Prim::Mul:
    return floatBinary(k, a.f, b.f, [](auto x, auto y) { return x * y; });
  case Prim::Div:
    return floatBinary(k, a.f, b.f, [](auto x, auto y) { return x / y; });
  case Prim::Mod:
    return f32 ? ScalarValue::makeFloat(k, fmodf(static_cast<float>(a.f), static_cast<float>(b.f)))
               : ScalarValue::makeFloat(k, fmod(a.f, b.f));
  case Prim::Pow:
    return f32 ? ScalarValue::makeFloat(k, powf(static_cast<float>(a.f), static_cast<float>(b.f)))
               : ScalarValue::makeFloat(k, pow(a.f, b.f));
  case Prim::Atan2: // atan2(y, x): the angle of the point (x, y)
    return f32 ? ScalarValue::makeFloat(k, atan2f(static_cast<float>(a.f), static_cast<float>(b.f)))
               : ScalarValue::makeFloat(k, atan2(a.f, b.f));
  default:
    badOperands(op, a);
  }
}

ScalarValue floatMath(Prim op, const ScalarValue& a) {
  float x = static_cast<float>(a.f);
  double d = a.f;
  bool f32 = a.kind == ScalarKind::F32;
  auto make = [&](double r) { return ScalarValue::makeFloat(a.kind, r); };
  switch (op) {
  case Prim::Neg:
    return f32 ? make(-x) : make(-d);
  case Prim::Sqrt:
    return f32 ? make(sqrtf(x)) : make(sqrt(d));
  case Prim::Exp:
    return f32 ? make(expf(x)) : make(exp(d));
  case Prim::Log:
    return f32 ? make(logf(x)) : make(log(d));
  case Prim::Fabs:
    return f32 ? make(fabsf(x)) : make(fabs(d));
  case Prim::Floor:
    return f32 ? make(floorf(x)) : make(floor(d));
  case Prim::Sin:
    return f32 ? make(sinf(x)) : make(sin(d));
  case Prim::Cos:
    return f32 ? make(cosf(x)) : make(cos(d));
  case Prim::Tanh:
    return f32 ? make(tanhf(x)) : make(tanh(d));
  default:
    badOperands(op, a);
  }
}

// ---- integers -----------------------------------------------------------------

/// The smallest value of a signed kind (i8..i64, natType).
std::int64_t signedMin(ScalarKind k) {
  int bits = scalarBits(k);
  return bits >= 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (bits - 1));
}

void checkDivisor(Prim op, const ScalarValue& a, const ScalarValue& b, const SourceLocation& loc) {
  bool zero = isUnsignedInt(b.kind) ? b.u == 0 : b.i == 0;
  if (zero)
    runtimeError(errc::kDivisionByZero, loc,
                 "integer division by zero in `" + std::string(primName(op)) + "`");
  // C promotes i8/i16 to int, where MIN / -1 is representable; for int and
  // wider types it overflows (undefined behaviour, a trap on x86).
  if (isSignedInt(a.kind) && scalarBits(a.kind) >= 32 && a.i == signedMin(a.kind) && b.i == -1)
    runtimeError(errc::kDivisionOverflow, loc,
                 "integer overflow in `" + std::string(primName(op)) + "`: " + literalText(a) +
                     " " + (op == Prim::Div ? "/" : "%") + " -1 is not representable in " +
                     std::string(scalarName(a.kind)));
}

ScalarValue unsignedArith(Prim op, const ScalarValue& a, const ScalarValue& b) {
  std::uint64_t x = a.u, y = b.u;
  switch (op) {
  case Prim::Add:
    return ScalarValue::makeUInt(a.kind, x + y); // unsigned arithmetic wraps
  case Prim::Sub:
    return ScalarValue::makeUInt(a.kind, x - y);
  case Prim::Mul:
    return ScalarValue::makeUInt(a.kind, x * y);
  case Prim::Div:
    return ScalarValue::makeUInt(a.kind, x / y);
  case Prim::Mod:
    return ScalarValue::makeUInt(a.kind, x % y);
  default:
    badOperands(op, a);
  }
}

ScalarValue signedArith(Prim op, const ScalarValue& a, const ScalarValue& b) {
  // + - * are computed on uint64 (wrapping, no UB) and makeInt wraps the
  // result to the kind's width: two's complement wrap-around.
  auto ux = static_cast<std::uint64_t>(a.i), uy = static_cast<std::uint64_t>(b.i);
  auto wrap = [&](std::uint64_t r) {
    return ScalarValue::makeInt(a.kind, static_cast<std::int64_t>(r));
  };
  switch (op) {
  case Prim::Add:
    return wrap(ux + uy);
  case Prim::Sub:
    return wrap(ux - uy);
  case Prim::Mul:
    return wrap(ux * uy);
  case Prim::Div: // C++ / and % truncate toward zero, like C
    return ScalarValue::makeInt(a.kind, a.i / b.i);
  case Prim::Mod:
    return ScalarValue::makeInt(a.kind, a.i % b.i);
  default:
    badOperands(op, a);
  }
}

ScalarValue intArith(Prim op, const ScalarValue& a, const ScalarValue& b,
                     const SourceLocation& loc) {
  if (op == Prim::Div || op == Prim::Mod)
    checkDivisor(op, a, b, loc);
  if (isUnsignedInt(a.kind))
    return unsignedArith(op, a, b);
  if (isSignedInt(a.kind))
    return signedArith(op, a, b);
  badOperands(op, a);
}

ScalarValue negate(const ScalarValue& a) {
  if (isFloat(a.kind))
    return floatMath(Prim::Neg, a);
  if (isUnsignedInt(a.kind))
    return ScalarValue::makeUInt(a.kind, 0 - a.u);
  if (isSignedInt(a.kind))
    return ScalarValue::makeInt(a.kind,
                                static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(a.i)));
  badOperands(Prim::Neg, a);
}

// ---- comparisons ------------------------------------------------------------------

/// -1, 0 or 1 like a C comparison of two scalars of one kind; `unordered` is
/// set when a float operand is NaN (every comparison but != is then false).
int compare(const ScalarValue& a, const ScalarValue& b, bool& unordered) {
  unordered = false;
  if (isFloat(a.kind)) {
    if (a.f != a.f || b.f != b.f) {
      unordered = true;
      return 0;
    }
    return a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
  }
  if (isUnsignedInt(a.kind))
    return a.u < b.u ? -1 : a.u > b.u ? 1 : 0;
  return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
}

ScalarValue comparison(Prim op, const ScalarValue& a, const ScalarValue& b) {
  bool unordered = false;
  int c = compare(a, b, unordered);
  if (unordered)
    return ScalarValue::makeBool(op == Prim::NotEqual);
  switch (op) {
  case Prim::Equal:
    return ScalarValue::makeBool(c == 0);
  case Prim::NotEqual:
    return ScalarValue::makeBool(c != 0);
  case Prim::Lt:
    return ScalarValue::makeBool(c < 0);
  case Prim::Le:
    return ScalarValue::makeBool(c <= 0);
  case Prim::Gt:
    return ScalarValue::makeBool(c > 0);
  case Prim::Ge:
    return ScalarValue::makeBool(c >= 0);
  default:
    badOperands(op, a);
  }
}

/// min(a, b) = a < b ? a : b; max(a, b) = a > b ? a : b.
ScalarValue minMax(Prim op, const ScalarValue& a, const ScalarValue& b) {
  bool aWins = comparison(op == Prim::Min ? Prim::Lt : Prim::Gt, a, b).i != 0;
  return aWins ? a : b;
}

ScalarValue logical(Prim op, const ScalarValue& a, const ScalarValue& b) {
  if (a.kind != ScalarKind::Bool)
    badOperands(op, a);
  bool r = op == Prim::And ? (a.i != 0 && b.i != 0) : (a.i != 0 || b.i != 0);
  return ScalarValue::makeBool(r);
}

} // namespace

ScalarValue scalarBinary(Prim op, const ScalarValue& a, const ScalarValue& b,
                         const SourceLocation& loc) {
  if (a.kind != b.kind)
    throw InternalError("interpreter: `" + std::string(primName(op)) + "` applied to " +
                        std::string(scalarName(a.kind)) + " and " +
                        std::string(scalarName(b.kind)));
  switch (op) {
  case Prim::Add:
  case Prim::Sub:
  case Prim::Mul:
  case Prim::Div:
  case Prim::Mod:
  case Prim::Pow:
  case Prim::Atan2:
    return isFloat(a.kind) ? floatArith(op, a, b) : intArith(op, a, b, loc);
  case Prim::Min:
  case Prim::Max:
    return minMax(op, a, b);
  case Prim::Equal:
  case Prim::NotEqual:
  case Prim::Lt:
  case Prim::Le:
  case Prim::Gt:
  case Prim::Ge:
    return comparison(op, a, b);
  case Prim::And:
  case Prim::Or:
    return logical(op, a, b);
  default:
    badOperands(op, a);
  }
}

ScalarValue scalarUnary(Prim op, const ScalarValue& a) {
  switch (op) {
  case Prim::Neg:
    return negate(a);
  case Prim::Not:
    if (a.kind != ScalarKind::Bool)
      badOperands(op, a);
    return ScalarValue::makeBool(a.i == 0);
  default:
    if (!isFloat(a.kind))
      badOperands(op, a);
    return floatMath(op, a);
  }
}

// ---- on values: scalars and vectors ------------------------------------------------

namespace {

Value liftUnary(Prim op, const Value& a) {
  if (!a.isVector())
    return Value::scalar(scalarUnary(op, a.asScalar()));
  std::vector<ScalarValue> out;
  for (const ScalarValue& x : a.lanes())
    out.push_back(scalarUnary(op, x));
  return Value::vector(std::move(out));
}

Value liftBinary(Prim op, const Value& a, const Value& b, const SourceLocation& loc) {
  if (!a.isVector())
    return Value::scalar(scalarBinary(op, a.asScalar(), b.asScalar(), loc));
  const auto &xs = a.lanes(), &ys = b.lanes();
  if (xs.size() != ys.size())
    throw InternalError("interpreter: `" + std::string(primName(op)) +
                        "` on vectors of different lengths");
  std::vector<ScalarValue> out;
  for (std::size_t i = 0; i < xs.size(); ++i)
    out.push_back(scalarBinary(op, xs[i], ys[i], loc));
  return Value::vector(std::move(out));
}

} // namespace

Value runScalarPrimitive(const PrimCall& call) {
  Prim op = call.prim;
  // select(c, a, b): a if c is true, else b. Both a and b have already been
  // evaluated (RISE is strict); select chooses between values of any data type.
  if (op == Prim::Select)
    return call.arg(0).asScalar().asBool() ? call.arg(1) : call.arg(2);
  if (call.args.size() == 1)
    return liftUnary(op, call.arg(0));
  return liftBinary(op, call.arg(0), call.arg(1), call.loc);
}

} // namespace risec::rise::interp
