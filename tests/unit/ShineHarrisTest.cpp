// Shine's CGO 2021 Harris program (rise-lang/shine, src/main/scala/apps/
// harrisCornerDetectionHalide.scala, `harris`) as ported line by line in
// tests/shine/harris/harris.rise: it has Shine's type, the interpreter
// computes Harris' response as a direct computation of its definition does,
// and its C, with the default lowering, matches the interpreter; the last 4
// values of each row (Shine's `padEmpty(4)`) are left untouched.
#include "CKernelRunner.h"
#include "codegen/Compile.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <unistd.h>

using namespace risec;
using namespace risec::rise;
using namespace risec::testsupport;
using interp::Value;
namespace fs = std::filesystem;

namespace {

const char* kFile = "shine/harris/harris.rise";

struct Harris {
  Program program;
  TypedDef def;
};

Harris load() {
  fs::path path = fs::path(RISEC_TEST_DATA) / kFile;
  Program p = parseProgram(makeSourceFile(path.string(), test::readFile(path)));
  TypedDef d = inferDef(p, "harris");
  return {std::move(p), std::move(d)};
}

std::vector<Value> randomImage(const TypedDef& def, const interp::SizeEnv& s, std::uint64_t seed) {
  interp::EntryInterface iface = interp::instantiateEntry(def, s);
  std::mt19937_64 rng(seed);
  return {interp::randomValue(iface.inputTypes.at(0), rng)};
}

/// Harris' response computed directly from its definition (Halide's, the
/// one Shine's program follows): gray, 3x3 Sobel derivatives, their
/// products summed over 3x3 windows, det - 0.04 * trace^2; rows of w - 4.
std::vector<std::vector<double>> reference(const Value& img, int h, int w) {
  auto in = [&](int c, int y, int x) { return img[c][y][x].asScalar().asDouble(); };
  const double gw[3] = {0.299f, 0.587f, 0.114f};
  std::vector<std::vector<double>> g(h + 4, std::vector<double>(w));
  for (int y = 0; y < h + 4; ++y)
    for (int x = 0; x < w; ++x)
      g[y][x] = gw[0] * in(0, y, x) + gw[1] * in(1, y, x) + gw[2] * in(2, y, x);
  const double sx[3][3] = {{-1, 0, 1}, {-2, 0, 2}, {-1, 0, 1}};
  const double sy[3][3] = {{-1, -2, -1}, {0, 0, 0}, {1, 2, 1}};
  std::vector<std::vector<double>> ix(h + 2, std::vector<double>(w - 2)), iy = ix;
  for (int y = 0; y < h + 2; ++y)
    for (int x = 0; x < w - 2; ++x)
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx) {
          ix[y][x] += sx[dy][dx] / 12.0 * g[y + dy][x + dx];
          iy[y][x] += sy[dy][dx] / 12.0 * g[y + dy][x + dx];
        }
  std::vector<std::vector<double>> out(h, std::vector<double>(w - 4));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w - 4; ++x) {
      double sxx = 0, sxy = 0, syy = 0;
      for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx) {
          double a = ix[y + dy][x + dx], b = iy[y + dy][x + dx];
          sxx += a * a;
          sxy += a * b;
          syy += b * b;
        }
      out[y][x] = sxx * syy - sxy * sxy - 0.04 * (sxx + syy) * (sxx + syy);
    }
  return out;
}

TEST(ShineHarris, HasShinesType) {
  EXPECT_EQ(typeToString(load().def.type), "(h: Nat) -> (w: Nat) -> 3.(h + 4).w.f32 -> h.w.f32");
}

TEST(ShineHarris, TheInterpreterComputesHarrisResponse) {
  Harris H = load();
  for (auto [h, w] : std::vector<std::pair<int, int>>{{1, 5}, {3, 8}, {5, 11}}) {
    interp::SizeEnv s{{"h", h}, {"w", w}};
    std::vector<Value> img = randomImage(H.def, s, 11 + h);
    Value out = interp::evaluate(H.def, s, img);
    std::vector<std::vector<double>> ref = reference(img[0], h, w);
    ASSERT_EQ(out.size(), static_cast<std::size_t>(h));
    for (int y = 0; y < h; ++y) {
      ASSERT_EQ(out[y].size(), static_cast<std::size_t>(w));
      for (int x = 0; x < w; ++x) {
        double v = out[y][x].asScalar().asDouble();
        if (x < w - 4)
          EXPECT_NEAR(v, ref[y][x], 1e-5 + 1e-4 * std::fabs(ref[y][x])) << y << "," << x;
        else
          EXPECT_EQ(v, 0.0) << "the interpreter shows the padding as zeros";
      }
    }
  }
}

TEST(ShineHarris, ItsCWithTheDefaultLoweringMatchesTheInterpreter) {
  Harris H = load();
  codegen::c::COptions opts{"harris", kFile, "test", ""};
  codegen::CompileResult result = codegen::compileToC(H.program, H.def, opts);
  fs::path dir = fs::temp_directory_path() / ("risec-shine-harris-" + std::to_string(::getpid()));
  std::vector<std::string> sizeNames = interp::sizeParameters(H.def);
  std::string log;
  ASSERT_EQ(buildKernel(dir, "harris", result.files, driverSource("harris", H.def, 2), "gcc",
                        defaultCFlags(), log),
            0)
      << log;
  float untouched;
  std::memset(&untouched, 0xAB, sizeof untouched);
  for (auto [h, w] : std::vector<std::pair<int, int>>{{1, 5}, {2, 6}, {3, 8}, {7, 13}}) {
    interp::SizeEnv s{{"h", h}, {"w", w}};
    std::vector<Value> img = randomImage(H.def, s, 5 + w);
    Value expected = interp::evaluate(H.def, s, img);
    std::string out;
    ASSERT_EQ(runDriver(dir, (dir / "gcc").string(), inputRecord(H.def, sizeNames, s, img), out), 0)
        << out;
    std::vector<std::string> tok = tokens(out);
    ASSERT_GE(tok.size(), 2u) << out;
    ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << out;
    std::size_t pos = 2;
    Value actual = unflatten(interp::instantiateEntry(H.def, s).outputType, tok, pos);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        float got = static_cast<float>(actual[y][x].asScalar().asDouble());
        double want = expected[y][x].asScalar().asDouble();
        if (x < w - 4)
          EXPECT_NEAR(got, want, 1e-6 + 1e-4 * std::fabs(want))
              << h << "x" << w << " " << y << "," << x;
        else
          EXPECT_EQ(std::memcmp(&got, &untouched, sizeof got), 0)
              << "padding " << y << "," << x << " written";
      }
  }
  fs::remove_all(dir);
}

} // namespace
