// Unit tests of type inference and elaboration (rise/infer).
#include "rise/infer/Infer.h"
#include "rise/ast/Spine.h"
#include "rise/infer/EqualUnderPreconditions.h"
#include "rise/infer/Signatures.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace risec;
using namespace risec::rise;

namespace {

Program parse(const std::string& src) {
  return parseProgram(makeSourceFile("t.rise", src));
}

/// Infers the last def of `src`.
TypedDef infer(const std::string& src) {
  Program p = parse(src);
  return inferDef(p, p.defs.back().name);
}

/// The type of the body of the innermost `fun` of the last def, i.e. the type
/// of the program's result for the given parameter annotations.
std::string typeOf(const std::string& src) {
  return typeToString(infer(src).type);
}

/// Expects inference of `src` to fail with `code` at `line:col` and a message
/// containing `fragment`.
void expectError(const std::string& src, const std::string& code, int line, int col,
                 const std::string& fragment) {
  try {
    infer(src);
    FAIL() << "expected " << code << " for:\n" << src;
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), code) << e.message();
    EXPECT_EQ(e.location().line, line) << e.message();
    EXPECT_EQ(e.location().column, col) << e.message();
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
  }
}

std::vector<std::string> preconditions(const std::string& src) {
  std::vector<std::string> out;
  for (const Precondition& p : infer(src).preconditions)
    out.push_back(p.str());
  return out;
}

} // namespace

TEST(Signatures, EveryPrimitiveHasAWellFormedSignature) {
  for (Prim p : allPrims()) {
    const Type& t = signature(p);
    ASSERT_TRUE(t) << primName(p);
    // natValue(n) is a value of its type-level argument alone
    EXPECT_GE(valueArity(p), p == Prim::NatValue ? 0 : 1) << primName(p);
    EXPECT_FALSE(typeHasMeta(t)) << primName(p);
  }
  EXPECT_EQ(depArity(Prim::Map), 3);
  EXPECT_EQ(valueArity(Prim::Map), 2);
  EXPECT_EQ(depArity(Prim::Slide), 4);
  EXPECT_EQ(valueArity(Prim::ReduceSeq), 3);
}

TEST(Infer, SplitOfConstantSize) {
  EXPECT_EQ(typeOf("def f = fun(xs: 1024.f32 => xs |> split(32))"), "1024.f32 -> 32.32.f32");
}

TEST(Infer, SplitOfSymbolicSizeRecordsDivisibility) {
  const char* src = "def f = depFun(n: Nat => fun(xs: n.f32 => xs |> split(32)))";
  EXPECT_EQ(typeOf(src), "(n: Nat) -> n.f32 -> (n/32).32.f32");
  EXPECT_EQ(preconditions(src), std::vector<std::string>{"n%32 == 0"});
  // The precondition is charged to the `split` that needs it.
  EXPECT_EQ(infer(src).preconditions.at(0).loc.column, 49);
}

TEST(Infer, SplitOfProductNeedsNoPrecondition) {
  const char* src = "def f = depFun(n: Nat => fun(xs: (n*32).f32 => xs |> split(32)))";
  EXPECT_EQ(typeOf(src), "(n: Nat) -> (32*n).f32 -> n.32.f32");
  EXPECT_TRUE(preconditions(src).empty());
}

TEST(Infer, APreconditionOnlyAnEmptyResultViolatesIsMarked) {
  // split(n) needs n >= 1, and n = 0 empties the result: nothing to compute
  TypedDef empties = infer("def f = depFun(n: Nat => fun(xs: n.f32 => xs |> split(n) |> join))");
  ASSERT_EQ(empties.preconditions.size(), 1u);
  EXPECT_EQ(empties.preconditions[0].str(), "n >= 1");
  EXPECT_TRUE(empties.preconditions[0].onlyForNonEmptyResult);
  EXPECT_TRUE(refusingPreconditions(empties.preconditions).empty());
  // here the result keeps one element at n = 0: the call is refused
  TypedDef keeps = infer("def g = depFun(n: Nat => fun(xs: n.f32 =>\n"
                         "  xs |> split(n) |> map(reduce(add)(0.0f))))");
  ASSERT_EQ(keeps.preconditions.size(), 1u);
  EXPECT_EQ(keeps.preconditions[0].str(), "n >= 1");
  EXPECT_FALSE(keeps.preconditions[0].onlyForNonEmptyResult);
  EXPECT_EQ(refusingPreconditions(keeps.preconditions).size(), 1u);
}

TEST(Infer, ScalarCountOfDataTypes) {
  Nat n = natVar("n"), m = natVar("m");
  EXPECT_EQ(natToString(scalarCount(arrayType(n, arrayType(m, scalarType(ScalarKind::F32))))),
            "m*n");
  EXPECT_EQ(natToString(scalarCount(pairType(arrayType(n, scalarType(ScalarKind::F32)),
                                             vecType(scalarType(ScalarKind::F32), natConst(4))))),
            "n + 4");
}

TEST(Infer, SplitThenJoinRestoresTheSize) {
  EXPECT_EQ(typeOf("def f = depFun(n: Nat => fun(xs: (4*n).f32 => xs |> split(4) |> join))"),
            "(n: Nat) -> (4*n).f32 -> (4*n).f32");
}

TEST(Infer, MatrixVectorMultiplication) {
  const char* src = R"(
def mv = depFun((n: Nat, m: Nat) =>
  fun(M: n.m.f32 => fun(x: m.f32 =>
    M |> map(fun(row =>
      zip(row)(x) |> map(fun(ax => fst(ax) * snd(ax))) |> reduce(add)(0.0f))))))
)";
  EXPECT_EQ(typeOf(src), "(n: Nat) -> (m: Nat) -> n.m.f32 -> m.f32 -> n.f32");
}

TEST(Infer, EveryNodeIsTypedWithoutUnknowns) {
  TypedDef d = infer("def f = depFun(n: Nat => fun(xs: n.f32 => xs |> map(fun(x => x + 1.0f))))");
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    ASSERT_TRUE(e->type());
    EXPECT_FALSE(typeHasMeta(e->type())) << typeToString(e->type());
    switch (e->kind()) {
    case ExprKind::Lambda:
    case ExprKind::DepLambda:
      walk(e->body());
      break;
    case ExprKind::App:
      walk(e->fn());
      walk(e->arg());
      break;
    case ExprKind::DepApp:
      walk(e->fn());
      break;
    default:
      break;
    }
  };
  walk(d.expr);
}

TEST(Infer, ImplicitArgumentsBecomeDepApps) {
  TypedDef d = infer("def f = fun(xs: 8.f32 => xs |> split(2))");
  // body: App(DepApp(DepApp(DepApp(split, 2), 4 [implicit]), f32 [implicit]), xs)
  Expr app = d.expr->body();
  ASSERT_EQ(app->kind(), ExprKind::App);
  Expr t = app->fn();
  ASSERT_EQ(t->kind(), ExprKind::DepApp);
  EXPECT_TRUE(t->implicitArg());
  EXPECT_EQ(typeArgToString(t->typeArg()), "f32");
  Expr m = t->fn();
  ASSERT_EQ(m->kind(), ExprKind::DepApp);
  EXPECT_TRUE(m->implicitArg());
  EXPECT_EQ(typeArgToString(m->typeArg()), "4");
  Expr k = m->fn();
  ASSERT_EQ(k->kind(), ExprKind::DepApp);
  EXPECT_FALSE(k->implicitArg());
  EXPECT_EQ(typeArgToString(k->typeArg()), "2");
  EXPECT_EQ(k->fn()->kind(), ExprKind::Primitive);
}

TEST(Infer, SlideAndPad) {
  const char* src = "def f = depFun(n: Nat => fun(xs: n.f32 => xs |> padCst(1, 1, 0.0f) |> "
                    "slide(3, 1)))";
  EXPECT_EQ(typeOf(src), "(n: Nat) -> n.f32 -> n.3.f32");
  const char* raw = "def f = depFun(n: Nat => fun(xs: n.f32 => xs |> slide(3, 1)))";
  EXPECT_EQ(typeOf(raw), "(n: Nat) -> n.f32 -> (n - 2).3.f32");
  EXPECT_EQ(preconditions(raw), std::vector<std::string>{"n >= 3"});
}

// A `>=` condition that the lower bounds on the sizes imply is dropped: the
// last strip of slideStrips pads to whole strips, whose slide needs
// 4*((n + 3)/4) >= 4, which n >= 1 (padClamp's) implies; and of n >= 1 and
// n >= 3 only the stronger is kept.
TEST(Infer, ConditionsImpliedByLowerBoundsAreDropped) {
  auto pre = [](const std::string& body) {
    return preconditions("def f = depFun(n: Nat => fun(xs: n.f32 => " + body + "))");
  };
  EXPECT_EQ(pre("xs |> padClamp(1, 1) |> padClamp(0, 4*((n + 3)/4) - n) |> slide(6, 4)"),
            std::vector<std::string>{"n >= 1"});
  EXPECT_EQ(pre("xs |> padClamp(1, 1) |> slide(5, 1)"), std::vector<std::string>{"n >= 3"});
  // Not implied, but a condition on one size that never decreases in it:
  // stated as the bound it is.
  EXPECT_EQ(pre("xs |> padClamp(0, 4*((n + 3)/4) - n) |> slide(4, 4)"),
            std::vector<std::string>{"n >= 1"});
}

// A `>=` condition on one size that never decreases as the size grows
// (sums, floor divisions by constants, ...) is stated as the smallest size
// for which it holds; conditions on two sizes stay as they are.
TEST(Infer, MonotoneConditionsOnOneSizeBecomeBounds) {
  auto pre = [](const std::string& params, const std::string& body) {
    return preconditions("def f = depFun(" + params + " => fun(xs: " + body + "))");
  };
  EXPECT_EQ(pre("n: Nat", "n.f32 => xs |> padClamp(0, 8*((n + 7)/8) - n) |> split(8*((n + 7)/8))"),
            std::vector<std::string>{"n >= 1"});
  EXPECT_EQ(pre("n: Nat", "(2*n).f32 => xs |> slide(7, 1)"), std::vector<std::string>{"n >= 4"});
  EXPECT_EQ(pre("(n: Nat, m: Nat)", "(n + m).f32 => xs |> slide(5, 1)"),
            std::vector<std::string>{"m + n >= 5"});
}

// padClamp(l, r) repeats a border element, so it needs a non-empty input
// unless it pads nothing: n >= min(1, l + r). A padding to the next multiple
// of a tile size is 0 for an empty array, so it needs no precondition.
TEST(Infer, PadClampOfAnEmptyArrayByNothing) {
  auto pad = [](const std::string& body) {
    return "def f = depFun((n: Nat, m: Nat) => fun(xs: n.f32 => fun(ys: n.m.f32 => " + body + ")))";
  };
  EXPECT_EQ(preconditions(pad("xs |> padClamp(1, 1)")), std::vector<std::string>{"n >= 1"});
  EXPECT_EQ(preconditions(pad("xs |> padClamp(0, 1)")), std::vector<std::string>{"n >= 1"});
  EXPECT_TRUE(preconditions(pad("xs |> padClamp(0, 4*((n+3)/4) - n)")).empty());
  EXPECT_EQ(typeOf(pad("xs |> padClamp(0, 4*((n+3)/4) - n)")),
            "(n: Nat) -> (m: Nat) -> n.f32 -> n.m.f32 -> (4*((n + 3)/4)).f32");
  EXPECT_TRUE(preconditions(pad("xs |> padClamp(0, 0)")).empty());
  // Inside a map the padded size is the rows' length, m.
  EXPECT_TRUE(preconditions(pad("ys |> map(padClamp(0, 3*((m+2)/3) - m))")).empty());
  EXPECT_TRUE(
      preconditions(pad("ys |> padClamp(0, 4*((n+3)/4) - n) |> map(padClamp(0, 3*((m+2)/3) - m))"))
          .empty());
  // Padding by one more than that is at least one element, even for n = 0.
  EXPECT_EQ(preconditions(pad("xs |> padClamp(0, 4*((n+3)/4) - n + 1)")),
            std::vector<std::string>{"n >= 1"});
  // A symbolic padding that may be non-zero: the precondition stays.
  EXPECT_EQ(preconditions(pad("xs |> padClamp(0, m)")), std::vector<std::string>{"n >= min(1, m)"});
}

TEST(Infer, SlideWithStep) {
  EXPECT_EQ(typeOf("def f = fun(xs: 9.f32 => xs |> slide(3, 2))"), "9.f32 -> 4.3.f32");
  expectError("def f = fun(xs: 10.f32 => xs |> slide(3, 2))", "E0303", 1, 27, "multiple of 2");
}

TEST(Infer, TransposeJoinTakeDropConcat) {
  EXPECT_EQ(typeOf("def f = fun(m: 3.5.i32 => m |> transpose)"), "3.5.i32 -> 5.3.i32");
  EXPECT_EQ(typeOf("def f = fun(m: 3.5.i32 => m |> join)"), "3.5.i32 -> 15.i32");
  EXPECT_EQ(typeOf("def f = fun(x: 5.i32 => x |> take(2))"), "5.i32 -> 2.i32");
  EXPECT_EQ(typeOf("def f = fun(x: 5.i32 => x |> drop(2))"), "5.i32 -> 3.i32");
  EXPECT_EQ(typeOf("def f = fun(x: 5.i32, y: 2.i32 => concat(x)(y))"), "5.i32 -> 2.i32 -> 7.i32");
}

TEST(Infer, VectorsAndCasts) {
  EXPECT_EQ(typeOf("def f = fun(x: 16.f32 => x |> asVector(4))"), "16.f32 -> 4.vec[f32, 4]");
  EXPECT_EQ(typeOf("def f = fun(x: 16.f32 => x |> asVector(4) |> asScalar)"), "16.f32 -> 16.f32");
  EXPECT_EQ(typeOf("def f = fun(x: i32 => cast(f64)(x))"), "i32 -> f64");
  EXPECT_EQ(typeOf("def f = fun(x: 4.vec[f32, 4] => x |> map(fun(v => v + v)))"),
            "4.vec[f32, 4] -> 4.vec[f32, 4]");
}

TEST(Infer, MathFunctions) {
  EXPECT_EQ(typeOf("def f = fun(x: f32 => sqrt(x))"), "f32 -> f32");
  EXPECT_EQ(typeOf("def f = fun(y: f32, x: f32 => atan2(y, x))"), "f32 -> f32 -> f32");
  EXPECT_EQ(typeOf("def f = fun(p: 3.(f64, f64) => p |> map(fun(q => atan2(fst(q), snd(q)))))"),
            "3.(f64, f64) -> 3.f64");
  EXPECT_EQ(typeOf("def f = fun(v: vec[f32, 4] => atan2(v, v))"), "vec[f32, 4] -> vec[f32, 4]");
}

TEST(InferErrors, MathFunctionOnIntegers) {
  expectError("def f = fun(y: i32 => atan2(y, y))", "E0308", 1, 29,
              "the 1st argument of `atan2` has type `i32`, but it must be a floating-point type");
}

TEST(Infer, IterateTreeReduction) {
  const char* src = R"(
def sum = fun(xs: 8.f32 =>
  xs |> iterate(3)(depFun(l: Nat => fun(ys => ys |> split(2) |> map(reduce(add)(0.0f))))))
)";
  EXPECT_EQ(typeOf(src), "8.f32 -> 1.f32");
}

TEST(Infer, OclIterateTakesTheAddressSpaceFirst) {
  EXPECT_EQ(
      typeOf("def sum = fun(xs: 8.f32 => xs |> oclIterate(Local)(3)(depFun(l: Nat =>\n"
             "  fun(ys => ys |> split(2) |> mapLocal(0)(oclReduceSeq(Private)(add)(0.0f))))))"),
      "8.f32 -> 1.f32");
}

// The primitives added for the ports of Shine's apps (tests/shine/).
TEST(Infer, ShinePrimitives) {
  EXPECT_EQ(typeOf("def f = fun(x: 16.f32 => x |> asVectorAligned(4))"), "16.f32 -> 4.vec[f32, 4]");
  EXPECT_EQ(typeOf("def f = fun(x: 12.(f32, i32) => x |> reorderWithStride(4) |> split(3))"),
            "12.(f32, i32) -> 4.3.(f32, i32)");
  EXPECT_EQ(typeOf("def f = depFun(n: Nat => fun(x: n.f32 => natValue(n + 1)))"),
            "(n: Nat) -> n.f32 -> natType");
  EXPECT_EQ(typeOf("def f = fun(x: 8.f32 => x |> rotateValues(Private)(3)(fun(v => v))\n"
                   "  |> iterateStream(reduceSeq(add)(0.0f)))"),
            "8.f32 -> 6.f32");
  // the stride divides the length, like split's chunk size
  const char* src = "def f = depFun(n: Nat => fun(x: n.f32 => x |> reorderWithStride(128)))";
  EXPECT_EQ(preconditions(src), std::vector<std::string>{"n%128 == 0"});
  EXPECT_EQ(preconditions("def f = depFun((n: Nat, s: Nat) => fun(x: (s*n).f32 =>\n"
                          "  x |> reorderWithStride(s)))"),
            std::vector<std::string>{"s >= 1"});
  expectError("def f = fun(x: 6.f32 => x |> reorderWithStride(4))", "E0303", 1, 25,
              "6 is not a multiple of 4");
  expectError("def f = fun(x: 8.f32 => x |> reorderWithStride(0))", "E0313", 1, 30, "at least 1");
  expectError("def f = fun(x: 8.f32 => x |> asVectorAligned(0))", "E0313", 1, 30, "at least 1");
}

TEST(Infer, DefsAreInlinedAndPolymorphic) {
  const char* src = R"(
def dot = fun(a, b => zip(a)(b) |> map(fun(p => fst(p) * snd(p))) |> reduce(add)(0.0f))
def use = depFun((n: Nat, m: Nat) => fun(M: n.m.f32, x: m.f32, y: n.f32 =>
  makePair(M |> map(fun(r => dot(r, x))))(dot(y, y))))
)";
  EXPECT_EQ(typeOf(src), "(n: Nat) -> (m: Nat) -> n.m.f32 -> m.f32 -> n.f32 -> (n.f32, f32)");
}

TEST(Infer, UnannotatedDefsAreGeneralised) {
  EXPECT_EQ(typeOf("def sq = fun(x => x * x)"), "{x: Numeric} -> x -> x");
  EXPECT_EQ(typeOf("def sum = fun(xs => xs |> reduce(add)(0.0f))"), "{n: Nat} -> n.f32 -> f32");
}

TEST(Infer, ForeignFunctions) {
  EXPECT_EQ(typeOf("foreign sq(x: f32): f32 = \"return x * x;\"\n"
                   "def f = fun(xs: 4.f32 => xs |> map(sq))"),
            "4.f32 -> 4.f32");
}

TEST(Infer, LowLevelPrimitives) {
  EXPECT_EQ(typeOf("def f = fun(xs: 64.f32 => xs |> split(32) |> mapWorkGroup(0)(mapLocal(0)("
                   "fun(x => x * 2.0f))) |> join)"),
            "64.f32 -> 64.f32");
  EXPECT_EQ(typeOf("def f = fun(xs: 4.i32 => xs |> oclReduceSeq(Private)(fun(a, x => a + "
                   "cast(f32)(x)))(0.0f))"),
            "4.i32 -> f32");
  EXPECT_EQ(typeOf("def f = fun(xs: 4.f32 => xs |> toMem |> scanSeq(add)(0.0f))"),
            "4.f32 -> 4.f32");
  EXPECT_EQ(typeOf("def f = fun(xs: 4.f32 => xs |> scan(max)(0.0f))"), "4.f32 -> 4.f32");
}

TEST(InferErrors, UnknownIdentifierSuggestsAName) {
  expectError("def f = fun(xs: 4.f32 => xs |> mpa(fun(x => x)))", "E0201", 1, 32,
              "did you mean `map`?");
}

TEST(InferErrors, ZipOfMismatchedConcreteSizes) {
  expectError("def f = fun(a: 64.f32, b: 48.f32 => zip(a)(b))", "E0302", 1, 44,
              "size mismatch in the 2nd argument of `zip`: 64 vs 48");
}

TEST(InferErrors, ZipOfDifferentSymbolicSizes) {
  expectError("def f = depFun((n: Nat, m: Nat) => fun(a: n.f32, b: m.f32 => zip(a)(b)))", "E0304",
              1, 69, "not provably equal");
}

TEST(InferErrors, SplitOfNonDivisibleConstant) {
  expectError("def f = fun(xs: 1000.f32 => xs |> split(30))", "E0303", 1, 29,
              "1000 is not a multiple of 30");
}

TEST(InferErrors, ScalarTypeMismatch) {
  expectError("def f = fun(xs: 4.f32 => xs |> reduce(add)(0))", "E0301", 1, 26,
              "expected `4.i32`, found `4.f32` (i32 vs f32)");
}

TEST(InferErrors, OperatorOnBool) {
  expectError("def f = fun(b: bool => b + b)", "E0308", 1, 24, "numeric");
}

TEST(InferErrors, TakeMoreThanAvailable) {
  expectError("def f = fun(x: 3.f32 => x |> take(5))", "E0311", 1, 25, "smaller than");
}

TEST(InferErrors, BadOpenClDimension) {
  expectError("def f = fun(x: 3.f32 => x |> mapGlobal(3)(fun(y => y)))", "E0312", 1, 30,
              "dimension 0, 1 or 2");
}

TEST(InferErrors, ZeroChunkSize) {
  expectError("def f = fun(x: 3.f32 => x |> split(0))", "E0313", 1, 30, "at least 1");
}

TEST(InferErrors, MissingSizeArgument) {
  expectError("def f = fun(x: 4.f32 => x |> split(x))", "E0306", 1, 36, "kind Nat");
}

TEST(InferErrors, TooManyArguments) {
  expectError("def f = fun(x: f32 => x(1.0f))", "E0305", 1, 25, "not a function");
}

TEST(InferErrors, SizeUsedAsValue) {
  expectError("def f = depFun(n: Nat => fun(x: n.f32 => n))", "E0202", 1, 42, "not a value");
}

TEST(InferErrors, AmbiguousSize) {
  // The length of the generated array is not determined by anything.
  expectError("def f = fun(x: f32 => generate(fun(i => x)) |> reduce(add)(0.0f))", "E0309", 1, 23,
              "cannot infer");
  // A size that shows up in the def's type is generalised instead.
  EXPECT_EQ(typeOf("def f = generate(fun(i => 1.0f))"), "{n: Nat} -> n.f32");
}

TEST(InferErrors, LaterDefIsNotVisible) {
  expectError("def f = fun(x: f32 => g(x))\ndef g = fun(y: f32 => y)\ndef h = f", "E0201", 1, 23,
              "declared later");
}

TEST(Infer, DivisibilityPreconditionsAreUsedAsFacts) {
  // After split(4) of a k.f32 (precondition k%4 == 0), 4*(k/4) and k are the
  // same size: zipping the re-joined chunks with the original array is fine.
  const char* src = "def f = depFun(k: Nat => fun(xs: k.f32 =>\n"
                    "  zip(xs |> split(4) |> join)(xs)))";
  EXPECT_EQ(typeOf(src), "(k: Nat) -> k.f32 -> (4*(k/4)).(f32, f32)");
  EXPECT_EQ(preconditions(src), std::vector<std::string>{"k%4 == 0"});
  // Without the precondition the sizes stay different.
  expectError("def f = depFun(k: Nat => fun(xs: k.f32, ys: (4*(k/4)).f32 => zip(xs)(ys)))", "E0304",
              1, 70, "not provably equal");
}

TEST(Infer, VectorArithmeticBeforeTheElementTypeIsKnown) {
  // Inside the lambda the element type of `r` is still unknown when `v + v`
  // is checked; it is fixed later by the map over `x`.
  EXPECT_EQ(typeOf("def f = fun(x: 5.4.f32 => x |> map(fun(r => r |> asVector(2) |> "
                   "map(fun(v => v + v)) |> asScalar)))"),
            "5.4.f32 -> 5.4.f32");
  expectError("def f = fun(x: 4.bool => x |> asVector(2) |> map(fun(v => v + v)))", "E0308", 1, 31,
              "numeric");
}

TEST(Spine, TakesAnElaboratedApplicationApart) {
  TypedDef d = infer("def f = fun(xs: 8.f32 => xs |> split(2))");
  Spine all = collectSpine(d.expr->body(), true);
  ASSERT_EQ(all.head->kind(), ExprKind::Primitive);
  EXPECT_EQ(all.head->prim(), Prim::Split);
  ASSERT_EQ(all.depArgs.size(), 3u); // 2, then the inferred 4 and f32
  EXPECT_EQ(typeArgToString(all.depArgs[0]), "2");
  EXPECT_EQ(typeArgToString(all.depArgs[1]), "4");
  ASSERT_EQ(all.args.size(), 1u);
  EXPECT_EQ(all.args[0]->name(), "xs");
  EXPECT_FALSE(all.depAfterValue.known());
  Spine written = collectSpine(d.expr->body(), false);
  ASSERT_EQ(written.depArgs.size(), 1u);
  EXPECT_EQ(spineHead(d.expr->body()), all.head);
}

// ---- typeEqualUnder (rise/infer/EqualUnderPreconditions) --------------------

namespace {

/// The types of the last defs of `a` and `b`, and the preconditions of `a`'s.
bool equalUnder(const std::string& a, const std::string& b) {
  TypedDef da = infer(a);
  TypedDef db = infer(b);
  return typeEqualUnder(da.type, db.type, da.preconditions);
}

const char* kRows = "def f = depFun((m: Nat) => fun(x: m.f32 => x))";

} // namespace

TEST(TypeEqualUnder, SplitJoinIsTheSizeUnderItsDivisibility) {
  // 32*(m/32) is m where m%32 == 0 holds, which split(32) requires.
  EXPECT_TRUE(
      equalUnder("def f = depFun((m: Nat) => fun(x: m.f32 => x |> split(32) |> join))", kRows));
}

TEST(TypeEqualUnder, WithoutThePreconditionTheSizesDiffer) {
  TypedDef split = infer("def f = depFun((m: Nat) => fun(x: m.f32 => x |> split(32) |> join))");
  TypedDef rows = infer(kRows);
  EXPECT_FALSE(typeEqual(split.type, rows.type));
  EXPECT_FALSE(typeEqualUnder(split.type, rows.type, {}));
}

TEST(TypeEqualUnder, APreconditionDoesNotMakeOtherSizesEqual) {
  // m%32 == 0 says nothing that makes m/32 (or m - 1) equal to m.
  EXPECT_FALSE(equalUnder(
      "def f = depFun((m: Nat) => fun(x: m.f32 => x |> split(32) |> map(fun(r => r |> reduce(add, "
      "0.0f)))))",
      kRows));
  EXPECT_FALSE(equalUnder("def f = depFun((m: Nat) => fun(x: m.f32 => x |> split(32) |> join |> "
                          "drop(1)))",
                          kRows));
}

TEST(TypeEqualUnder, BoundVariablesAreRenamedAndSizesPaired) {
  // Two size parameters, the precondition on the second: n is rewritten,
  // m must stay m (a size may not move to the other parameter).
  const char* ab = "def f = depFun((m: Nat, n: Nat) => fun(x: m.n.f32 => x |> map(fun(r => r "
                   "|> split(4) |> join))))";
  EXPECT_TRUE(equalUnder(ab, "def g = depFun((a: Nat, b: Nat) => fun(x: a.b.f32 => x))"));
  EXPECT_FALSE(equalUnder(ab, "def g = depFun((a: Nat, b: Nat) => fun(x: b.a.f32 => x))"));
}

TEST(TypeEqualUnder, ShiftedDivisibilityIsSolved) {
  // slide(3, 2) over n needs (n - 3) % 2 == 0 and gives (n - 3)/2 + 1
  // windows; joined with the 2 new elements of each window after the first
  // that is 2*((n-3)/2) + 3 == n under the precondition.
  TypedDef s =
      infer("def f = depFun((n: Nat) => fun(x: n.f32 => x |> slide(3, 2) |> map(fun(w => w |> "
            "take(2))) |> join |> padCst(0, 1, 0.0f)))");
  TypedDef plain = infer("def g = depFun((n: Nat) => fun(x: n.f32 => x))");
  ASSERT_FALSE(typeEqual(s.type, plain.type)) << typeToString(s.type);
  EXPECT_TRUE(typeEqualUnder(s.type, plain.type, s.preconditions)) << typeToString(s.type);
}

// ---- sizes that follow a value argument (issue 17) --------------------------

namespace {

/// A def whose sizes come after a value parameter, as Shine writes its
/// Harris convolution (`fun(weights => depFun((h, w) => ...))`).
const char* kConvAfterValue = R"(
def conv = fun(s: f32 => depFun((h: Nat, w: Nat) => fun(x: h.w.f32 =>
  x |> slide(3, 1) |> map(fun(rows => rows |> transpose |> slide(3, 1)
    |> map(fun(win => (win |> join |> reduce(add, 0.0f)) * s)))))))
)";

/// Whether every size variable of every precondition of `d` is one of its
/// own size parameters (not the binder of a depFun inside it).
bool preconditionsOnOwnSizes(const TypedDef& d) {
  std::set<std::uint64_t> own;
  for (const DepBinder& b : sizeBinders(d))
    own.insert(b.id());
  bool ok = true;
  for (const Precondition& p : d.preconditions)
    for (const Nat& side : {p.lhs, p.rhs})
      natForEachVar(side, [&](const NatVarInfo& v) { ok = ok && own.count(v.id) == 1; });
  return ok;
}

} // namespace

TEST(Infer, SizesAfterAValueArgumentCarryTheirPreconditionsToTheCaller) {
  TypedDef d = infer(std::string(kConvAfterValue) +
                     "def f = depFun((h: Nat, w: Nat) => fun(x: h.w.f32 => conv(1.0f, h, w, x)))");
  EXPECT_EQ(typeToString(d.type), "(h: Nat) -> (w: Nat) -> h.w.f32 -> (h - 2).(w - 2).f32");
  EXPECT_EQ(d.preconditions.size(), 2u);
  EXPECT_TRUE(preconditionsOnOwnSizes(d));
  // partially applied first, as Shine's sobelX = conv3x3(weights)
  TypedDef partial = infer(std::string(kConvAfterValue) +
                           "def sobel = conv(2.0f)\n"
                           "def f = depFun((a: Nat, b: Nat) => fun(x: a.b.f32 => sobel(a, b, x)))");
  EXPECT_TRUE(preconditionsOnOwnSizes(partial));
  EXPECT_EQ(preconditions(std::string(kConvAfterValue) +
                          "def f = depFun((a: Nat, b: Nat) => fun(x: a.b.f32 => conv(1.0f, a, b, "
                          "x)))"),
            (std::vector<std::string>{"b >= 3", "a >= 3"}));
}

TEST(Infer, EachCallOfADefWithSizesAfterAValueGetsItsOwnPreconditions) {
  TypedDef d = infer(std::string(kConvAfterValue) +
                     "def f = depFun((h: Nat, w: Nat, v: Nat) => fun(x: h.w.f32 => fun(y: h.v.f32 "
                     "=> concat(conv(1.0f, h, w, x) |> transpose, conv(2.0f, h, v, y) |> "
                     "transpose))))");
  EXPECT_TRUE(preconditionsOnOwnSizes(d));
  std::vector<std::string> pre;
  for (const Precondition& p : d.preconditions)
    pre.push_back(p.str());
  EXPECT_NE(std::find(pre.begin(), pre.end(), "w >= 3"), pre.end());
  EXPECT_NE(std::find(pre.begin(), pre.end(), "v >= 3"), pre.end());
}
