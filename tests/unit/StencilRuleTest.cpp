// The stencil rules beyond their RuleTest cases: slideStrips where the strip
// divides the windows (no padding) and at every size where it does not, and
// the derivation of gaussian's strips (specs/gaussian.strips.c.elevate) on
// specs/gaussian.rise: the def's type and preconditions kept, the result the
// interpreter's at heights below, at and around multiples of the strip.
#include "ElevateTestUtil.h"

#include <filesystem>

using namespace risec;
using namespace risec::testutil;

namespace {

const char* kWindowSums = "def f = depFun(m: Nat => fun(ys: (4*m + 2).f32 =>\n"
                          "  ys |> slide(3, 1) |> map(fun(w => reduce(add)(0.0f)(w)))))\n";

/// Whether the def's size preconditions hold at `sizes`.
bool accepts(const rise::TypedDef& def, const rise::interp::SizeEnv& sizes) {
  try {
    rise::interp::instantiateEntry(def, sizes);
    return true;
  } catch (const CompileError&) {
    return false;
  }
}

TEST(SlideStrips, NoPaddingWhereTheStripDividesTheWindows) {
  Typed in = typed(kWindowSums);
  rise::TypedDef r = rewrite(in, "slideStrips(4) @ outermost(isMap)");
  rise::Expr want = expected("def f = depFun(m: Nat => fun(ys: (4*m + 2).f32 =>\n"
                             "  ys |> slide(6, 4) |> map(fun(s => s |> slide(3, 1)\n"
                             "     |> map(fun(w => reduce(add)(0.0f)(w))))) |> join))\n");
  EXPECT_TRUE(rise::alphaEquivalent(rules::stripImplicit(r.expr), want)) << printed(r);
  EXPECT_TRUE(rise::typeEqual(r.type, in.def.type));
  for (std::int64_t m : {1, 2, 5})
    EXPECT_TRUE(sameResults(in.def, r, {{"m", m}}, std::uint64_t(m)));
}

TEST(SlideStrips, PadsTheLastStripAtEverySize) {
  Typed in = typed("def f = depFun(n: Nat => fun(ys: n.f32 =>\n"
                   "  ys |> slide(3, 1) |> map(fun(w => reduce(add)(0.0f)(w)))))\n");
  for (const char* s : {"slideStrips(2) @ outermost(isMap)", "slideStrips(5) @ outermost(isMap)"}) {
    rise::TypedDef r = rewrite(in, s);
    EXPECT_TRUE(rise::typeEqual(r.type, in.def.type)) << s;
    // The conditions change form (the slide of 3 now runs over strips) but
    // accept the same sizes: n >= 3.
    for (std::int64_t n = 0; n <= 17; ++n) {
      ASSERT_EQ(accepts(r, {{"n", n}}), n >= 3) << s << " at n = " << n << ": " << printed(r);
      if (n >= 3) {
        EXPECT_TRUE(sameResults(in.def, r, {{"n", n}}, std::uint64_t(n))) << s << " at n = " << n;
      }
    }
  }
}

TEST(SlideStrips, FailsForStripsOfOneWindow) {
  Typed in = typed(kWindowSums);
  EXPECT_THROW(rewrite(in, "slideStrips(1) @ outermost(isMap)"), CompileError);
}

std::string specFile(const std::string& name) {
  return readFile((std::filesystem::path(RISEC_SOURCE_DIR) / "specs" / name).string());
}

TEST(GaussianStrips, DerivedFromGaussianRiseAtEveryHeight) {
  Typed in = typed(specFile("gaussian.rise"), "gaussian.rise");
  for (const char* rows : {"8", "32"}) {
    std::string strat = specFile("gaussian.strips.c.elevate");
    strat = "param rows = " + std::string(rows) + " in [" + rows + "]\n" +
            strat.substr(strat.find("def strips"));
    rise::TypedDef r = rewrite(in, strat);
    EXPECT_TRUE(rise::typeEqual(r.type, in.def.type)) << rise::typeToString(r.type);
    // the strips need nothing beyond gaussian's own h >= 1 and w >= 1
    EXPECT_EQ(r.preconditions.size(), 2u) << printed(r);
    // the row pass is stored per strip: one toMem of rows + 4 rows, no h.w one
    std::string text = printed(r);
    EXPECT_NE(text.find("slide(" + std::to_string(std::stoi(rows) + 4) + ", " + rows + ")"),
              std::string::npos)
        << text;
    std::uint64_t seed = 0;
    for (std::int64_t h : {1, 2, 7, 8, 9, 31, 32, 33, 65})
      for (std::int64_t w : {1, 3, 6})
        EXPECT_TRUE(sameResults(in.def, r, {{"h", h}, {"w", w}}, seed++))
            << "rows = " << rows << ", h = " << h << ", w = " << w;
  }
}

// harris' strips (specs/harris.strips.c.elevate) derived from harris.rise:
// the zero padding of both stages made exact for the strips (a flag per row
// of the products, zero columns written by the products stage), the type
// and the (absent) preconditions kept, the result the interpreter's at
// heights below, at and around multiples of the strip.
TEST(HarrisStrips, DerivedFromHarrisRiseAtEveryHeight) {
  Typed in = typed(specFile("harris.rise"), "harris.rise");
  for (const char* rows : {"8", "32"}) {
    std::string strat = specFile("harris.strips.c.elevate");
    strat = "param rows = " + std::string(rows) + " in [" + rows + "]\n" +
            strat.substr(strat.find("def strips"));
    rise::TypedDef r = rewrite(in, strat);
    EXPECT_TRUE(rise::typeEqual(r.type, in.def.type)) << rise::typeToString(r.type);
    EXPECT_EQ(r.preconditions.size(), in.def.preconditions.size()) << printed(r);
    // the products are stored per strip of rows + 2 rows
    std::string text = printed(r);
    EXPECT_NE(text.find("slide(" + std::to_string(std::stoi(rows) + 2) + ", " + rows + ")"),
              std::string::npos)
        << text;
    std::uint64_t seed = 0;
    for (std::int64_t h : {1, 2, 7, 8, 9, 31, 32, 33, 65})
      for (std::int64_t w : {1, 2, 5})
        EXPECT_TRUE(sameResults(in.def, r, {{"h", h}, {"w", w}}, seed++))
            << "rows = " << rows << ", h = " << h << ", w = " << w;
  }
}

// padCstBeforeMap refuses a stage whose padded rows are not the padding
// (a strategy error, E0710, not an internal error); padCstBeforeMapGuarded
// takes any stage.
TEST(PadCstBeforeMap, RefusesAStageThatDoesNotKeepTheConstant) {
  Typed in = typed("def f = depFun(n: Nat => fun(xs: n.4.f32 =>\n"
                   "  xs |> map(map(fun(x => x + 1.0f))) |> padCst(1, 1, generate(fun(i => "
                   "0.0f)))))\n");
  try {
    rewrite(in, "topDown(padCstBeforeMap)");
    FAIL() << "padCstBeforeMap applied";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0710") << e.message();
  }
  // (the clamped rows need n >= 1: the guarded stage states it)
  rise::TypedDef r = rewrite(in, "topDown(padCstBeforeMapGuarded)");
  EXPECT_FALSE(accepts(r, {{"n", 0}}));
  for (std::int64_t n : {1, 2, 5})
    EXPECT_TRUE(sameResults(in.def, r, {{"n", n}}, std::uint64_t(n))) << "n = " << n;
}

} // namespace
