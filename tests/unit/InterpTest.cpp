// Unit tests of the reference interpreter (rise/interp): every primitive on
// small inputs with hand-computed results, the scalar semantics of C, entry
// evaluation (sizes, preconditions, inputs), foreign functions, JSON I/O and
// random values. Programs are written as RISE text and go through the parser
// and type inference, like every later user of the interpreter.
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

using namespace risec;
using namespace risec::rise;
using namespace risec::rise::interp;

namespace {

/// Parses `src` and infers its last def.
TypedDef inferLast(const std::string& src) {
  Program p = parseProgram(makeSourceFile("t.rise", src));
  return inferDef(p, p.defs.back().name);
}

/// Runs the last def of `src` on JSON inputs and returns the result as JSON.
std::string run(const std::string& src, const std::vector<std::string>& inputs,
                const SizeEnv& sizes = {}) {
  TypedDef def = inferLast(src);
  return valueToJson(evaluate(def, sizes, parseInputs(def, sizes, inputs)));
}

/// Expects running `src` to fail with `code`, a message containing
/// `fragment`, and (if line > 0) the location line:col.
void expectRunError(const std::string& src, const std::vector<std::string>& inputs,
                    const SizeEnv& sizes, const std::string& code, const std::string& fragment,
                    int line = 0, int col = 0) {
  try {
    std::string result = run(src, inputs, sizes);
    ADD_FAILURE() << "expected " << code << ", got the result " << result;
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), code) << e.message();
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
    if (line > 0) {
      EXPECT_EQ(e.location().line, line) << headline(e);
      EXPECT_EQ(e.location().column, col) << headline(e);
    }
  }
}

/// `def f = fun(xs: TYPE => BODY)` run on one input.
std::string run1(const std::string& type, const std::string& body, const std::string& input) {
  return run("def f = fun(xs: " + type + " => " + body + ")", {input});
}

Value f32(double x) {
  return Value::scalar(ScalarValue::makeFloat(ScalarKind::F32, x));
}
Value i32(std::int64_t x) {
  return Value::scalar(ScalarValue::makeInt(ScalarKind::I32, x));
}

} // namespace

// ---- map and reduce -------------------------------------------------------------

TEST(InterpMap, AppliesTheFunctionToEveryElement) {
  EXPECT_EQ(run1("4.i32", "xs |> map(fun(x => x * 2))", "[1, 2, 3, 4]"), "[2, 4, 6, 8]");
}

TEST(InterpMap, LowLevelVariantsMeanMap) {
  for (std::string map :
       {"mapSeq", "mapSeqUnroll", "mapPar", "mapGlobal(0)", "mapWorkGroup(1)", "mapLocal(2)"})
    EXPECT_EQ(run1("3.i32", "xs |> " + map + "(fun(x => x + 10))", "[1, 2, 3]"), "[11, 12, 13]")
        << map;
}

TEST(InterpMap, NestedMapOverAMatrix) {
  EXPECT_EQ(run1("2.3.i32", "xs |> map(map(fun(x => x * x)))", "[[1, 2, 3], [4, 5, 6]]"),
            "[[1, 4, 9], [16, 25, 36]]");
}

TEST(InterpReduce, SumsFloats) {
  EXPECT_EQ(run1("4.f32", "xs |> reduce(add)(0.0f)", "[1, 2, 3, 4]"), "10.0");
}

TEST(InterpReduce, IsALeftFoldInIndexOrder) {
  // ((0 - 1) - 2) - 3
  EXPECT_EQ(run1("3.i32", "xs |> reduce(sub)(0)", "[1, 2, 3]"), "-6");
  EXPECT_EQ(run1("3.i32", "xs |> reducePar(sub)(0)", "[1, 2, 3]"), "-6");
}

TEST(InterpReduce, SequentialVariantsFoldWithAnAccumulatorOfAnotherType) {
  // acc = acc * 10 + x: the digits appear in index order.
  for (std::string r : {"reduceSeq", "reduceSeqUnroll", "oclReduceSeq(Private)"})
    EXPECT_EQ(run1("3.i32", "xs |> " + r + "(fun(acc, x => acc * 10 + x))(0)", "[1, 2, 3]"), "123")
        << r;
  EXPECT_EQ(run1("3.i32", "xs |> reduceSeq(fun(acc, x => acc + cast(f64)(x)))(0.5)", "[1, 2, 3]"),
            "6.5");
}

TEST(InterpReduce, EmptyArrayGivesTheInitialValue) {
  EXPECT_EQ(run1("0.f32", "xs |> reduce(add)(1.5f)", "[]"), "1.5");
}

TEST(InterpScan, IsInclusive) {
  EXPECT_EQ(run1("4.i32", "xs |> scanSeq(fun(acc, x => acc + x))(0)", "[1, 2, 3, 4]"),
            "[1, 3, 6, 10]");
  EXPECT_EQ(run1("3.i32", "xs |> scanSeq(fun(acc, x => acc * 10 + x))(5)", "[1, 2, 3]"),
            "[51, 512, 5123]");
}

TEST(InterpScan, HighLevelScanIsInclusive) {
  EXPECT_EQ(run1("4.i32", "xs |> scan(add)(0)", "[1, 2, 3, 4]"), "[1, 3, 6, 10]");
  EXPECT_EQ(run1("4.f32", "xs |> scan(max)(-3.4e38f)", "[2, -1, 5, 3]"), "[2.0, 2.0, 5.0, 5.0]");
  EXPECT_EQ(run1("0.f32", "xs |> scan(add)(0.0f)", "[]"), "[]");
}

TEST(InterpScan, ExclusiveScanIsTheInclusiveOneShiftedByInit) {
  // docs/language.md: out[0] = init, out[i] = init op x[0] op ... op x[i-1]
  EXPECT_EQ(run1("4.i32", "xs |> scan(add)(0) |> padCst(1, 0)(0) |> take(4)", "[1, 2, 3, 4]"),
            "[0, 1, 3, 6]");
  EXPECT_EQ(run1("1.i32", "xs |> scan(add)(0) |> padCst(1, 0)(0) |> take(1)", "[7]"), "[0]");
  EXPECT_EQ(run1("0.i32", "xs |> scan(add)(0) |> padCst(1, 0)(0) |> take(0)", "[]"), "[]");
}

// ---- zip, split, join, transpose -------------------------------------------------

TEST(InterpZip, PairsElements) {
  EXPECT_EQ(run("def f = fun(a: 3.i32 => fun(b: 3.f32 => zip(a)(b)))", {"[1, 2, 3]", "[4, 5, 6]"}),
            "[[1, 4.0], [2, 5.0], [3, 6.0]]");
}

TEST(InterpZip, UnzipSplitsPairs) {
  EXPECT_EQ(run1("3.(i32, bool)", "unzip(xs)", "[[1, true], [2, false], [3, true]]"),
            "[[1, 2, 3], [true, false, true]]");
}

TEST(InterpSplit, MakesChunksInOrder) {
  EXPECT_EQ(run1("6.i32", "xs |> split(2)", "[1, 2, 3, 4, 5, 6]"), "[[1, 2], [3, 4], [5, 6]]");
  EXPECT_EQ(run1("6.i32", "xs |> split(3)", "[1, 2, 3, 4, 5, 6]"), "[[1, 2, 3], [4, 5, 6]]");
}

TEST(InterpJoin, ConcatenatesRows) {
  EXPECT_EQ(run1("2.3.i32", "xs |> join", "[[1, 2, 3], [4, 5, 6]]"), "[1, 2, 3, 4, 5, 6]");
  EXPECT_EQ(run1("6.i32", "xs |> split(2) |> join", "[1, 2, 3, 4, 5, 6]"), "[1, 2, 3, 4, 5, 6]");
}

TEST(InterpTranspose, SwapsTheDimensions) {
  EXPECT_EQ(run1("2.3.i32", "xs |> transpose", "[[1, 2, 3], [4, 5, 6]]"),
            "[[1, 4], [2, 5], [3, 6]]");
}

TEST(InterpTranspose, EmptyOuterDimensionKeepsTheInnerSize) {
  EXPECT_EQ(run1("0.3.i32", "xs |> transpose", "[]"), "[[], [], []]");
}

// ---- slide and pad -------------------------------------------------------------

TEST(InterpSlide, OverlappingWindows) {
  EXPECT_EQ(run1("6.f32", "xs |> slide(3, 1)", "[1, 2, 3, 4, 5, 6]"),
            "[[1.0, 2.0, 3.0], [2.0, 3.0, 4.0], [3.0, 4.0, 5.0], [4.0, 5.0, 6.0]]");
}

TEST(InterpSlide, StepLargerThanOne) {
  EXPECT_EQ(run1("7.i32", "xs |> slide(3, 2)", "[1, 2, 3, 4, 5, 6, 7]"),
            "[[1, 2, 3], [3, 4, 5], [5, 6, 7]]");
  EXPECT_EQ(run1("6.i32", "xs |> slide(2, 2)", "[1, 2, 3, 4, 5, 6]"), "[[1, 2], [3, 4], [5, 6]]");
}

TEST(InterpPad, ConstantPadding) {
  EXPECT_EQ(run1("3.i32", "xs |> padCst(1, 2, 0)", "[1, 2, 3]"), "[0, 1, 2, 3, 0, 0]");
}

TEST(InterpPad, ClampRepeatsTheBorder) {
  EXPECT_EQ(run1("3.i32", "xs |> padClamp(2, 1)", "[1, 2, 3]"), "[1, 1, 1, 2, 3, 3]");
  EXPECT_EQ(run1("1.i32", "xs |> padClamp(1, 1)", "[7]"), "[7, 7, 7]");
}

TEST(InterpPad, ClampOfAnEmptyArrayIsAnError) {
  // Inference rejects a constant empty input and makes `n >= 1` a precondition
  // of a symbolic one; the interpreter checks again when run without it.
  std::string src = "def f = depFun(n: Nat => fun(xs: n.i32 => xs |> padClamp(1, 1)))";
  expectRunError(src, {"[]"}, {{"n", 0}}, "E0411", "n = 0");
  TypedDef def = inferLast(src);
  Value f = evalExpr(def.expr->body(), Env().bindNat(def.expr->binder().id(), 0));
  try {
    apply(f, Value::array({}));
    ADD_FAILURE() << "expected E0405";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0405");
    EXPECT_EQ(e.location().column, 49);
  }
}

// ---- generate, idx, take, drop, concat -----------------------------------------

TEST(InterpGenerate, CallsTheFunctionWithEveryIndex) {
  EXPECT_EQ(run1("3.i32",
                 "zip(xs)(generate(fun(i => cast(i32)(indexAsNat(i))))) |> "
                 "map(fun(p => fst(p) * 10 + snd(p)))",
                 "[1, 2, 3]"),
            "[10, 21, 32]");
}

TEST(InterpIdx, ReadsAnElement) {
  // Reverses the array: out[i] = xs[3 - i]. Nothing fixes the length of the
  // generated array, so it is a size parameter `n` of the def.
  std::string src = "def f = fun(xs: 4.i32 =>\n"
                    "  generate(fun(i => idx(natAsIndex(4)(3n - indexAsNat(i)))(xs))))";
  EXPECT_EQ(run(src, {"[1, 2, 3, 4]"}, {{"n", 4}}), "[4, 3, 2, 1]");
  EXPECT_EQ(run(src, {"[1, 2, 3, 4]"}, {{"n", 2}}), "[4, 3]");
}

TEST(InterpIdx, NatAsIndexOutOfRangeIsAnError) {
  expectRunError("def f = fun(xs: 4.i32 =>\n"
                 "  generate(fun(i => idx(natAsIndex(4)(indexAsNat(i) + 1n))(xs))))",
                 {"[1, 2, 3, 4]"}, {{"n", 4}}, "E0403", "4 is not an index in [0, 4)", 2, 25);
}

TEST(InterpTakeDrop, SplitAnArrayAtK) {
  EXPECT_EQ(run1("5.i32", "xs |> take(2)", "[1, 2, 3, 4, 5]"), "[1, 2]");
  EXPECT_EQ(run1("5.i32", "xs |> drop(2)", "[1, 2, 3, 4, 5]"), "[3, 4, 5]");
}

TEST(InterpConcat, AppendsArrays) {
  EXPECT_EQ(run("def f = fun(a: 2.i32 => fun(b: 3.i32 => concat(a)(b)))", {"[1, 2]", "[3, 4, 5]"}),
            "[1, 2, 3, 4, 5]");
}

// ---- pairs -----------------------------------------------------------------------

TEST(InterpPairs, Projections) {
  EXPECT_EQ(run1("(f32, i32)", "fst(xs)", "[1.5, 2]"), "1.5");
  EXPECT_EQ(run1("(f32, i32)", "snd(xs)", "[1.5, 2]"), "2");
}

TEST(InterpPairs, ConstructionAndMapping) {
  EXPECT_EQ(run1("(f32, i32)", "makePair(snd(xs))(fst(xs))", "[1.5, 2]"), "[2, 1.5]");
  EXPECT_EQ(run1("(f32, i32)", "(snd(xs), fst(xs))", "[1.5, 2]"), "[2, 1.5]");
  EXPECT_EQ(run1("(f32, i32)", "xs |> mapFst(fun(a => a * 2.0f))", "[1.5, 2]"), "[3.0, 2]");
  EXPECT_EQ(run1("(f32, i32)", "xs |> mapSnd(fun(b => b > 1))", "[1.5, 2]"), "[1.5, true]");
}

// ---- iterate, let, memory annotations ------------------------------------------

TEST(InterpIterate, TreeReductionWithAnnotatedBody) {
  EXPECT_EQ(run1("8.f32",
                 "xs |> iterate(2)(depFun(l: Nat => fun(ys: (2*l).f32 => ys |> split(2) |> "
                 "map(reduce(add)(0.0f)))))",
                 "[1, 2, 3, 4, 5, 6, 7, 8]"),
            "[10.0, 26.0]");
}

TEST(InterpIterate, TreeReduction) {
  // Two halving steps: 8 -> 4 -> 2 elements, each the sum of a pair.
  EXPECT_EQ(run1("8.f32",
                 "xs |> iterate(2)(depFun(l: Nat => fun(ys => ys |> split(2) |> "
                 "map(reduce(add)(0.0f)))))",
                 "[1, 2, 3, 4, 5, 6, 7, 8]"),
            "[10.0, 26.0]");
}

TEST(InterpIterate, OclIterateIsIterateWhateverTheAddressSpace) {
  // oclIterate(a) only tells the OpenCL back end where the buffers live
  for (const char* space : {"Local", "Global", "Private"})
    EXPECT_EQ(run1("8.f32",
                   std::string("xs |> oclIterate(") + space +
                       ")(2)(depFun(l: Nat => fun(ys => ys |> split(2) |> "
                       "mapSeq(oclReduceSeq(Private)(add)(0.0f)))))",
                   "[1, 2, 3, 4, 5, 6, 7, 8]"),
              "[10.0, 26.0]")
        << space;
}

TEST(InterpIterate, ZeroIterationsIsTheIdentity) {
  EXPECT_EQ(run1("3.i32",
                 "xs |> iterate(0)(depFun(l: Nat => fun(ys => ys |> split(2) |> "
                 "map(reduce(add)(0)))))",
                 "[1, 2, 3]"),
            "[1, 2, 3]");
}

TEST(InterpIterate, TheBodySeesTheOutputLength) {
  // Step with output length l: out[j] = (ys[2j] + ys[2j+1]) * 100 + l, where
  // l is computed as the length of generate(fun(i: idx[l] => 1)).
  // On ones: l = 4 gives 204, l = 2 gives 40802, l = 1 gives 8160401.
  EXPECT_EQ(run1("8.i32",
                 "xs |> iterate(3)(depFun(l: Nat => fun(ys: (2*l).i32 => ys |> split(2) |> "
                 "map(fun(p => reduce(add)(0)(p) * 100 + "
                 "(generate(fun(i: idx[l] => 1)) |> reduce(add)(0)))))))",
                 "[1, 1, 1, 1, 1, 1, 1, 1]"),
            "[8160401]");
}

TEST(InterpLet, AppliesTheFunctionToTheValue) {
  EXPECT_EQ(
      run1("3.i32", "let(xs |> reduce(add)(0))(fun(s => xs |> map(fun(x => x * s))))", "[1, 2, 3]"),
      "[6, 12, 18]");
}

TEST(InterpMemory, AnnotationsAreTheIdentity) {
  for (std::string m : {"toMem", "toGlobal", "toLocal", "toPrivate", "oclToMem(Local)"})
    EXPECT_EQ(run1("2.i32", "xs |> " + m, "[1, 2]"), "[1, 2]") << m;
}

// ---- vectors, casts, indices -----------------------------------------------------

TEST(InterpVectors, AsVectorAndAsScalarRoundTrip) {
  EXPECT_EQ(run1("8.f32", "xs |> asVector(4)", "[1, 2, 3, 4, 5, 6, 7, 8]"),
            "[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]");
  EXPECT_EQ(run1("8.f32", "xs |> asVector(4) |> asScalar", "[1, 2, 3, 4, 5, 6, 7, 8]"),
            "[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]");
}

TEST(InterpVectors, OperatorsApplyLaneByLane) {
  EXPECT_EQ(run1("4.i32",
                 "xs |> asVector(2) |> map(fun(v => v * v + vectorFromScalar(1))) |> "
                 "asScalar",
                 "[1, 2, 3, 4]"),
            "[2, 5, 10, 17]");
  EXPECT_EQ(run1("2.f32", "xs |> asVector(2) |> map(fun(v => sqrt(v))) |> asScalar", "[4, 9]"),
            "[2.0, 3.0]");
}

TEST(InterpCast, FollowsC) {
  EXPECT_EQ(run1("3.f32", "xs |> map(cast(i32))", "[-3.7, 2.9, 0.5]"), "[-3, 2, 0]");
  EXPECT_EQ(run1("2.i32", "xs |> map(cast(u8))", "[300, -1]"), "[44, 255]");
  EXPECT_EQ(run1("1.f64", "xs |> map(cast(f32))", "[0.1]"), "[0.1]");
  EXPECT_EQ(run1("1.f32", "xs |> map(cast(f64))", "[0.1]"), "[0.10000000149011612]");
  EXPECT_EQ(run1("2.i32", "xs |> map(cast(bool))", "[0, 5]"), "[false, true]");
}

// ---- scalar semantics ---------------------------------------------------------

TEST(InterpScalars, IntegerArithmeticWrapsAround) {
  EXPECT_EQ(run1("i32", "xs + 1", "2147483647"), "-2147483648");
  EXPECT_EQ(run1("i8", "xs + 1i8", "127"), "-128");
  EXPECT_EQ(run1("u8", "xs - 1u8", "0"), "255");
  EXPECT_EQ(run1("u32", "xs * 2u32", "4294967295"), "4294967294");
  EXPECT_EQ(run1("i64", "xs * 2i64", "9223372036854775807"), "-2");
  EXPECT_EQ(run1("i32", "-xs", "-2147483648"), "-2147483648");
}

TEST(InterpScalars, DivisionTruncatesTowardZeroLikeC) {
  EXPECT_EQ(run1("i32", "xs / 2", "-7"), "-3");
  EXPECT_EQ(run1("i32", "xs % 2", "-7"), "-1");
  EXPECT_EQ(run1("i32", "xs / -2", "7"), "-3");
  EXPECT_EQ(run1("i32", "xs % -2", "7"), "1");
  EXPECT_EQ(run1("u32", "xs / 2u32", "7"), "3");
  EXPECT_EQ(run1("i8", "xs / -1i8", "-128"), "-128"); // promoted to int in C, then wraps
}

TEST(InterpScalars, FloatModIsFmod) {
  EXPECT_EQ(run1("f32", "xs % 2.0f", "-7.5"), "-1.5");
  EXPECT_EQ(run1("f64", "xs % 2.5", "7.0"), "2.0");
}

TEST(InterpScalars, F32RoundsAfterEveryOperation) {
  // 2^24 + 1 is not a float: the sum rounds back to 2^24.
  EXPECT_EQ(run1("f32", "xs + 1.0f", "16777216"), "16777216.0");
  EXPECT_EQ(run1("f64", "xs + 1.0", "16777216"), "16777217.0");
  // (1 + 2^-24) - 1 is 0 in float (the sum rounds to 1) but 2^-24 in double.
  EXPECT_EQ(run1("f32", "(xs + 0.000000059604644775390625f) - xs", "1"), "0.0");
  EXPECT_EQ(run1("f32", "xs / 3.0f", "1"), "0.33333334");
}

TEST(InterpScalars, ComparisonsAndLogic) {
  EXPECT_EQ(run1("2.i32", "(fst((idx(natAsIndex(2)(0n))(xs), 0)) < idx(natAsIndex(2)(1n))(xs))",
                 "[1, 2]"),
            "true");
  std::string pair = "[3, 5]";
  std::string a = "fst(xs)", b = "snd(xs)";
  auto cmp = [&](const std::string& op) { return run1("(i32, i32)", a + op + b, pair); };
  EXPECT_EQ(cmp(" == "), "false");
  EXPECT_EQ(cmp(" != "), "true");
  EXPECT_EQ(cmp(" < "), "true");
  EXPECT_EQ(cmp(" <= "), "true");
  EXPECT_EQ(cmp(" > "), "false");
  EXPECT_EQ(cmp(" >= "), "false");
  EXPECT_EQ(run1("(bool, bool)", "fst(xs) && snd(xs)", "[true, false]"), "false");
  EXPECT_EQ(run1("(bool, bool)", "fst(xs) || snd(xs)", "[true, false]"), "true");
  EXPECT_EQ(run1("bool", "!xs", "true"), "false");
  EXPECT_EQ(run1("(u32, u32)", "fst(xs) < snd(xs)", "[4294967295, 1]"), "false");
}

TEST(InterpScalars, NaNComparesUnordered) {
  EXPECT_EQ(run1("f32", "xs == xs", "NaN"), "false");
  EXPECT_EQ(run1("f32", "xs != xs", "NaN"), "true");
  EXPECT_EQ(run1("f32", "xs < 1.0f", "NaN"), "false");
}

TEST(InterpScalars, MinMaxSelectNeg) {
  EXPECT_EQ(run1("(i32, i32)", "min(fst(xs))(snd(xs))", "[3, -5]"), "-5");
  EXPECT_EQ(run1("(i32, i32)", "max(fst(xs), snd(xs))", "[3, -5]"), "3");
  EXPECT_EQ(run1("(f32, f32)", "min(fst(xs), snd(xs))", "[1.5, 2.5]"), "1.5");
  EXPECT_EQ(run1("i32", "select(xs > 0, xs, -xs)", "-4"), "4");
  EXPECT_EQ(run1("2.i32", "select(true, xs, xs |> map(neg))", "[1, 2]"), "[1, 2]");
  EXPECT_EQ(run1("2.i32", "select(false, xs, xs |> map(neg))", "[1, 2]"), "[-1, -2]");
}

TEST(InterpScalars, MathFunctionsInOperandPrecision) {
  EXPECT_EQ(run1("f32", "sqrt(xs)", "2"), "1.4142135");
  EXPECT_EQ(run1("f64", "sqrt(xs)", "2"), "1.4142135623730951");
  EXPECT_EQ(run1("f64", "exp(xs)", "1"), "2.718281828459045");
  EXPECT_EQ(run1("f32", "exp(xs)", "1"), "2.7182817");
  EXPECT_EQ(run1("f64", "log(xs)", "1"), "0.0");
  EXPECT_EQ(run1("f64", "pow(xs, 3.0)", "2"), "8.0");
  EXPECT_EQ(run1("f32", "fabs(xs)", "-2.5"), "2.5");
  EXPECT_EQ(run1("f32", "floor(xs)", "-2.5"), "-3.0");
  EXPECT_EQ(run1("f64", "sin(xs)", "0"), "0.0");
  EXPECT_EQ(run1("f64", "cos(xs)", "0"), "1.0");
  EXPECT_EQ(run1("f64", "tanh(xs)", "0"), "0.0");
  // atan2(y, x): the angle of the point (x, y), atan2f for f32
  EXPECT_EQ(run1("(f64, f64)", "atan2(fst(xs), snd(xs))", "[1, 1]"), "0.7853981633974483");
  EXPECT_EQ(run1("(f32, f32)", "atan2(fst(xs), snd(xs))", "[1, -1]"), "2.3561945");
  EXPECT_EQ(run1("(f64, f64)", "atan2(fst(xs), snd(xs))", "[-0.0, -1]"), "-3.141592653589793");
}

TEST(InterpScalars, IntegerDivisionByZeroIsAnErrorAtTheOperator) {
  expectRunError("def f = fun(xs: 2.i32 =>\n  xs |> map(fun(x => 10 / x)))", {"[1, 0]"}, {},
                 "E0401", "integer division by zero in `div`", 2, 25);
  expectRunError("def f = fun(xs: i32 => mod(7)(xs))", {"0"}, {}, "E0401", "`mod`");
}

TEST(InterpScalars, IntMinDividedByMinusOneIsAnError) {
  expectRunError("def f = fun(xs: i32 => xs / -1)", {"-2147483648"}, {}, "E0402",
                 "not representable in i32");
  expectRunError("def f = fun(xs: i64 => xs % -1i64)", {"-9223372036854775808"}, {}, "E0402",
                 "`mod`");
}

TEST(InterpScalars, FloatDivisionByZeroIsIEEE) {
  EXPECT_EQ(run1("f32", "xs / 0.0f", "1"), "Infinity");
  EXPECT_EQ(run1("f32", "xs / 0.0f", "-1"), "-Infinity");
}

// ---- primitives of Shine's apps (tests/shine/) ---------------------------------

TEST(InterpShine, ReorderWithStrideReadsChunksWithTheStride) {
  // out[i] = xs[i/m + s*(i%m)] with m = n/s: chunk a of m holds xs[a], xs[a+s], ...
  EXPECT_EQ(run1("6.i32", "xs |> reorderWithStride(2)", "[0, 1, 2, 3, 4, 5]"),
            "[0, 2, 4, 1, 3, 5]");
  EXPECT_EQ(run1("6.i32", "xs |> reorderWithStride(3) |> split(2)", "[0, 1, 2, 3, 4, 5]"),
            "[[0, 3], [1, 4], [2, 5]]");
  // a stride of 1 or of the whole length is the identity
  for (const char* s : {"1", "6"})
    EXPECT_EQ(
        run1("6.i32", std::string("xs |> reorderWithStride(") + s + ")", "[0, 1, 2, 3, 4, 5]"),
        "[0, 1, 2, 3, 4, 5]")
        << s;
  // it is transpose(split(m)) joined
  EXPECT_EQ(run1("8.i32", "xs |> reorderWithStride(4)", "[0, 1, 2, 3, 4, 5, 6, 7]"),
            run1("8.i32", "xs |> split(4) |> transpose |> join", "[0, 1, 2, 3, 4, 5, 6, 7]"));
}

TEST(InterpShine, ReorderWithStrideChecksItsPrecondition) {
  expectRunError("def f = depFun(n: Nat => fun(xs: n.i32 => xs |> reorderWithStride(4)))",
                 {"[1, 2, 3, 4, 5, 6]"}, {{"n", 6}}, "E0411", "n%4 == 0");
}

TEST(InterpShine, AsVectorAlignedIsAsVector) {
  EXPECT_EQ(run1("8.f32", "xs |> asVectorAligned(4)", "[1, 2, 3, 4, 5, 6, 7, 8]"),
            "[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]");
  EXPECT_EQ(run1("4.f32", "xs |> asVectorAligned(2) |> map(fun(v => fabs(v))) |> asScalar",
                 "[-1, 2, -3, 4]"),
            "[1.0, 2.0, 3.0, 4.0]");
}

TEST(InterpShine, NatValueIsTheSize) {
  EXPECT_EQ(run("def f = depFun(n: Nat => fun(xs: n.i32 => natValue(2*n + 1)))", {"[7, 7, 7]"},
                {{"n", 3}}),
            "7");
  // the distance of every index to the end, as in Shine's `l(n)`
  EXPECT_EQ(run("def f = depFun(n: Nat => fun(xs: n.i32 => generate(fun(i: idx[n] =>\n"
                "  cast(i32)(natValue(n)) - cast(i32)(indexAsNat(i))))))",
                {"[0, 0, 0, 0]"}, {{"n", 4}}),
            "[4, 3, 2, 1]");
}

TEST(InterpShine, IterateStreamIsMap) {
  EXPECT_EQ(run1("5.i32",
                 "xs |> rotateValues(Private)(3)(fun(x => x)) |> "
                 "iterateStream(reduceSeq(add)(0))",
                 "[1, 2, 3, 4, 5]"),
            "[6, 9, 12]");
}

// ---- stretch primitives --------------------------------------------------------

TEST(InterpStretch, CircularBufferAndRotateValuesAreSlideOfMap) {
  EXPECT_EQ(
      run1("5.i32", "xs |> circularBuffer(Global)(3)(3)(fun(x => x * 10))", "[1, 2, 3, 4, 5]"),
      "[[10, 20, 30], [20, 30, 40], [30, 40, 50]]");
  EXPECT_EQ(run1("4.i32", "xs |> rotateValues(Private)(2)(fun(x => x + 1))", "[1, 2, 3, 4]"),
            "[[2, 3], [3, 4], [4, 5]]");
}

// ---- foreign functions ---------------------------------------------------------

TEST(InterpForeign, RunsTheCBody) {
  EXPECT_EQ(run("foreign mul2(a: f32, b: f32): f32 = \"return a * b;\"\n"
                "def f = fun(xs: 3.f32 => xs |> map(fun(x => mul2(x, 2.5f))))",
                {"[1, 2, 3]"}),
            "[2.5, 5.0, 7.5]");
}

TEST(InterpForeign, IntegerAndMathBodies) {
  EXPECT_EQ(run("foreign clampi(x: i32, lo: i32, hi: i32): i32 =\n"
                "  \"return x < lo ? lo : x > hi ? hi : x;\"\n"
                "def f = fun(xs: 4.i32 => xs |> map(fun(x => clampi(x, 0, 10))))",
                {"[-5, 3, 10, 99]"}),
            "[0, 3, 10, 10]");
  EXPECT_EQ(run("foreign hyp(a: f64, b: f64): f64 = \"return sqrt(a * a + b * b);\"\n"
                "def f = fun(p: (f64, f64) => hyp(fst(p), snd(p)))",
                {"[3, 4]"}),
            "5.0");
  EXPECT_EQ(run("foreign isPos(a: i8): bool = \"return a > 0;\"\n"
                "def f = fun(xs: 2.i8 => xs |> map(isPos))",
                {"[-1, 1]"}),
            "[false, true]");
}

TEST(InterpForeign, ACompileErrorIsReportedAtTheDeclaration) {
  expectRunError("def g = fun(x: f32 => x)\n"
                 "foreign bad(a: f32): f32 = \"return a * undefinedName;\"\n"
                 "def f = fun(xs: f32 => bad(xs))",
                 {"1"}, {}, "E0420", "undefinedName", 2, 9);
}

TEST(InterpForeign, PairsAreStructsWithFstAndSnd) {
  // a pair parameter is modified and returned; a nested pair of i32 inside
  EXPECT_EQ(
      run("foreign step(x: f32, acc: (f32, (i32, i32))): (f32, (i32, i32)) = \"\n"
          "  if (x < acc.fst) { acc.fst = x; acc.snd.snd = acc.snd.fst; }\n"
          "  acc.snd.fst = acc.snd.fst + 1;\n"
          "  return acc;\"\n"
          "def f = fun(xs: 4.f32 => xs |> reduceSeq(fun(a, x => step(x, a)))((9.0f, (0, -1))))",
          {"[3, -1, 2, -1]"}),
      "[-1.0, [4, 1]]");
  // a pair result built from scalars, by the struct's name
  EXPECT_EQ(run("foreign divmod(a: i32, b: i32): (i32, i32) = \"\n"
                "  struct pair_i32_i32 r = { a / b, a % b };\n"
                "  return r;\"\n"
                "def f = fun(x: i32 => divmod(x, 7))",
                {"23"}),
            "[3, 2]");
}

TEST(InterpForeign, VectorsAreGccVectorTypes) {
  EXPECT_EQ(run("foreign axpy(a: f32, x: vec[f32, 4], y: vec[f32, 4]): vec[f32, 4] =\n"
                "  \"return a * x + y;\"\n"
                "def f = fun(x: vec[f32, 4], y: vec[f32, 4] => axpy(2.0f, x, y))",
                {"[1, 2, 3, 4]", "[10, 20, 30, 40]"}),
            "[12.0, 24.0, 36.0, 48.0]");
  // lanes by subscript; i16 lanes; the type named risec_i16x8
  EXPECT_EQ(run("foreign rev(v: vec[i16, 8]): vec[i16, 8] = \"\n"
                "  risec_i16x8 r;\n"
                "  for (int i = 0; i < 8; ++i) r[i] = v[7 - i];\n"
                "  return r;\"\n"
                "def f = fun(v: vec[i16, 8] => rev(v))",
                {"[1, 2, 3, 4, 5, 6, 7, -8]"}),
            "[-8, 7, 6, 5, 4, 3, 2, 1]");
}

TEST(InterpForeign, PairsOfVectors) {
  EXPECT_EQ(run("foreign sumDiff(x: vec[f32, 2], y: (f32, vec[f32, 2])):\n"
                "    (vec[f32, 2], (f32, vec[f32, 2])) = \"\n"
                "  struct pair_f32x2_pair_f32_f32x2 r = { x + y.snd, { y.fst, x - y.snd } };\n"
                "  return r;\"\n"
                "def f = fun(x: vec[f32, 2], y: (f32, vec[f32, 2]) => sumDiff(x, y))",
                {"[1, 2]", "[7, [0.5, 0.25]]"}),
            "[[1.5, 2.25], [7.0, [0.5, 1.75]]]");
}

TEST(InterpForeign, AnUnsupportedTypeIsReportedAtTheDeclaration) {
  expectRunError("def g = fun(x: f32 => x)\n"
                 "foreign total(xs: 3.f32): f32 = \"return 0.0f;\"\n"
                 "def f = fun(xs: 3.f32 => total(xs))",
                 {"[1, 2, 3]"}, {}, "E0422", "parameter `xs` has the type `3.f32`", 2, 9);
  expectRunError("foreign widen(v: vec[f32, 3]): f32 = \"return v[0];\"\n"
                 "def f = fun(v: vec[f32, 3] => widen(v))",
                 {"[1, 2, 3]"}, {}, "E0422", "`vec[f32, 3]`", 1, 9);
}

// ---- entries: sizes, preconditions, inputs ------------------------------------------

TEST(InterpEntry, BindsSizesByName) {
  std::string src = "def f = depFun(n: Nat => fun(xs: n.f32 => xs |> map(fun(x => x + 1.0f))))";
  EXPECT_EQ(run(src, {"[1, 2, 3, 4, 5]"}, {{"n", 5}}), "[2.0, 3.0, 4.0, 5.0, 6.0]");
  TypedDef def = inferLast(src);
  EXPECT_EQ(sizeParameters(def), std::vector<std::string>{"n"});
  EntryInterface e = instantiateEntry(def, {{"n", 5}});
  ASSERT_EQ(e.inputTypes.size(), 1u);
  EXPECT_EQ(e.inputNames[0], "xs");
  EXPECT_EQ(typeToString(e.inputTypes[0]), "5.f32");
  EXPECT_EQ(typeToString(e.outputType), "5.f32");
}

TEST(InterpEntry, SizesReachPrimitivesInsideTheBody) {
  std::string src = "def mv = depFun((n: Nat, m: Nat) =>\n"
                    "  fun(M: n.m.f32 => fun(x: m.f32 =>\n"
                    "    M |> map(fun(row =>\n"
                    "      zip(row)(x) |> map(fun(ax => fst(ax) * snd(ax))) |> "
                    "reduce(add)(0.0f))))))";
  EXPECT_EQ(run(src, {"[[1, 2, 3], [4, 5, 6]]", "[1, 0, -1]"}, {{"n", 2}, {"m", 3}}),
            "[-2.0, -2.0]");
}

TEST(InterpEntry, MissingAndUnknownSizesAreErrors) {
  std::string src = "def f = depFun(n: Nat => fun(xs: n.f32 => xs))";
  expectRunError(src, {"[1]"}, {}, "E0410", "missing size `n`");
  expectRunError(src, {"[1]"}, {{"n", 1}, {"k", 2}}, "E0410", "unknown size `k`");
  expectRunError(src, {"[1]"}, {{"n", -1}}, "E0410", "negative");
}

TEST(InterpEntry, ViolatedPreconditionIsReported) {
  std::string src = "def f = depFun(n: Nat => fun(xs: n.f32 =>\n"
                    "  xs |> split(32) |> map(reduce(add)(0.0f))))";
  TypedDef def = inferLast(src);
  ASSERT_FALSE(def.preconditions.empty());
  try {
    evaluate(def, {{"n", 40}}, {});
    ADD_FAILURE() << "expected E0411";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0411");
    EXPECT_NE(e.message().find("`" + def.preconditions[0].str() + "`"), std::string::npos)
        << e.message();
    EXPECT_NE(e.message().find("n = 40"), std::string::npos) << e.message();
  }
  std::string input = "[";
  for (int i = 0; i < 64; ++i)
    input += (i ? ", " : "") + std::string("1");
  input += "]";
  EXPECT_EQ(run(src, {input}, {{"n", 64}}), "[32.0, 32.0]");
}

TEST(InterpEntry, AnEmptyResultNeedsNoPreconditionThatOnlyItViolates) {
  // split(n) needs n >= 1 only where the result is not empty
  std::string src = "def f = depFun((m: Nat, n: Nat) => fun(xs: m.n.f32 =>\n"
                    "  xs |> map(fun(r => r |> split(n) |> join))))";
  EXPECT_EQ(run(src, {"[[], [], []]"}, {{"m", 3}, {"n", 0}}), "[[], [], []]");
  EXPECT_EQ(run(src, {"[[1, 2]]"}, {{"m", 1}, {"n", 2}}), "[[1.0, 2.0]]");
  // a result that keeps an element at n = 0 still refuses it
  expectRunError("def g = depFun(n: Nat => fun(xs: n.f32 => xs |> split(n) |> "
                 "map(reduce(add)(0.0f))))",
                 {"[]"}, {{"n", 0}}, "E0411", "n >= 1");
}

TEST(InterpEntry, WrongInputCountIsAnError) {
  expectRunError("def f = fun(a: i32 => fun(b: i32 => a + b))", {"1"}, {}, "E0412",
                 "takes 2 inputs, got 1");
}

TEST(InterpEntry, InputOfTheWrongShapeIsAnError) {
  std::string src = "def f = fun(a: i32 => fun(x: 3.f32 => x))";
  expectRunError(src, {"1", "[1, 2]"}, {}, "E0413",
                 "input 2 (`x`): expected an array of 3 elements, found 2", 1, 23);
  TypedDef def = inferLast(src);
  try {
    evaluate(def, {}, {i32(1), Value::array({f32(1), f32(2), i32(3)})});
    ADD_FAILURE() << "expected E0413";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0413");
    EXPECT_EQ(e.message(), "input 2 (`x`) at [2]: expected an f32 value, found an i32 scalar");
  }
}

TEST(InterpEntry, EvaluateTakesValues) {
  TypedDef def = inferLast("def f = fun(a: f32 => fun(b: f32 => a * b))");
  EXPECT_EQ(evaluate(def, {}, {f32(1.5), f32(4)}), f32(6));
}

TEST(InterpEntry, EvalExprOnAClosedExpression) {
  Program p = parseProgram(makeSourceFile("t.rise", "def f = add(2)(3)"));
  TypedDef def = inferDef(p, "f");
  EXPECT_EQ(evalExpr(def.expr), i32(5));
}

TEST(InterpEntry, DataTypeParametersCannotBeRun) {
  expectRunError("def f = depFun(t: Data => fun(x: t => x))", {"1"}, {}, "E0415",
                 "the Data parameter `t`");
}

TEST(InterpEntry, JsonInputErrorsPointAtTheParameter) {
  expectRunError("def f = fun(a: i32 =>\n  fun(x: 2.f32 => x))", {"1", "[1, 2"}, {}, "E0414",
                 "input 2 (`x`): invalid JSON at line 1, column 6", 2, 3);
  expectRunError("def f = fun(a: i32 => a)", {"1", "2"}, {}, "E0412", "takes 1 input, got 2");
}

// ---- hand-built ASTs: checks that typed programs never reach ---------------------

namespace {

/// fun(xs => split(k){m}{i32}(xs)), with the sizes given directly.
Expr splitLambda(Nat k, Nat m) {
  SourceLocation loc;
  Expr split = makePrimitive(Prim::Split, loc);
  Expr e = makeDepApp(split, k, false, loc);
  e = makeDepApp(e, m, true, loc);
  e = makeDepApp(e, scalarType(ScalarKind::I32), true, loc);
  return makeLambda("xs", nullptr, makeApp(e, makeVar("xs", loc), loc), loc);
}

Value ints(std::initializer_list<std::int64_t> xs) {
  std::vector<Value> v;
  for (std::int64_t x : xs)
    v.push_back(i32(x));
  return Value::array(v);
}

} // namespace

TEST(InterpChecks, HandBuiltSplitWorks) {
  Value f = evalExpr(splitLambda(natConst(2), natConst(3)));
  EXPECT_EQ(valueToJson(apply(f, ints({1, 2, 3, 4, 5, 6}))), "[[1, 2], [3, 4], [5, 6]]");
}

TEST(InterpChecks, LengthsContradictingTheSizeArgumentsAreErrors) {
  Value f = evalExpr(splitLambda(natConst(2), natConst(5)));
  try {
    apply(f, ints({1, 2, 3, 4, 5, 6}));
    ADD_FAILURE() << "expected E0404";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0404");
    EXPECT_EQ(e.message(), "`split` expects its input to have 10 elements, found 6");
  }
}

TEST(InterpChecks, UnboundSizeVariablesAreErrors) {
  Nat k = natVar("k");
  Value f = evalExpr(splitLambda(k, natConst(3)));
  try {
    apply(f, ints({1, 2, 3, 4, 5, 6}));
    ADD_FAILURE() << "expected E0406";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0406");
    EXPECT_NE(e.message().find("cannot evaluate the size `k` of `split`"), std::string::npos)
        << e.message();
  }
  // Bound in the environment, the same expression runs.
  Value g = evalExpr(splitLambda(k, natConst(3)), Env().bindNat(k->var().id, 2));
  EXPECT_EQ(valueToJson(apply(g, ints({1, 2, 3, 4, 5, 6}))), "[[1, 2], [3, 4], [5, 6]]");
}

TEST(InterpChecks, PartialApplicationsOfPrimitivesAreValues) {
  // reduce(add)(0) passed around as a function value: applied one argument at
  // a time rather than through the saturated shortcut.
  EXPECT_EQ(run1("2.3.i32", "xs |> map(reduce(add)(0))", "[[1, 2, 3], [4, 5, 6]]"), "[6, 15]");
  EXPECT_EQ(run1("2.3.i32", "fun(r => xs |> map(r))(reduce(mul)(1))", "[[1, 2, 3], [4, 5, 6]]"),
            "[6, 120]");
}

TEST(InterpEntry, InputsFromOneJsonList) {
  TypedDef def =
      inferLast("def f = fun(a: 2.i32 => fun(b: f32 => a |> map(fun(x => cast(f32)(x) * b))))");
  std::vector<Value> in = parseInputList(def, {}, " [[1, 2], 0.5] ", "--inputs");
  EXPECT_EQ(valueToJson(evaluate(def, {}, in)), "[0.5, 1.0]");
  auto expectError = [&](const std::string& text, const std::string& code, const std::string& msg) {
    try {
      parseInputList(def, {}, text, "--inputs");
      ADD_FAILURE() << "expected " << code;
    } catch (const CompileError& e) {
      EXPECT_EQ(e.code(), code);
      EXPECT_EQ(e.message(), msg);
    }
  };
  expectError("[[1, 2]]", "E0412", "`f` takes 2 inputs, got 1");
  expectError("[[1, 2], true]", "E0413", "input 2 (`b`): expected an f32 value, found true");
  expectError("[[1, 2], 1", "E0414",
              "--inputs: invalid JSON at line 1, column 11: expected `,` or `]`");
  expectError("1", "E0414",
              "--inputs must be a JSON list with one element per input, e.g. [[1, 2], 2.0]");
}
