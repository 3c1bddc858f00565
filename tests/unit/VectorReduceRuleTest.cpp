// vectorReduce and vectorReduceChunks beyond RuleTest's generic cases: the
// BLAS reductions they were written for (dot's zip, asum's fabs, gemv's dot
// product per row), the rewritten program's type, its meaning on random inputs
// at sizes below, at and around the block and chunk sizes (0, 1, 7, 63, 64,
// 65, ..., 4099), vectorReduceRows on mv and gemv, and where the rules do not
// apply.
#include "ElevateTestUtil.h"

using namespace risec;
using namespace risec::testutil;

namespace {

const char* kDot = "def dot = depFun(n: Nat => fun(a: n.f32, b: n.f32 =>\n"
                   "  zip(a, b) |> map(fun(p => fst(p) * snd(p))) |> reduce(add)(0.0f)))\n";
const char* kAsum = "def asum = depFun(n: Nat => fun(xs: n.f32 =>\n"
                    "  xs |> map(fabs) |> reduce(add)(0.0f)))\n";
const char* kProduct = "def prod = depFun(n: Nat => fun(xs: n.f32 =>\n"
                       "  xs |> map(fun(x => 1.0f + x * 0.01f)) |> reduce(mul)(1.0f)))\n";
const char* kGemv =
    "def dot = fun(a, b => zip(a, b) |> map(fun(p => fst(p) * snd(p))) |> reduce(add)(0.0f))\n"
    "def gemv = depFun((n: Nat, m: Nat) =>\n"
    "  fun(alpha: f32, A: n.m.f32, x: m.f32, beta: f32, y: n.f32 =>\n"
    "    zip(A, y) |> map(fun(ry => alpha * dot(fst(ry), x) + beta * snd(ry)))))\n";

const char* kMv = "def mv = depFun((n: Nat, m: Nat) => fun(M: n.m.f32, x: m.f32 =>\n"
                  "  M |> map(fun(row => zip(row)(x) |> map(fun(ax => fst(ax) * snd(ax)))\n"
                  "                     |> reduce(add)(0.0f)))))\n";

const char* kRows = "BENF ;\n"
                    "vectorReduceRows(4, 16, 4) @ outermost(isMap) ;\n"
                    "vectorReduce(16, 4) @ outermost(isReduce)";

const char* kSequential = "vectorReduce(16, 4) @ outermost(isReduce)";
const char* kChunked = "vectorReduceChunks(16, 4, 4) @ outermost(isReduce) ;\n"
                       "vectorReduce(16, 4) @ outermost(isReduce) ;\n"
                       "parallel @ outermost(isMap)";

const std::int64_t kSizes[] = {0, 1, 7, 63, 64, 65, 255, 256, 257, 1000, 4099};

std::string typeOf(const rise::TypedDef& d) {
  return rise::typeToString(d.expr->type());
}

void expectSameMeaning(const char* program, const char* strat, const char* sizeName) {
  Typed in = typed(program);
  rise::TypedDef out = rewrite(in, strat);
  EXPECT_EQ(typeOf(out), typeOf(in.def)) << printed(out);
  std::uint64_t seed = 0;
  for (std::int64_t n : kSizes) {
    rise::interp::SizeEnv sizes{{sizeName, n}};
    if (std::string(sizeName) == "m")
      sizes["n"] = 3;
    EXPECT_TRUE(sameResults(in.def, out, sizes, ++seed)) << sizeName << " = " << n;
  }
}

TEST(VectorReduceRule, DotKeepsItsTypeAndMeaning) {
  expectSameMeaning(kDot, kSequential, "n");
}

TEST(VectorReduceRule, AsumKeepsItsTypeAndMeaning) {
  expectSameMeaning(kAsum, kSequential, "n");
}

// max and min are idempotent: any init may start every lane, including one
// above (max) or below (min) every element, which then is the result.
const char* kMax = "def rowmax = depFun(n: Nat => fun(xs: n.f32 =>\n"
                   "  xs |> map(fun(x => x * 3.0f - 1.0f)) |> reduce(max)(-0.5f)))\n";
const char* kMin = "def lowest = depFun(n: Nat => fun(xs: n.f32 =>\n"
                   "  xs |> reduce(min)(0.25f)))\n";
const char* kSum = "def sum = depFun(n: Nat => fun(xs: n.f32 =>\n"
                   "  xs |> reduce(add)(0.0f)))\n";

TEST(VectorReduceRule, AMaxReductionKeepsItsTypeAndMeaning) {
  expectSameMeaning(kMax, kSequential, "n");
  expectSameMeaning(kMax, kChunked, "n");
}

TEST(VectorReduceRule, APlainMinReductionKeepsItsTypeAndMeaning) {
  expectSameMeaning(kMin, kSequential, "n");
}

TEST(VectorReduceRule, APlainSumKeepsItsTypeAndMeaning) {
  expectSameMeaning(kSum, kSequential, "n");
  expectSameMeaning(kSum, kChunked, "n");
}

TEST(VectorReduceRule, AProductWithOneKeepsItsMeaning) {
  expectSameMeaning(kProduct, kSequential, "n");
}

TEST(VectorReduceRule, GemvRowsKeepTheirTypeAndMeaning) {
  expectSameMeaning(kGemv, kSequential, "m");
}

TEST(VectorReduceChunksRule, DotKeepsItsTypeAndMeaning) {
  expectSameMeaning(kDot, kChunked, "n");
}

TEST(VectorReduceChunksRule, AsumKeepsItsTypeAndMeaning) {
  expectSameMeaning(kAsum, kChunked, "n");
}

void expectSameMeaningOnRows(const char* program, const char* strat) {
  Typed in = typed(program);
  rise::TypedDef out = rewrite(in, strat);
  EXPECT_EQ(typeOf(out), typeOf(in.def)) << printed(out);
  std::uint64_t seed = 100;
  for (std::int64_t n : {0, 1, 3, 4, 5, 9})
    for (std::int64_t m : {0, 1, 63, 64, 130}) {
      rise::interp::SizeEnv sizes{{"n", n}, {"m", m}};
      EXPECT_TRUE(sameResults(in.def, out, sizes, ++seed)) << "n = " << n << ", m = " << m;
    }
}

TEST(VectorReduceRowsRule, GemvKeepsItsTypeAndMeaning) {
  expectSameMeaningOnRows(kGemv, kRows);
}

TEST(VectorReduceRowsRule, MvKeepsItsTypeAndMeaning) {
  expectSameMeaningOnRows(kMv, kRows);
}

TEST(VectorReduceRowsRule, MvInParallelKeepsItsMeaning) {
  expectSameMeaningOnRows(kMv, (std::string(kRows) + " ;\nparallel @ outermost(isMap)").c_str());
}

TEST(VectorReduceRowsRule, SharesOneLoopBetweenFourRows) {
  rise::TypedDef out = rewrite(typed(kMv), kRows);
  std::string text = printed(out);
  EXPECT_NE(text.find("take(4*(n/4))"), std::string::npos) << text;
  EXPECT_NE(text.find("transpose"), std::string::npos) << text;
  EXPECT_NE(text.find("drop(4*(n/4))"), std::string::npos) << text;
}

TEST(VectorReduceRowsRule, DoesNotApplyWithoutASharedOperand) {
  // both zipped arrays are the row: nothing to share between rows
  Typed in = typed("def f = depFun((n: Nat, m: Nat) => fun(M: n.m.f32 =>\n"
                   "  M |> map(fun(r => zip(r, r) |> map(fun(p => fst(p) * snd(p)))\n"
                   "                     |> reduce(add)(0.0f)))))\n");
  try {
    rewrite(in, "vectorReduceRows(4, 16, 4) @ outermost(isMap)");
    ADD_FAILURE() << "applied";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0710");
  }
}

TEST(VectorReduceRule, AccumulatesInKVectorsUpdatedByAnUnrolledMap) {
  rise::TypedDef out = rewrite(typed(kDot), kSequential);
  std::string text = printed(out);
  EXPECT_NE(text.find("asVector(16)"), std::string::npos) << text;
  EXPECT_NE(text.find("split(4)"), std::string::npos) << text;
  EXPECT_NE(text.find("mapSeqUnroll"), std::string::npos) << text;
  EXPECT_NE(text.find("take(64*(n/64))"), std::string::npos) << text;
  EXPECT_NE(text.find("drop(64*(n/64))"), std::string::npos) << text;
}

TEST(VectorReduceChunksRule, LeavesOneMapOverChunksForParallel) {
  rise::TypedDef out = rewrite(typed(kDot), kChunked);
  std::string text = printed(out);
  EXPECT_NE(text.find("mapPar"), std::string::npos) << text;
  EXPECT_NE(text.find("take(256*(n/256))"), std::string::npos) << text;
}

void expectNotApplicable(const std::string& body) {
  std::string program = "def f = depFun(n: Nat => fun(xs: n.f32, ks: n.i32 => " + body + "))\n";
  for (const char* s : {"vectorReduce(16, 4) @ outermost(isReduce)",
                        "vectorReduceChunks(16, 4, 4) @ outermost(isReduce)"}) {
    try {
      rewrite(typed(program), s);
      ADD_FAILURE() << s << " applied to " << body;
    } catch (const CompileError& e) {
      EXPECT_EQ(e.code(), "E0710") << body;
    }
  }
}

TEST(VectorReduceRule, DoesNotApplyToAnInitThatIsNotNeutral) {
  expectNotApplicable("xs |> map(fabs) |> reduce(add)(1.0f)");
}

TEST(VectorReduceRule, DoesNotApplyToIntegers) {
  expectNotApplicable("ks |> map(fun(k => k * 2)) |> reduce(add)(0)");
}

TEST(VectorReduceRule, DoesNotApplyToAnOperatorOtherThanAddMulMaxOrMin) {
  expectNotApplicable("xs |> map(fabs) |> reduce(sub)(0.0f)");
}

TEST(VectorReduceRule, DoesNotApplyToAFunctionThatCannotBeLifted) {
  expectNotApplicable("xs |> map(fun(x => select(x > 0.0f, x, 0.0f))) |> reduce(add)(0.0f)");
}

TEST(VectorReduceRule, DoesNotApplyToAPlainReduceWithAnInitThatIsNotNeutral) {
  expectNotApplicable("xs |> reduce(add)(2.0f)");
}

} // namespace
