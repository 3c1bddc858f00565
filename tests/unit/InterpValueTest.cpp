// Unit tests of the interpreter's values (rise/interp): equality and
// approximate comparison, JSON reading and writing guided by a type, random
// values, and the scalar operators called directly.
#include "rise/interp/ScalarOps.h"
#include "rise/interp/Value.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace risec;
using namespace risec::rise;
using namespace risec::rise::interp;

namespace {

Type typeOf(const std::string& text) {
  return parseType(makeSourceFile("type", text));
}

ScalarValue sf32(double x) {
  return ScalarValue::makeFloat(ScalarKind::F32, x);
}
ScalarValue sf64(double x) {
  return ScalarValue::makeFloat(ScalarKind::F64, x);
}
ScalarValue si(ScalarKind k, std::int64_t x) {
  return ScalarValue::makeInt(k, x);
}
Value f32(double x) {
  return Value::scalar(sf32(x));
}
Value f64(double x) {
  return Value::scalar(sf64(x));
}
Value i32(std::int64_t x) {
  return Value::scalar(si(ScalarKind::I32, x));
}

/// JSON text -> value of `type` -> JSON text.
std::string roundTrip(const std::string& json, const std::string& type) {
  return valueToJson(parseValue(json, typeOf(type)));
}

/// Expects parseValue to fail with `code` and exactly `message`.
void expectParseError(const std::string& json, const std::string& type, const std::string& code,
                      const std::string& message) {
  try {
    Value v = parseValue(json, typeOf(type), "input 2 (`x`)");
    ADD_FAILURE() << "expected " << code << ", got " << v;
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), code);
    EXPECT_EQ(e.message(), message);
  }
}

const SourceLocation kNowhere;

} // namespace

// ---- values ---------------------------------------------------------------------

TEST(InterpValue, StructuralEquality) {
  Value a = Value::array({Value::pair(i32(1), f32(2)), Value::pair(i32(3), f32(4))});
  Value b = Value::array({Value::pair(i32(1), f32(2)), Value::pair(i32(3), f32(4))});
  Value c = Value::array({Value::pair(i32(1), f32(2)), Value::pair(i32(3), f32(5))});
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(i32(1), f32(1)); // kinds differ
  EXPECT_EQ(f32(std::nan("")), f32(std::nan("")));
  EXPECT_EQ(Value::index(2, 4), Value::index(2, 4));
  EXPECT_NE(Value::index(2, 4), Value::index(2, 5));
  EXPECT_EQ(Value::vector({sf32(1), sf32(2)}), Value::vector({sf32(1), sf32(2)}));
}

TEST(InterpValue, AccessorsCheckTheKind) {
  EXPECT_THROW(i32(1).elements(), InternalError);
  EXPECT_THROW(Value::array({}).asScalar(), InternalError);
  EXPECT_THROW(Value::vector({sf32(1), sf64(2)}), InternalError);
}

TEST(InterpValue, ValuesCloseUsesRelativeAndAbsoluteTolerance) {
  std::string why;
  EXPECT_TRUE(valuesClose(f32(1.0001), f32(1.0), 1e-3, 0, &why)) << why;
  EXPECT_FALSE(valuesClose(f32(1.01), f32(1.0), 1e-3, 0, &why));
  EXPECT_TRUE(valuesClose(f32(1e-9), f32(0), 0, 1e-6, &why)) << why;
  EXPECT_TRUE(valuesClose(f64(INFINITY), f64(INFINITY), 0, 0));
  EXPECT_FALSE(valuesClose(f64(INFINITY), f64(-INFINITY), 1, 1));
  EXPECT_TRUE(valuesClose(f64(std::nan("")), f64(std::nan("")), 0, 0));
  EXPECT_FALSE(valuesClose(f64(std::nan("")), f64(1), 1, 1));
  EXPECT_FALSE(valuesClose(i32(1), i32(2), 1, 1)); // integers are exact
}

TEST(InterpValue, ValuesCloseSaysWhere) {
  Value a = Value::array({Value::array({f32(1), f32(2)}), Value::array({f32(3), f32(4)})});
  Value b = Value::array({Value::array({f32(1), f32(2)}), Value::array({f32(3), f32(4.5)})});
  std::string why;
  EXPECT_FALSE(valuesClose(a, b, 1e-6, 1e-6, &why));
  EXPECT_EQ(why, "at [1][1]: 4.0f vs 4.5f (expected)");
  EXPECT_FALSE(valuesClose(Value::array({f32(1)}), Value::array({}), 0, 0, &why));
  EXPECT_EQ(why, "an array of 1 element vs an array of 0 elements (expected)");
  EXPECT_FALSE(valuesClose(Value::pair(f32(1), i32(2)), Value::pair(f32(1), i32(3)), 0, 0, &why));
  EXPECT_EQ(why, "at .snd: 2 vs 3 (expected)");
}

// ---- JSON output ------------------------------------------------------------------

TEST(InterpJson, WritesNestedArraysOnOneLine) {
  Value m = Value::array({Value::array({i32(1), i32(2)}), Value::array({i32(3), i32(4)})});
  EXPECT_EQ(valueToJson(m), "[[1, 2], [3, 4]]");
  EXPECT_EQ(valueToJson(Value::array({})), "[]");
  EXPECT_EQ(valueToJson(Value::pair(f32(1.5), Value::scalar(ScalarValue::makeBool(true)))),
            "[1.5, true]");
  EXPECT_EQ(valueToJson(Value::vector({sf32(1), sf32(-2)})), "[1.0, -2.0]");
  EXPECT_EQ(valueToJson(Value::index(3, 8)), "3");
}

TEST(InterpJson, FloatsAreShortestRoundTrip) {
  EXPECT_EQ(valueToJson(f32(0.1)), "0.1");
  EXPECT_EQ(valueToJson(f64(0.1)), "0.1");
  EXPECT_EQ(valueToJson(f64(static_cast<float>(0.1))), "0.10000000149011612");
  EXPECT_EQ(valueToJson(f32(1.0 / 3.0)), "0.33333334");
  EXPECT_EQ(valueToJson(f32(2)), "2.0");
  EXPECT_EQ(valueToJson(f32(-0.0)), "-0.0");
  EXPECT_EQ(valueToJson(f64(1e300)), "1e+300");
  EXPECT_EQ(valueToJson(f64(INFINITY)), "Infinity");
  EXPECT_EQ(valueToJson(f32(-INFINITY)), "-Infinity");
  EXPECT_EQ(valueToJson(f32(std::nan(""))), "NaN");
}

TEST(InterpJson, IntegersAreExact) {
  EXPECT_EQ(valueToJson(Value::scalar(si(ScalarKind::I64, INT64_MIN))), "-9223372036854775808");
  EXPECT_EQ(valueToJson(Value::scalar(ScalarValue::makeUInt(ScalarKind::U64, UINT64_MAX))),
            "18446744073709551615");
  EXPECT_EQ(valueToJson(Value::scalar(si(ScalarKind::U8, -1))), "255");
}

// ---- JSON input -------------------------------------------------------------------

TEST(InterpJson, RoundTripsEveryDataType) {
  EXPECT_EQ(roundTrip("[[1,2],[3,4]]", "2.2.i32"), "[[1, 2], [3, 4]]");
  EXPECT_EQ(roundTrip(" [ 0.1 , -2.5e3 , 1E-2 ] ", "3.f32"), "[0.1, -2500.0, 0.01]");
  EXPECT_EQ(roundTrip("[1, [true, 2.5]]", "(u8, (bool, f64))"), "[1, [true, 2.5]]");
  EXPECT_EQ(roundTrip("[[1, 2, 3, 4]]", "1.vec[i16, 4]"), "[[1, 2, 3, 4]]");
  EXPECT_EQ(roundTrip("[0, 7]", "2.idx[8]"), "[0, 7]");
  EXPECT_EQ(roundTrip("[NaN, Infinity, -Infinity]", "3.f64"), "[NaN, Infinity, -Infinity]");
  EXPECT_EQ(roundTrip("18446744073709551615", "u64"), "18446744073709551615");
  EXPECT_EQ(roundTrip("-9223372036854775808", "i64"), "-9223372036854775808");
  EXPECT_EQ(roundTrip("[]", "0.f32"), "[]");
  EXPECT_EQ(roundTrip("1e999", "f64"), "Infinity");
}

TEST(InterpJson, F32IsRoundedOnceFromTheDecimalText) {
  // Shortest texts read back to the same float.
  for (float x : {0.1f, 1.0f / 3.0f, 3.4028235e38f, 1.4e-45f, 16777216.0f})
    EXPECT_EQ(parseValue(valueToJson(f32(x)), typeOf("f32")), f32(x)) << x;
}

TEST(InterpJson, ShapeMismatchesNameTheInputAndPosition) {
  expectParseError("[1, 2]", "3.f32", "E0413",
                   "input 2 (`x`): expected an array of 3 elements, found 2");
  expectParseError("[[1, 2], [3]]", "2.2.f32", "E0413",
                   "input 2 (`x`) at [1]: expected an array of 2 elements, found 1");
  expectParseError("[1, [2]]", "2.f32", "E0413",
                   "input 2 (`x`) at [1]: expected an f32 value, found an array of 1 element");
  expectParseError("1.5", "i32", "E0413", "input 2 (`x`): expected an i32 value, found 1.5");
  expectParseError("300", "u8", "E0413", "input 2 (`x`): 300 is out of range for u8");
  expectParseError("-1", "u32", "E0413", "input 2 (`x`): -1 is out of range for u32");
  expectParseError("1", "bool", "E0413", "input 2 (`x`): expected a bool value, found 1");
  expectParseError("true", "f32", "E0413", "input 2 (`x`): expected an f32 value, found true");
  expectParseError("[1, 2, 3]", "(i32, i32)", "E0413",
                   "input 2 (`x`): expected a pair, found an array of 3 elements");
  expectParseError("8", "idx[8]", "E0413", "input 2 (`x`): expected an index in [0, 8), found 8");
  expectParseError(
      "[1, 2]", "vec[f32, 4]", "E0413",
      "input 2 (`x`): expected a vec[f32, 4] of 4 lanes, found an array of 2 elements");
}

TEST(InterpJson, SyntaxErrorsGiveThePosition) {
  expectParseError("[1, 2", "2.i32", "E0414",
                   "input 2 (`x`): invalid JSON at line 1, column 6: expected `,` or `]`");
  expectParseError("[1,\n 2 x]", "2.i32", "E0414",
                   "input 2 (`x`): invalid JSON at line 2, column 4: expected `,` or `]`");
  expectParseError("\"a\"", "i32", "E0414",
                   "input 2 (`x`): invalid JSON at line 1, column 1: strings are not supported");
  expectParseError(
      "1 2", "i32", "E0414",
      "input 2 (`x`): invalid JSON at line 1, column 3: unexpected text after the value");
  expectParseError(
      "01", "i32", "E0414",
      "input 2 (`x`): invalid JSON at line 1, column 2: unexpected text after the value");
  expectParseError("-", "i32", "E0414",
                   "input 2 (`x`): invalid JSON at line 1, column 2: expected a digit");
  expectParseError("", "i32", "E0414",
                   "input 2 (`x`): invalid JSON at line 1, column 1: unexpected end of input, "
                   "expected a value");
}

TEST(InterpJson, CheckValueTypeFindsTheFirstMismatch) {
  Type t = typeOf("2.(f32, 2.i32)");
  Value good = Value::array({Value::pair(f32(1), Value::array({i32(1), i32(2)})),
                             Value::pair(f32(2), Value::array({i32(3), i32(4)}))});
  EXPECT_FALSE(checkValueType(good, t));
  Value bad = Value::array({Value::pair(f32(1), Value::array({i32(1), i32(2)})),
                            Value::pair(f32(2), Value::array({i32(3)}))});
  auto m = checkValueType(bad, t);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->str("result"), "result at [1].snd: expected an array of 2 elements, found 1");
}

// ---- random values ----------------------------------------------------------------

TEST(InterpRandom, ValuesHaveTheTypeAndRange) {
  std::mt19937_64 rng(42);
  Type t = typeOf("64.(f32, (i8, (u16, (bool, (idx[5], vec[f64, 2])))))");
  Value v = randomValue(t, rng);
  EXPECT_FALSE(checkValueType(v, t));
  int trues = 0;
  for (const Value& e : v.elements()) {
    double f = e.first().asScalar().f;
    EXPECT_TRUE(f >= -1 && f <= 1) << f;
    std::int64_t i = e.second().first().asScalar().i;
    EXPECT_TRUE(i >= -8 && i <= 8) << i;
    std::uint64_t u = e.second().second().first().asScalar().u;
    EXPECT_LE(u, 16u);
    trues += e.second().second().second().first().asScalar().asBool() ? 1 : 0;
    std::int64_t idx = e.second().second().second().second().first().asIndex().value;
    EXPECT_TRUE(idx >= 0 && idx < 5);
  }
  EXPECT_GT(trues, 10);
  EXPECT_LT(trues, 54);
}

TEST(InterpRandom, SameSeedSameValues) {
  std::mt19937_64 a(7), b(7), c(8);
  Type t = typeOf("16.f32");
  Value x = randomValue(t, a);
  EXPECT_EQ(x, randomValue(t, b));
  EXPECT_NE(x, randomValue(t, c));
}

// ---- scalar operators called directly ------------------------------------------------

TEST(InterpScalarOps, IntegerWrapAndTruncation) {
  auto bin = [](Prim op, ScalarValue a, ScalarValue b) { return scalarBinary(op, a, b, kNowhere); };
  using K = ScalarKind;
  EXPECT_EQ(bin(Prim::Add, si(K::I32, INT32_MAX), si(K::I32, 1)), si(K::I32, INT32_MIN));
  EXPECT_EQ(bin(Prim::Mul, si(K::I16, 300), si(K::I16, 300)), si(K::I16, 90000 - 65536 * 1));
  EXPECT_EQ(bin(Prim::Sub, si(K::U16, 0), si(K::U16, 1)), si(K::U16, 65535));
  EXPECT_EQ(bin(Prim::Div, si(K::I32, -7), si(K::I32, 2)), si(K::I32, -3));
  EXPECT_EQ(bin(Prim::Mod, si(K::I32, -7), si(K::I32, 2)), si(K::I32, -1));
  EXPECT_EQ(bin(Prim::Mod, si(K::I64, 7), si(K::I64, -2)), si(K::I64, 1));
  EXPECT_EQ(bin(Prim::Div, si(K::I16, -32768), si(K::I16, -1)), si(K::I16, -32768));
  EXPECT_EQ(bin(Prim::Div, si(K::NatType, 7), si(K::NatType, 2)), si(K::NatType, 3));
  EXPECT_EQ(scalarUnary(Prim::Neg, si(K::U8, 1)), si(K::U8, 255));
  EXPECT_EQ(scalarUnary(Prim::Neg, si(K::I64, INT64_MIN)), si(K::I64, INT64_MIN));
  try {
    bin(Prim::Div, si(K::U64, 1), si(K::U64, 0));
    ADD_FAILURE() << "expected E0401";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0401");
  }
  try {
    bin(Prim::Div, si(K::NatType, INT64_MIN), si(K::NatType, -1));
    ADD_FAILURE() << "expected E0402";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0402");
  }
}

TEST(InterpScalarOps, FloatPrecision) {
  // 0.1f + 0.2f computed in float, 0.1 + 0.2 in double.
  ScalarValue s = scalarBinary(Prim::Add, sf32(0.1), sf32(0.2), kNowhere);
  EXPECT_EQ(s.f, static_cast<double>(0.1f + 0.2f));
  ScalarValue d = scalarBinary(Prim::Add, sf64(0.1), sf64(0.2), kNowhere);
  EXPECT_EQ(d.f, 0.1 + 0.2);
  EXPECT_EQ(scalarUnary(Prim::Exp, sf32(1)).f, static_cast<double>(expf(1.0f)));
  EXPECT_EQ(scalarUnary(Prim::Sin, sf64(1)).f, std::sin(1.0));
  EXPECT_EQ(scalarBinary(Prim::Pow, sf32(2), sf32(0.5), kNowhere).f,
            static_cast<double>(powf(2.0f, 0.5f)));
}

TEST(InterpScalarOps, MinMaxAreTheCConditional) {
  // min(a, b) = a < b ? a : b: with a NaN operand the result is b.
  double nan = std::nan("");
  EXPECT_EQ(scalarBinary(Prim::Min, sf64(nan), sf64(1), kNowhere).f, 1.0);
  EXPECT_TRUE(std::isnan(scalarBinary(Prim::Min, sf64(1), sf64(nan), kNowhere).f));
  EXPECT_EQ(scalarBinary(Prim::Max, si(ScalarKind::U32, 5), si(ScalarKind::U32, 7), kNowhere),
            si(ScalarKind::U32, 7));
}
