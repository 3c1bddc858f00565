// End-to-end checks of strategies on small programs and on the spec files.
#include "ElevateTestUtil.h"
#include "rise/ast/Traverse.h"
#include "rise/infer/EqualUnderPreconditions.h"

#include <algorithm>

using namespace risec;
using namespace risec::testutil;

namespace {

const char* kMv = R"(def mv = depFun((n: Nat, m: Nat) =>
  fun(M: n.m.f32 => fun(x: m.f32 =>
    M |> map(fun(row =>
      zip(row)(x) |> map(fun(ax => fst(ax) * snd(ax))) |> reduce(add)(0.0f))))))
)";

TEST(ElevateStrategy, MvListing3) {
  Typed t = typed(kMv);
  rise::TypedDef r = rewrite(t, R"(
splitJoin(32)     @ outermost(isMap) ;
mapToWorkGroup(0) @ outermost(isMap) ;
mapToLocal(0)     @ outermost(isMap) ;
fuseReduceMap     @ everywhere ;
reduceToSeq       @ everywhere)");
  std::string p = printed(r);
  EXPECT_NE(p.find("mapWorkGroup(0,"), std::string::npos) << p;
  EXPECT_NE(p.find("mapLocal(0,"), std::string::npos) << p;
  EXPECT_NE(p.find("reduceSeq"), std::string::npos) << p;
  EXPECT_EQ(p.find("reduce("), std::string::npos) << p;
  EXPECT_TRUE(sameResults(t.def, r, {{"n", 64}, {"m", 48}}, 1));
}

/// The first node of `e` (preorder) without a source location, if any.
rise::Expr unplaced(const rise::Expr& e) {
  if (!e->loc().known())
    return e;
  rise::Expr found;
  rise::anyChild(e, [&](const rise::Expr& c) { return (found = unplaced(c)) != nullptr; });
  return found;
}

/// The first primitive `name` of `e` (preorder).
rise::Expr findPrim(const rise::Expr& e, const std::string& name) {
  if (e->kind() == rise::ExprKind::Primitive && rise::primName(e->prim()) == name)
    return e;
  rise::Expr found;
  rise::anyChild(e, [&](const rise::Expr& c) { return (found = findPrim(c, name)) != nullptr; });
  return found;
}

// The nodes a rule builds take the location of the term it rewrote, so that
// the back end's comments and diagnostics about them (a barrier for a
// toLocal that a rule inserted) say where they come from.
TEST(ElevateStrategy, NodesARuleBuildsAreAtTheTermItRewrote) {
  Typed t = typed(kMv);
  ASSERT_EQ(unplaced(t.def.expr), nullptr);
  rise::TypedDef r = rewrite(t, "splitJoin(32) @ outermost(isMap)");
  rise::Expr u = unplaced(r.expr);
  EXPECT_EQ(u, nullptr) << "no location: " << (u ? rise::printExpr(u) : "");
  // the split and the join are at the map they came from, on line 3 of kMv
  for (const char* name : {"split", "join"}) {
    rise::Expr p = findPrim(r.expr, name);
    ASSERT_NE(p, nullptr) << name << " in " << printed(r);
    EXPECT_EQ(p->loc().line, 3) << name;
  }
}

} // namespace

namespace {

std::string specPath(const std::string& name) {
  return std::string(RISEC_TEST_DATA) + "/../specs/" + name;
}

Typed specProgram(const std::string& name) {
  return typed(readFile(specPath(name)), name);
}

rise::TypedDef rewriteWithSpec(const Typed& t, const std::string& strategyFile) {
  auto s =
      elevate::loadStrategy(rise::makeSourceFile(strategyFile, readFile(specPath(strategyFile))));
  return elevate::rewriteDef(t.program, t.def, *s);
}

/// Equal results at `sizes`, or the rewritten program records a precondition
/// that these sizes violate (E0411) — but only if it added preconditions.
void checkAtSizes(const rise::TypedDef& original, const rise::TypedDef& r,
                  const rise::interp::SizeEnv& sizes) {
  try {
    rise::interp::instantiateEntry(r, sizes);
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0411") << e.message();
    EXPECT_GT(r.preconditions.size(), original.preconditions.size());
    return;
  }
  EXPECT_TRUE(sameResults(original, r, sizes, 7));
  EXPECT_TRUE(r.preconditions.size() == original.preconditions.size() || sizes.at("m") % 32 == 0 ||
              sizes.count("k") == 0)
      << "a size that violates the tile sizes was accepted";
}

const char* kLadder[] = {"mm.baseline.elevate",      "mm.blocking.elevate",
                         "mm.vectorisation.elevate", "mm.loop-permutation.elevate",
                         "mm.array-packing.elevate", "mm.cache-blocks.elevate",
                         "mm.parallel.elevate"};

// A def with sizes called from another (Shine's programs are written this
// way): beta-reducing the call leaves a depFun applied to a size, which the
// normal forms reduce too (issue 17: this ended in an internal error).
TEST(ElevateStrategy, NormalFormsReduceADepFunAppliedToASize) {
  Typed t = typed(R"(
def scaleBy = fun(s => depFun(n: Nat => fun(xs: n.f32 => xs |> map(fun(x => x * s)))))
def f = depFun(n: Nat => fun(xs: n.f32 => scaleBy(2.0f, n, xs)))
)");
  rise::Expr want =
      expected("def f = depFun(n: Nat => fun(xs: n.f32 => xs |> map(fun(x => x * 2.0f))))");
  for (const char* s : {"BENF", "DFNF", "CNF", "RNF", "normalize(betaReduction)"}) {
    rise::TypedDef r = rewrite(t, s);
    EXPECT_TRUE(rise::alphaEquivalent(rules::stripImplicit(r.expr), want))
        << s << ": " << printed(r);
    EXPECT_TRUE(sameResults(t.def, r, {{"n", 7}}, 3)) << s;
  }
}

TEST(ElevateStrategy, ADefMayCallItself) {
  // Shine's inLambda: s under the leading lambdas, as a recursive def
  Typed t = typed("def f = fun(a: 4.f32 => fun(b: 4.f32 => zip(a, b) |> map(fun(p => fst(p) + "
                  "snd(p)))))");
  rise::TypedDef r = rewrite(t, "def under(s) = (isLambda ; body(under(s))) <+ s\n"
                                "under(mapToSeq)");
  EXPECT_EQ(printed(r),
            "fun(a: 4.f32, b: 4.f32 => zip(a, b) |> mapSeq(fun(p => fst(p) + snd(p))))");
  EXPECT_TRUE(sameResults(t.def, r, {}, 5));
  // the recursion unfolds as deep as the program: it fails where s fails
  EXPECT_THROW(rewrite(t, "def under(s) = (isLambda ; body(under(s))) <+ s\n"
                          "under(reduceToSeq)"),
               CompileError);
}

TEST(ElevateStrategy, ARecursionThatNeverStopsIsAnError) {
  Typed t = typed("def f = fun(a: 4.f32 => a)");
  try {
    rewrite(t, "def loop(s) = s ; loop(s)\nloop(id)");
    FAIL() << "no error";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0711");
    EXPECT_EQ(e.location().line, 1);
    EXPECT_EQ(e.location().column, 19);
    EXPECT_EQ(e.message(),
              "the recursive strategy `loop(s)` did not terminate: 1000 calls of it are nested");
  }
}

// Fuzz finding L1 (docs/fuzzing.md): tiling mm by 32 x 2 gives its result the
// type (32*(m/32)).(2*(n/2)).f32, which is m.n.f32 only under the tiles'
// preconditions. The engine accepts it because those preconditions prove it
// (rise/infer/EqualUnderPreconditions.h), and the rewritten def refuses the
// sizes that violate them rather than computing a shorter result.
TEST(ElevateSpecs, TilingAddsPreconditionsThatProveTheType) {
  Typed mm = specProgram("mm.rise");
  rise::TypedDef r = rewrite(mm, "tile(32, 2) @ outermostArgFirst(mapNest(2))");
  EXPECT_FALSE(rise::typeEqual(r.type, mm.def.type)) << rise::typeToString(r.type);
  EXPECT_TRUE(rise::typeEqualUnder(r.type, mm.def.type, r.preconditions));
  std::vector<std::string> pre;
  for (const rise::Precondition& p : r.preconditions)
    pre.push_back(p.str());
  EXPECT_NE(std::find(pre.begin(), pre.end(), "m%32 == 0"), pre.end());
  EXPECT_NE(std::find(pre.begin(), pre.end(), "n%2 == 0"), pre.end());
  checkAtSizes(mm.def, r, {{"m", 64}, {"n", 6}, {"k", 5}});
  try {
    rise::interp::instantiateEntry(r, {{"m", 33}, {"n", 6}, {"k", 5}});
    FAIL() << "m = 33 was accepted";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0411") << e.message();
  }
}

TEST(ElevateSpecs, MatMulLadderIsCorrectAndEachStepChangesTheProgram) {
  Typed mm = specProgram("mm.rise");
  std::string previous = printed(mm.def);
  for (const char* step : kLadder) {
    SCOPED_TRACE(step);
    rise::TypedDef r = rewriteWithSpec(mm, step);
    std::string now = printed(r);
    EXPECT_NE(now, previous);
    checkAtSizes(mm.def, r, {{"m", 64}, {"n", 64}, {"k", 64}});
    if (std::string(step) == "mm.blocking.elevate" ||
        std::string(step) == "mm.loop-permutation.elevate")
      checkAtSizes(mm.def, r, {{"m", 100}, {"n", 70}, {"k", 33}});
    previous = now;
  }
}

TEST(ElevateSpecs, MatMulStepsHaveTheirSignature) {
  Typed mm = specProgram("mm.rise");
  auto has = [&](const char* step, const char* text) {
    std::string p = printed(rewriteWithSpec(mm, step));
    EXPECT_NE(p.find(text), std::string::npos) << step << " lacks " << text << ":\n" << p;
  };
  has("mm.baseline.elevate", "reduceSeq");
  has("mm.blocking.elevate", "split(32)");
  has("mm.blocking.elevate", "split(4)");
  has("mm.blocking.elevate", "padCst(0, 4*((k + 3)/4) - k"); // padReduce
  has("mm.vectorisation.elevate", "asVector(32)");
  has("mm.loop-permutation.elevate", "asVector(32)");
  has("mm.array-packing.elevate", "toMem");
  has("mm.cache-blocks.elevate", "reduceSeqUnroll");
  has("mm.parallel.elevate", "mapPar");
}

TEST(ElevateSpecs, MvOpenClStrategyFile) {
  Typed mv = specProgram("mv.rise");
  rise::TypedDef r = rewriteWithSpec(mv, "mv.ocl.elevate");
  EXPECT_TRUE(sameResults(mv.def, r, {{"n", 64}, {"m", 48}}, 3));
  checkAtSizes(mv.def, r, {{"n", 70}, {"m", 33}});
}

} // namespace
