// The matrix-multiplication ladder, run (issue 4): every step of
// specs/mm.*.elevate is compiled to C, built with gcc -O2 together with a
// driver (tests/support/CKernelRunner.h) and run at m x n x k = 64x64x64,
// 100x70x33, 256x256x256, 1x1x1, 33x31x37 and 31x1x0 (mm's size parameters
// are (m, n, k), A is m.k, B is k.n, C is m.n). Results are compared with
//   - a triple loop with double accumulation in this file (every size),
//   - the reference interpreter on the high-level mm (64^3 and 100x70x33;
//     256^3 is too slow for it),
//   - the C of the baseline step (every size).
// Every step takes every size: the blocks of 32 are padded (padTile) and the
// tail of the reduction peeled (peelReduce), so no step records a
// precondition.
#include "CKernelRunner.h"
#include "MmLadder.h"
#include "rise/interp/ValueIO.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

using namespace risec;
using namespace risec::testsupport;
using risec::rise::interp::Value;
namespace fs = std::filesystem;

namespace {

constexpr double kRelativeTolerance = 1e-4;

struct Size {
  std::int64_t m, n, k;
  std::string text() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  }
};

const std::vector<Size> kSizes = {{64, 64, 64}, {100, 70, 33}, {256, 256, 256},
                                  {1, 1, 1},    {33, 31, 37},  {31, 1, 0}};

struct Problem {
  Size size;
  std::vector<float> a, b;          ///< row-major m.k and k.n
  std::vector<double> c, magnitude; ///< the product and sum |a*b| per element
  std::vector<Value> inputs;
};

Problem makeProblem(const Size& s) {
  Problem p{s, {}, {}, {}, {}, {}};
  std::mt19937_64 rng(static_cast<std::uint64_t>(s.m * 1000003 + s.n * 1009 + s.k));
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (std::int64_t i = 0; i < s.m * s.k; ++i)
    p.a.push_back(dist(rng));
  for (std::int64_t i = 0; i < s.k * s.n; ++i)
    p.b.push_back(dist(rng));
  p.c.assign(s.m * s.n, 0.0);
  p.magnitude.assign(s.m * s.n, 0.0);
  for (std::int64_t i = 0; i < s.m; ++i)
    for (std::int64_t j = 0; j < s.n; ++j)
      for (std::int64_t l = 0; l < s.k; ++l) {
        double x = static_cast<double>(p.a[i * s.k + l]) * p.b[l * s.n + j];
        p.c[i * s.n + j] += x;
        p.magnitude[i * s.n + j] += std::fabs(x);
      }
  auto matrix = [](const std::vector<float>& v, std::int64_t rows, std::int64_t cols) {
    std::vector<Value> rs;
    for (std::int64_t i = 0; i < rows; ++i) {
      std::vector<Value> row;
      for (std::int64_t j = 0; j < cols; ++j)
        row.push_back(
            Value::scalar(rise::ScalarValue::makeFloat(rise::ScalarKind::F32, v[i * cols + j])));
      rs.push_back(Value::array(std::move(row)));
    }
    return Value::array(std::move(rs));
  };
  p.inputs = {matrix(p.a, s.m, s.k), matrix(p.b, s.k, s.n)};
  return p;
}

rise::interp::SizeEnv sizeEnv(const Size& s) {
  return {{"m", s.m}, {"n", s.n}, {"k", s.k}};
}

/// Where `actual` differs from `expected` beyond the tolerance (relative to
/// the magnitude of the products summed), or "".
std::string difference(const std::vector<double>& actual, const std::vector<double>& expected,
                       const std::vector<double>& magnitude, const Size& s) {
  if (actual.size() != expected.size())
    return "has " + std::to_string(actual.size()) + " elements instead of " +
           std::to_string(expected.size());
  for (std::size_t e = 0; e < actual.size(); ++e)
    if (!(std::fabs(actual[e] - expected[e]) <= kRelativeTolerance * (magnitude[e] + 1e-6)))
      return "C[" + std::to_string(e / s.n) + "][" + std::to_string(e % s.n) +
             "] = " + std::to_string(actual[e]) + ", expected " + std::to_string(expected[e]);
  return "";
}

/// Runs the driver on `input`: it must return 0 and print "rc 0" and the
/// elements of C, which are appended to `c`.
void runToCompletion(const fs::path& dir, const std::string& exe, const std::string& input,
                     std::vector<double>& c) {
  std::string out;
  ASSERT_EQ(runDriver(dir, exe, input, out), 0) << out.substr(0, 2000);
  std::vector<std::string> tok = tokens(out);
  ASSERT_GE(tok.size(), 2u) << out.substr(0, 2000);
  ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << out.substr(0, 2000);
  for (std::size_t i = 2; i < tok.size(); ++i)
    c.push_back(std::strtod(tok[i].c_str(), nullptr));
}

class CodegenCLadderRun : public ::testing::TestWithParam<std::string> {};

struct Result {
  int rc = -1;
  std::vector<double> c;
};

/// The baseline's C results per size, for the steps after it.
std::map<std::string, std::vector<double>>& baselineResults() {
  static std::map<std::string, std::vector<double>> r;
  return r;
}

const Problem& problem(const Size& s) {
  static std::map<std::string, Problem> problems;
  auto it = problems.find(s.text());
  if (it == problems.end())
    it = problems.emplace(s.text(), makeProblem(s)).first;
  return it->second;
}

/// The interpreter's result for the high-level mm, per size.
const std::vector<double>& interpreted(const rise::TypedDef& mm, const Size& s) {
  static std::map<std::string, std::vector<double>> results;
  auto it = results.find(s.text());
  if (it == results.end()) {
    Value v = rise::interp::evaluate(mm, sizeEnv(s), problem(s).inputs);
    std::vector<double> flat;
    for (const Value& row : v.elements())
      for (const Value& x : row.elements())
        flat.push_back(x.asScalar().f);
    it = results.emplace(s.text(), flat).first;
  }
  return it->second;
}

TEST_P(CodegenCLadderRun, IsNumericallyCorrect) {
  const std::string step = GetParam(), symbol = mmLadderSymbol(step);
  MmLadderKernel kernel = compileMmLadderStep(step);
  const rise::TypedDef& def = kernel.rewritten;
  std::vector<std::string> sizeNames = rise::interp::sizeParameters(def);
  ASSERT_EQ(sizeNames, (std::vector<std::string>{"m", "n", "k"}));

  fs::path dir =
      fs::temp_directory_path() / ("risec-ladder-" + std::to_string(::getpid()) + "-" + symbol);
  std::string log;
  ASSERT_EQ(buildKernel(dir, symbol, kernel.compiled.files, driverSource(symbol, def, 3), "gcc",
                        std::string("-std=c11 -Wall -Wextra -Werror -O2") +
                            (mmLadderTarget(step) == "openmp" ? " -fopenmp" : ""),
                        log),
            0)
      << "gcc failed on the C of " << step << ":\n"
      << log;
  std::string exe = (dir / "gcc").string();

  const rise::TypedDef& mm = kernel.original; // the interpreter runs the high-level program
  for (const Size& s : kSizes) {
    SCOPED_TRACE(step + " at m x n x k = " + s.text());
    const Problem& p = problem(s);
    std::string out;
    bool recorded = true; // the rewritten program's recorded size preconditions hold
    try {
      rise::interp::instantiateEntry(def, sizeEnv(s));
    } catch (const std::exception&) {
      recorded = false;
    }
    // every step takes any size (issue 18: padTile for m and n, peelReduce
    // for k): a precondition recorded by a strategy is a regression
    EXPECT_TRUE(recorded) << step << " records a precondition that " << s.text()
                          << " does not meet";
    std::vector<double> c;
    runToCompletion(dir, exe, inputRecord(def, sizeNames, sizeEnv(s), p.inputs), c);
    if (HasFatalFailure())
      return;
    std::string why = difference(c, p.c, p.magnitude, s);
    EXPECT_EQ(why, "") << "compared with the triple loop";
    if (s.m * s.n * s.k <= 64 * 64 * 64 * 2) {
      why = difference(c, interpreted(mm, s), p.magnitude, s);
      EXPECT_EQ(why, "") << "compared with the interpreter";
    }
    if (step == "baseline") {
      baselineResults()[s.text()] = c;
    } else if (baselineResults().count(s.text())) {
      why = difference(c, baselineResults()[s.text()], p.magnitude, s);
      EXPECT_EQ(why, "") << "compared with the baseline's C";
    }
  }
  if (!HasFailure())
    fs::remove_all(dir);
}

// Beyond the ladder: the register tiles (specs/mm.register-tiles.elevate and
// its OpenMP form, their default AVX-512 binding: groups of 64 rows, 8 x 32
// tiles, the loop over k blocked by 256) take any size, padding the last
// group and panel (padTile): sizes that no tile divides, a single element, no
// rows, and an empty reduction; whole chunks of k with a tail (300), whole
// chunks only (512), and the tail only (k < 256). Compiled for baseline
// x86-64 (the 16-lane vectors split by gcc), so they run on any machine.
class CodegenCRegisterTiles : public ::testing::TestWithParam<std::string> {};

TEST_P(CodegenCRegisterTiles, AnySizeMatchesTheTripleLoop) {
  const std::string step = GetParam(), symbol = mmLadderSymbol(step);
  MmLadderKernel kernel = compileMmLadderStep(step);
  const rise::TypedDef& def = kernel.rewritten;
  std::vector<std::string> sizeNames = rise::interp::sizeParameters(def);
  fs::path dir =
      fs::temp_directory_path() / ("risec-ladder-" + std::to_string(::getpid()) + "-" + symbol);
  std::string log;
  ASSERT_EQ(buildKernel(dir, symbol, kernel.compiled.files, driverSource(symbol, def, 3), "gcc",
                        std::string("-std=c11 -Wall -Wextra -Werror -O2") +
                            (mmLadderTarget(step) == "openmp" ? " -fopenmp" : ""),
                        log),
            0)
      << log;
  std::string exe = (dir / "gcc").string();
  for (const Size& s : std::vector<Size>{{257, 131, 97},
                                         {1, 1, 1},
                                         {37, 19, 5},
                                         {65, 33, 0},
                                         {0, 7, 3},
                                         {64, 32, 64},
                                         {70, 40, 300},
                                         {33, 40, 512}}) {
    SCOPED_TRACE(step + " at m x n x k = " + s.text());
    const Problem& p = problem(s);
    std::vector<double> c;
    runToCompletion(dir, exe, inputRecord(def, sizeNames, sizeEnv(s), p.inputs), c);
    if (HasFatalFailure())
      return;
    EXPECT_EQ(difference(c, p.c, p.magnitude, s), "") << "compared with the triple loop";
    if (s.m * s.n * s.k <= 64 * 64 * 64) {
      EXPECT_EQ(difference(c, interpreted(kernel.original, s), p.magnitude, s), "")
          << "compared with the interpreter";
    }
  }
  if (!HasFailure())
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Strategies, CodegenCRegisterTiles,
                         ::testing::Values("register-tiles", "register-tiles-parallel"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return mmLadderSymbol(info.param);
                         });

std::string stepName(const ::testing::TestParamInfo<std::string>& info) {
  return mmLadderSymbol(info.param);
}

INSTANTIATE_TEST_SUITE_P(Steps, CodegenCLadderRun, ::testing::ValuesIn(mmLadderSteps()), stepName);

} // namespace
