// Shine's CGO 2021 Harris schedules (rise-lang/shine, src/main/scala/apps/
// harrisCornerDetectionHalideRewrite.scala) as far as they are ported, in
// tests/shine/harris/*.elevate, applied to Shine's Harris program
// (tests/shine/harris/harris.rise): each keeps harris' type and matches the
// interpreter's harris on random images. The steps that are not ported are
// listed in docs/strategies.md ("Shine's Harris schedules") and not tested
// here. Shine compiles only the whole schedules (harrisBuffered, the last
// one here); risec compiles every ported step
// (the default lowering makes the choices left) to C, whose result must
// match the interpreter's harris at the smallest legal size and a larger
// odd one, the 4 padding values of each row left untouched. Only
// harrisBufferedSplitPar has a parallel map (Shine's mapGlobal, here mapPar):
// its OpenMP C runs at 1 and 2 threads (ShineHarrisSplitPar).
#include "CKernelRunner.h"
#include "ElevateTestUtil.h"
#include "OclRunner.h"
#include "codegen/Compile.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>
#include <tuple>
#include <unistd.h>

using namespace risec;
using namespace risec::testutil;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kSchedules = {"harrisBufferedShape1",       "harrisBufferedShape2",
                                             "harrisBufferedShape",        "harrisIxWithIy",
                                             "harrisBufferedLoweringHead", "harrisBuffered"};

// Shine's harris needs w >= 5 (rows of w - 4 values); the smallest, a square
// one and larger odd ones (no split in these schedules: any h and w)
const std::vector<std::pair<int, int>> kSizes = {{1, 5}, {2, 6}, {4, 9}, {7, 13}};

std::string dataFile(const std::string& relative) {
  return readFile((fs::path(RISEC_TEST_DATA) / relative).string());
}

struct Schedule {
  Typed harris;
  std::string strategyFile;
  rise::TypedDef rewritten;
};

Schedule apply(const std::string& name) {
  Schedule s{typed(dataFile("shine/harris/harris.rise"), "tests/shine/harris/harris.rise"),
             "tests/shine/harris/" + name + ".elevate",
             {}};
  elevate::StrategyPtr strat = elevate::loadStrategy(
      rise::makeSourceFile(s.strategyFile, dataFile("shine/harris/" + name + ".elevate")));
  s.rewritten = elevate::rewriteDef(s.harris.program, s.harris.def, *strat);
  return s;
}

class ShineHarrisSchedule : public ::testing::TestWithParam<std::string> {};

TEST_P(ShineHarrisSchedule, KeepsTheTypeOfHarris) {
  Schedule s = apply(GetParam());
  EXPECT_TRUE(rise::typeEqual(s.rewritten.type, s.harris.def.type))
      << rise::typeToString(s.rewritten.type);
  // no precondition beyond harris' own (h >= 1, w >= 5; after the line
  // buffers, inference records only w >= 5)
  EXPECT_LE(s.rewritten.preconditions.size(), s.harris.def.preconditions.size());
}

std::set<std::string> conditions(const std::vector<rise::Precondition>& pre) {
  std::set<std::string> out;
  for (const rise::Precondition& p : pre)
    out.insert(p.str());
  return out;
}

TEST_P(ShineHarrisSchedule, RefusesTheSizesHarrisRefuses) {
  // harris refuses w < 5 (rows of w - 4 values). Its `h >= 1` (from the
  // slide(3, 1) over h + 2 rows) only says that h = 0 has nothing to
  // compute (onlyForNonEmptyResult: not refused, the result is empty). The
  // line buffers (circularBuffer: (n + 2) rows to n windows) need no such
  // condition, so inference drops it there; nothing that harris refuses may
  // be let through, and the C at h = 0 is run below.
  Schedule s = apply(GetParam());
  EXPECT_EQ(conditions(rise::refusingPreconditions(s.rewritten.preconditions)),
            conditions(rise::refusingPreconditions(s.harris.def.preconditions)));
  EXPECT_EQ(conditions(rise::refusingPreconditions(s.harris.def.preconditions)),
            std::set<std::string>{"w >= 5"});
  for (const rise::Precondition& p : s.harris.def.preconditions)
    if (!conditions(s.rewritten.preconditions).count(p.str())) {
      EXPECT_TRUE(p.onlyForNonEmptyResult) << p.str() << " dropped";
      EXPECT_EQ(p.str(), "h >= 1");
    }
}

/// Runs the kernel built in `dir` (buildKernel with driverSource) at h x w
/// on a random image and compares it with harris' interpreter result: the
/// first w - 4 columns of each row within a float tolerance, the last 4 (the
/// padding of Shine's harris) left as the driver filled them (0xAB bytes).
void expectMatchesHarris(const Schedule& s, const fs::path& dir, int h, int w, std::uint64_t seed) {
  using namespace risec::testsupport;
  std::vector<std::string> sizeNames = rise::interp::sizeParameters(s.rewritten);
  float untouched;
  std::memset(&untouched, 0xAB, sizeof untouched);
  rise::interp::SizeEnv sizes{{"h", h}, {"w", w}};
  rise::interp::EntryInterface iface = rise::interp::instantiateEntry(s.harris.def, sizes);
  std::mt19937_64 rng(seed);
  std::vector<rise::interp::Value> img = {rise::interp::randomValue(iface.inputTypes.at(0), rng)};
  rise::interp::Value expected = rise::interp::evaluate(s.harris.def, sizes, img);
  std::string out;
  ASSERT_EQ(
      runDriver(dir, (dir / "gcc").string(), inputRecord(s.rewritten, sizeNames, sizes, img), out),
      0)
      << out;
  std::vector<std::string> tok = tokens(out);
  ASSERT_GE(tok.size(), 2u) << out;
  ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << out;
  std::size_t pos = 2;
  rise::interp::Value actual = unflatten(iface.outputType, tok, pos);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float got = static_cast<float>(actual[y][x].asScalar().asDouble());
      double want = expected[y][x].asScalar().asDouble();
      if (x < w - 4)
        EXPECT_NEAR(got, want, 1e-6 + 1e-4 * std::fabs(want)) << y << "," << x;
      else
        EXPECT_EQ(std::memcmp(&got, &untouched, sizeof got), 0)
            << "padding " << y << "," << x << " written";
    }
}

TEST_P(ShineHarrisSchedule, ItsCMatchesTheInterpreter) {
  using namespace risec::testsupport;
  Schedule s = apply(GetParam());
  rise::Program program = elevate::rewrittenProgram(s.harris.program, s.rewritten);
  std::string symbol = "harris_" + GetParam();
  codegen::c::COptions opts{symbol, "tests/shine/harris/harris.rise", "test", s.strategyFile};
  codegen::CompileResult compiled = codegen::compileToC(program, s.rewritten, opts);
  fs::path dir =
      fs::temp_directory_path() / ("risec-shine-" + GetParam() + "-" + std::to_string(::getpid()));
  std::string log;
  ASSERT_EQ(buildKernel(dir, symbol, compiled.files, driverSource(symbol, s.rewritten, 2), "gcc",
                        defaultCFlags(), log),
            0)
      << log;
  std::vector<std::string> sizeNames = rise::interp::sizeParameters(s.rewritten);
  // h = 0: runs, nothing to compute (harris' h >= 1 is onlyForNonEmptyResult;
  // a read out of bounds shows in sanitizer builds, defaultCFlags); w = 4:
  // refused, the output untouched
  for (auto [h, w, rc] : std::vector<std::tuple<int, int, std::string>>{{0, 5, "0"}, {3, 4, "1"}}) {
    rise::interp::SizeEnv sizes{{"h", h}, {"w", w}};
    std::ostringstream record;
    if (rc == "0") {
      rise::interp::EntryInterface iface = rise::interp::instantiateEntry(s.harris.def, sizes);
      std::mt19937_64 rng(5);
      record << inputRecord(s.rewritten, sizeNames, sizes,
                            {rise::interp::randomValue(iface.inputTypes.at(0), rng)});
    } else {
      record << h << "\n" << w << "\n";
      writeDummyInputsAndOutputs(s.rewritten, record);
    }
    std::string out;
    ASSERT_EQ(runDriver(dir, (dir / "gcc").string(), record.str(), out), 0) << out;
    std::vector<std::string> tok = tokens(out);
    ASSERT_GE(tok.size(), 2u) << out;
    EXPECT_EQ(tok[0] + " " + tok[1], "rc " + rc) << GetParam() << " at " << h << "x" << w;
    if (rc != "0") {
      EXPECT_EQ(out, "rc 1\nuntouched 1\n");
    }
  }
  std::uint64_t seed = 17;
  for (auto [h, w] : std::vector<std::pair<int, int>>{{1, 5}, {7, 13}}) {
    SCOPED_TRACE(GetParam() + " at " + std::to_string(h) + "x" + std::to_string(w));
    expectMatchesHarris(s, dir, h, w, seed++);
  }
  fs::remove_all(dir);
}

TEST_P(ShineHarrisSchedule, ChangesTheProgram) {
  Schedule s = apply(GetParam());
  EXPECT_FALSE(rise::alphaEquivalent(rules::stripImplicit(s.rewritten.expr),
                                     rules::stripImplicit(s.harris.def.expr)));
}

TEST_P(ShineHarrisSchedule, MatchesTheInterpreterOnRandomImages) {
  Schedule s = apply(GetParam());
  std::uint64_t seed = 3;
  for (auto [h, w] : kSizes)
    EXPECT_TRUE(sameResults(s.harris.def, s.rewritten, {{"h", h}, {"w", w}}, seed++))
        << GetParam() << " at " << h << "x" << w;
}

INSTANTIATE_TEST_SUITE_P(Ports, ShineHarrisSchedule, ::testing::ValuesIn(kSchedules),
                         [](const auto& info) { return info.param; });

// harrisBufferedSplitPar(4) with mapPar for Shine's mapGlobal: the output rows
// in strips of 4 (h a multiple of 4), each strip through its own line
// buffers, the strips in parallel (OpenMP).
const char* kSplitPar = "harrisBufferedSplitParOmp";

TEST(ShineHarrisSplitPar, KeepsTheTypeAndRefusesHeightsNotInStrips) {
  Schedule s = apply(kSplitPar);
  // the rows are 4*(h/4) (splitJoin), which is h where the call is not
  // refused (h a multiple of 4)
  EXPECT_EQ(rise::typeToString(s.rewritten.type),
            "(h: Nat) -> (w: Nat) -> 3.(h + 4).w.f32 -> (4*(h/4)).w.f32");
  rise::interp::SizeEnv sizes{{"h", 8}, {"w", 7}};
  EXPECT_TRUE(rise::typeEqual(rise::interp::instantiateEntry(s.rewritten, sizes).outputType,
                              rise::interp::instantiateEntry(s.harris.def, sizes).outputType));
  std::set<std::string> refused =
      conditions(rise::refusingPreconditions(s.rewritten.preconditions));
  // the strips: h a multiple of 4, at least one strip (slide(8, 4) over
  // h + 4 rows); harris' own w >= 5
  EXPECT_EQ(refused, (std::set<std::string>{"h >= 4", "h%4 == 0", "w >= 5"}));
}

TEST(ShineHarrisSplitPar, MatchesTheInterpreterOnRandomImages) {
  // the OpenMP variant and Shine's own (mapGlobal: mapToGlobal(0); its
  // OpenCL runs on PoCL below)
  for (const char* name : {kSplitPar, "harrisBufferedSplitPar"}) {
    Schedule s = apply(name);
    std::uint64_t seed = 23;
    for (auto [h, w] : std::vector<std::pair<int, int>>{{4, 5}, {8, 6}, {12, 13}})
      EXPECT_TRUE(sameResults(s.harris.def, s.rewritten, {{"h", h}, {"w", w}}, seed++))
          << name << " at " << h << "x" << w;
  }
}

TEST(ShineHarrisSplitPar, ItsOpenMPMatchesTheInterpreterAtOneAndTwoThreads) {
  using namespace risec::testsupport;
  Schedule s = apply(kSplitPar);
  rise::Program program = elevate::rewrittenProgram(s.harris.program, s.rewritten);
  std::string symbol = "harris_split_par";
  codegen::c::COptions opts{symbol, "tests/shine/harris/harris.rise", "test", s.strategyFile,
                            *codegen::parseTarget("openmp")};
  codegen::CompileResult compiled = codegen::compileToC(program, s.rewritten, opts);
  ASSERT_NE(compiled.files.source.find("#pragma omp"), std::string::npos);
  fs::path dir =
      fs::temp_directory_path() / ("risec-shine-split-par-" + std::to_string(::getpid()));
  std::string log;
  ASSERT_EQ(buildKernel(dir, symbol, compiled.files, driverSource(symbol, s.rewritten, 2), "gcc",
                        defaultCFlags() + " -fopenmp", log),
            0)
      << log;
  for (const char* threads : {"1", "2"}) {
    ::setenv("OMP_NUM_THREADS", threads, 1);
    // h = 6 (not in strips of 4) and w = 4 are refused, the output untouched
    for (auto [h, w] : std::vector<std::pair<int, int>>{{6, 5}, {4, 4}}) {
      std::ostringstream record;
      record << h << "\n" << w << "\n";
      writeDummyInputsAndOutputs(s.rewritten, record);
      std::string out;
      ASSERT_EQ(runDriver(dir, (dir / "gcc").string(), record.str(), out), 0) << out;
      EXPECT_EQ(out, "rc 1\nuntouched 1\n") << h << "x" << w;
    }
    std::uint64_t seed = 29;
    for (auto [h, w] : std::vector<std::pair<int, int>>{{4, 5}, {12, 13}}) {
      SCOPED_TRACE(std::string(threads) + " threads at " + std::to_string(h) + "x" +
                   std::to_string(w));
      expectMatchesHarris(s, dir, h, w, seed++);
    }
  }
  ::unsetenv("OMP_NUM_THREADS");
  if (!HasFailure())
    fs::remove_all(dir);
}

TEST(ShineHarrisSplitPar, ItsOpenCLMatchesTheInterpreterOnPocl) {
  // Shine's own schedule (mapGlobal): each work-item's line buffers are
  // global temporaries (circularBuffer(Global)), and the three sums each
  // output pixel reads are computed in its loop (lowerToC's FuseZippedMaps),
  // not stored as a row per work-item in private memory
  using namespace risec::testsupport;
  Schedule s = apply("harrisBufferedSplitPar");
  CompiledKernel k{elevate::rewrittenProgram(s.harris.program, s.rewritten), s.rewritten, {}};
  codegen::c::COptions opts{"harris", "tests/shine/harris/harris.rise", "test", s.strategyFile,
                            *codegen::parseTarget("opencl")};
  k.result = codegen::compileToC(k.program, s.rewritten, opts);
  OclRunner& runner = defaultOclRunner();
  ASSERT_TRUE(runner.ok()) << runner.buildLog();
  std::uint64_t seed = 31;
  for (auto [h, w] : std::vector<std::pair<int, int>>{{4, 5}, {12, 13}, {20, 6}}) {
    rise::interp::SizeEnv sizes{{"h", h}, {"w", w}};
    rise::interp::EntryInterface iface = rise::interp::instantiateEntry(s.harris.def, sizes);
    std::mt19937_64 rng(seed++);
    std::vector<rise::interp::Value> img = {rise::interp::randomValue(iface.inputTypes.at(0), rng)};
    rise::interp::Value expected = rise::interp::evaluate(s.harris.def, sizes, img);
    // fewer work-items than strips (grid-stride loops), as many, more
    for (const Launch& launch : {launch1D(1, 1), launch1D(h / 4, 1), launch1D(8, 4)}) {
      SCOPED_TRACE(std::to_string(h) + "x" + std::to_string(w) + ", " + launch.str());
      OclRunResult r = runner.run(k, sizes, img, {launch}).at(0);
      ASSERT_TRUE(r.ok()) << r.error << "\n" << k.result.files.source;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          double got = (*r.output)[y][x].asScalar().asDouble();
          double want = expected[y][x].asScalar().asDouble();
          if (x < w - 4)
            EXPECT_NEAR(got, want, 1e-6 + 1e-4 * std::fabs(want)) << y << "," << x;
          else // padEmpty's columns are not written: the runner's -1 stays
            EXPECT_EQ(got, -1.0) << "padding " << y << "," << x << " written";
        }
    }
  }
}

} // namespace
