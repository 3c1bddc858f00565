// The stage-fusion rules beyond their RuleTest cases: fuseStage over a
// constant border at every size (the border selected, never the stage of a
// padded element), a rule that refuses with a strategy error (E0710) where
// its conditions fail, and the derivation of gaussian's per-pixel blur
// (specs/gaussian.fused.*.elevate) on specs/gaussian.rise: the def's type and
// preconditions kept, no stored stage left (only a pixel's 5 row-pass
// values), the result the interpreter's at small, odd and non-square sizes;
// the same for harris's (specs/harris.fused.*.elevate), whose products are
// padded with zeros.
#include "ElevateTestUtil.h"

#include <filesystem>

using namespace risec;
using namespace risec::testutil;

namespace {

/// Whether the def's size preconditions hold at `sizes`.
bool accepts(const rise::TypedDef& def, const rise::interp::SizeEnv& sizes) {
  try {
    rise::interp::instantiateEntry(def, sizes);
    return true;
  } catch (const CompileError&) {
    return false;
  }
}

std::string specFile(const std::string& name) {
  return readFile((std::filesystem::path(RISEC_SOURCE_DIR) / "specs" / name).string());
}

TEST(FuseStage, ConstantBorderAtEverySize) {
  // the border is 2.0f, which neg of a (clamped) element is not in general
  Typed in = typed("def f = depFun(n: Nat => fun(ys: n.f32 =>\n"
                   "  ys |> map(neg) |> toMem |> padCst(2, 1, 2.0f) |> slide(3, 1)\n"
                   "     |> map(fun(w => reduce(add)(0.0f)(w)))))\n");
  rise::TypedDef r = rewrite(in, "topDown(fuseStage) ; BENF");
  EXPECT_TRUE(rise::typeEqual(r.type, in.def.type));
  EXPECT_EQ(printed(r).find("toMem"), std::string::npos) << printed(r);
  // the input is clamped (padClamp needs an element): n = 0 is refused by
  // the rewritten def's precondition, never computed wrongly
  EXPECT_FALSE(accepts(r, {{"n", 0}}));
  for (std::int64_t n = 1; n <= 9; ++n)
    EXPECT_TRUE(sameResults(in.def, r, {{"n", n}}, std::uint64_t(n))) << "n = " << n;
}

TEST(FuseStage, ConstantBorderMergedIntoTheInputsPadding) {
  // the stage's input is a view of a zero-padded array: the input side's
  // border (never read: the flag selects 5.0f there) becomes one more zero
  // of that padding instead of a clamp, and n = 0 stays allowed
  Typed in =
      typed("def f = depFun(n: Nat => fun(ys: n.f32 =>\n"
            "  ys |> padCst(1, 1, 0.0f) |> slide(3, 1) |> map(fun(w => reduce(add)(0.0f)(w)))\n"
            "     |> toMem |> padCst(1, 1, 5.0f) |> slide(3, 1)\n"
            "     |> map(fun(w => reduce(add)(0.0f)(w)))))\n");
  rise::TypedDef r = rewrite(in, "topDown(fuseStage) ; BENF");
  EXPECT_TRUE(rise::typeEqual(r.type, in.def.type));
  std::string text = printed(r);
  EXPECT_NE(text.find("padCst(2, 2, 0.0f)"), std::string::npos) << text;
  EXPECT_EQ(text.find("padClamp"), std::string::npos) << text;
  for (std::int64_t n = 0; n <= 9; ++n)
    EXPECT_TRUE(sameResults(in.def, r, {{"n", n}}, std::uint64_t(n))) << "n = " << n;
}

TEST(FuseStage, RefusesWithAStrategyError) {
  // the stage is read through a join, a view the rule does not know: no
  // fusion, and no transposed stage
  Typed in = typed("def f = depFun((n: Nat, m: Nat) => fun(xs: n.m.f32 =>\n"
                   "  xs |> map(map(neg)) |> toMem |> join |> slide(3, 1)\n"
                   "     |> map(reduce(add)(0.0f))))\n");
  for (const char* s : {"topDown(fuseStage)", "topDown(fuseStageTransposed)"}) {
    try {
      rewrite(in, s);
      ADD_FAILURE() << s << " applied";
    } catch (const CompileError& e) {
      EXPECT_EQ(e.code(), "E0710") << s << ": " << e.message();
    }
  }
}

TEST(GaussianFused, DerivedFromGaussianRise) {
  Typed in = typed(specFile("gaussian.rise"), "gaussian.rise");
  for (const char* file :
       {"gaussian.fused.c.elevate", "gaussian.fused.omp.elevate", "gaussian.fused.ocl.elevate"}) {
    rise::TypedDef r = rewrite(in, specFile(file));
    EXPECT_TRUE(rise::typeEqual(r.type, in.def.type)) << file;
    // nothing beyond gaussian's own h >= 1 and w >= 1
    EXPECT_EQ(r.preconditions.size(), in.def.preconditions.size()) << file << ": " << printed(r);
    // nothing stored but the 5 row-pass values of a pixel (a let in the
    // function over the columns): every pixel reads only the image
    std::string text = printed(r);
    std::size_t first = text.find("toMem");
    EXPECT_NE(first, std::string::npos) << file << ": " << text;
    EXPECT_EQ(text.find("toMem", first + 1), std::string::npos) << file << ": " << text;
    EXPECT_NE(text.find("let("), std::string::npos) << file << ": " << text;
    std::uint64_t seed = 0;
    for (auto [h, w] : std::initializer_list<std::pair<std::int64_t, std::int64_t>>{
             {1, 1}, {1, 2}, {2, 1}, {2, 3}, {3, 7}, {5, 9}, {8, 5}, {13, 6}})
      EXPECT_TRUE(sameResults(in.def, r, {{"h", h}, {"w", w}}, seed++))
          << file << ": h = " << h << ", w = " << w;
  }
}

TEST(HarrisFused, DerivedFromHarrisRise) {
  Typed in = typed(specFile("harris.rise"), "harris.rise");
  for (const char* file :
       {"harris.fused.c.elevate", "harris.fused.omp.elevate", "harris.fused.ocl.elevate"}) {
    rise::TypedDef r = rewrite(in, specFile(file));
    EXPECT_TRUE(rise::typeEqual(r.type, in.def.type)) << file;
    EXPECT_EQ(r.preconditions.size(), in.def.preconditions.size()) << file << ": " << printed(r);
    // the products' zero border selected by a flag; the input side's border
    // merged into the image's zero padding (2), not clamped; stored: the 9
    // products of a pixel and its two gradients, not the h x w products or
    // the padded image
    std::string text = printed(r);
    EXPECT_NE(text.find("select("), std::string::npos) << file << ": " << text;
    EXPECT_NE(text.find("padCst(2, 2, 0.0f)"), std::string::npos) << file << ": " << text;
    EXPECT_EQ(text.find("padClamp"), std::string::npos) << file << ": " << text;
    std::size_t stores = 0;
    for (std::size_t at = text.find("toMem"); at != std::string::npos;
         at = text.find("toMem", at + 1))
      ++stores;
    EXPECT_EQ(stores, 3u) << file << ": " << text;
    std::uint64_t seed = 0;
    for (auto [h, w] : std::initializer_list<std::pair<std::int64_t, std::int64_t>>{
             {1, 1}, {1, 4}, {3, 1}, {2, 3}, {4, 7}, {7, 5}})
      EXPECT_TRUE(sameResults(in.def, r, {{"h", h}, {"w", w}}, seed++))
          << file << ": h = " << h << ", w = " << w;
  }
}

} // namespace
