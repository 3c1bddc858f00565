// `risec tune` (docs/tuning.md): the Z3 model against brute force, the spec
// writer's byte-exact edits, the checker, and one whole tune of a small mm.
#include "driver/KernelCompiler.h"
#include "driver/SpecLoader.h"
#include "driver/TuneCommand.h"
#include "support/Diagnostic.h"
#include "tune/Constraints.h"
#include "tune/Measure.h"
#include "tune/SpecWriter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

using namespace risec;
namespace fs = std::filesystem;

namespace {

fs::path specsDir() {
  return fs::path(RISEC_TEST_DATA) / ".." / "specs";
}

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeText(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

elevate::StrategyInterface interfaceOf(const std::string& name, const std::string& text) {
  return elevate::strategyInterface(std::make_shared<const SourceFile>(SourceFile{name, text}));
}

/// A fresh folder per test.
fs::path tempDir(const std::string& name) {
  fs::path d =
      fs::temp_directory_path() / ("risec-tune-test-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// ---- the constraint model ------------------------------------------------------------

TEST(TuneConstraints, MatchBruteForceOnTheRegisterTiles) {
  elevate::StrategyInterface iface =
      interfaceOf("mm.register-tiles.elevate", readText(specsDir() / "mm.register-tiles.elevate"));
  for (const char* level : {"x86-64", "x86-64-v3", "x86-64-v4"})
    for (std::int64_t size : {64, 96, 1024}) {
      tune::TuneProblem p;
      p.iface = iface;
      p.constants = driver::isaFacts(level);
      p.constants["m"] = size;
      p.constants["n"] = size;
      p.constants["k"] = size;
      std::vector<elevate::ParamValues> z3 = tune::solveCandidates(p);
      EXPECT_EQ(z3, tune::bruteForceCandidates(p)) << level << " " << size;
      EXPECT_FALSE(z3.empty()) << level << " " << size;
    }
}

TEST(TuneConstraints, MatchBruteForceWithDivisionSubtractionAndFixedParameters) {
  // `/` and `%` truncate like C, also on negative values; a divisor of 0
  // rejects the binding; `b` has no `in` list and stays at its binding.
  elevate::StrategyInterface iface =
      interfaceOf("t.elevate", R"(param a = 3 in [1, 2, 3, 4, 5, 6, 7]
param c = 2 in [1, 2, 3, 4]
param b = 2
require (a - 4) / (c - 2) + (a - 5) % c >= 0 - 1
require a * c <= n && (a < c) + 1 != 2 + (b > 5)
require n % (a + b) != 1
id
)");
  tune::TuneProblem p;
  p.iface = iface;
  p.constants = {{"n", 12}};
  p.fixed = {{"b", 3}};
  std::vector<elevate::ParamValues> z3 = tune::solveCandidates(p);
  EXPECT_EQ(z3, tune::bruteForceCandidates(p));
  EXPECT_FALSE(z3.empty());
  for (const elevate::ParamValues& b : z3)
    EXPECT_EQ(b.at("b"), 3);
  EXPECT_NE(tune::constraintsText(p).find("b in {3}"), std::string::npos);
}

TEST(TuneConstraints, UnknownNameIsLocated) {
  tune::TuneProblem p;
  p.iface = interfaceOf("t.elevate", "param a = 1 in [1, 2]\nrequire a <= q\nid\n");
  try {
    tune::solveCandidates(p);
    FAIL() << "expected E0833";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0833");
    EXPECT_EQ(e.location().line, 2);
  }
}

TEST(TuneConstraints, CandidatesNearestTheCurrentBindingComeFirst) {
  tune::TuneProblem p;
  p.iface = interfaceOf("t.elevate", "param a = 1 in [1, 2, 3]\nparam b = 2 in [1, 2]\nid\n");
  std::vector<elevate::ParamValues> c = tune::solveCandidates(p);
  ASSERT_EQ(c.size(), 6u);
  tune::nearestFirst(c, {{"a", 3}, {"b", 2}});
  std::vector<std::pair<std::int64_t, std::int64_t>> order;
  for (const elevate::ParamValues& v : c)
    order.push_back({v.at("a"), v.at("b")});
  // itself; one value changed (lexicographic among them); both changed
  EXPECT_EQ(order, (std::vector<std::pair<std::int64_t, std::int64_t>>{
                       {3, 2}, {1, 2}, {2, 2}, {3, 1}, {1, 1}, {2, 1}}));
}

// ---- the spec writer ---------------------------------------------------------------

const char* kSpec = R"(# head comment
kernel: mm
source: mm.rise
variants:
  - target: c
    strategy: mm.register-tiles.elevate   # trailing comment
    symbol: a_c
    isas:
      # a comment in the list
      - {isa: x86-64, params: {mr: 2, nr: 16, vw: 4}}
      - x86-64-v3
      - 'x86-64-v4'
  - target: c
    strategy: mm.register-tiles.elevate
    symbol: b_c
    isas: [x86-64, x86-64-v3]
  - target: c
    strategy: mm.register-tiles.elevate
    symbol: c_c
  - target: c
    strategy: mm.register-tiles.elevate
    symbol: d_c
    params: {mr: 2}  # kept
  - target: c
    strategy: mm.register-tiles.elevate
    symbol: e_c
    isas:
      - isa: x86-64
        params: {mr: 2, nr: 16, vw: 4}
check:
  - {m: 64, n: 64, k: 64}
)";

const tune::TunedParams kValues = {{"mb", 64}, {"nr", 16}, {"mr", 4}, {"vw", 4}};

std::string replacedOnce(std::string s, const std::string& from, const std::string& to) {
  std::size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

TEST(TuneSpecWriter, EditsOnlyTheEntry) {
  const std::string spec = kSpec;
  const std::string values = "{mb: 64, nr: 16, mr: 4, vw: 4}";
  EXPECT_EQ(tune::writeTunedParams(spec, 0, "x86-64", kValues, {}),
            replacedOnce(spec, "{isa: x86-64, params: {mr: 2, nr: 16, vw: 4}}",
                         "{isa: x86-64, params: " + values + "}"));
  EXPECT_EQ(tune::writeTunedParams(spec, 0, "x86-64-v3", kValues, {}),
            replacedOnce(spec, "      - x86-64-v3\n",
                         "      - {isa: x86-64-v3, params: " + values + "}\n"));
  EXPECT_EQ(tune::writeTunedParams(spec, 0, "x86-64-v4", kValues, {}),
            replacedOnce(spec, "'x86-64-v4'", "{isa: x86-64-v4, params: " + values + "}"));
  EXPECT_EQ(tune::writeTunedParams(spec, 1, "x86-64-v3", kValues, {}),
            replacedOnce(spec, "[x86-64, x86-64-v3]",
                         "[x86-64, {isa: x86-64-v3, params: " + values + "}]"));
  EXPECT_EQ(
      tune::writeTunedParams(spec, 2, "", kValues, {}),
      replacedOnce(spec, "    symbol: c_c\n", "    params: " + values + "\n    symbol: c_c\n"));
  // the line goes after `strategy:`, which comes before `symbol:`
  EXPECT_EQ(tune::writeTunedParams(spec, 3, "", kValues, {}),
            replacedOnce(spec, "params: {mr: 2}  # kept", "params: " + values + "  # kept"));
}

TEST(TuneSpecWriter, RefusesWhatItCannotEditSafely) {
  for (auto [variant, level] : {std::pair<std::size_t, std::string>{4, "x86-64"},
                                {2, "x86-64-v3"},  // no isas of its own
                                {1, "x86-64-v2"}}) // not listed
    try {
      tune::writeTunedParams(kSpec, variant, level, kValues, {});
      ADD_FAILURE() << "expected E0835 for variant " << variant;
    } catch (const CompileError& e) {
      EXPECT_EQ(e.code(), "E0835");
      EXPECT_NE(e.message().find("{mb: 64, nr: 16, mr: 4, vw: 4}"), std::string::npos)
          << e.message();
    }
}

TEST(TuneSpecWriter, TheEditedSpecLoadsWithTheValues) {
  fs::path dir = tempDir("writer");
  fs::copy_file(specsDir() / "mm.rise", dir / "mm.rise");
  fs::copy_file(specsDir() / "mm.register-tiles.elevate", dir / "mm.register-tiles.elevate");
  std::string spec = kSpec;
  spec = spec.substr(0, spec.find("  - target: c\n    strategy: mm.register-tiles.elevate\n    "
                                  "symbol: e_c")) +
         "check:\n  - {m: 64, n: 64, k: 64}\n";
  spec = tune::writeTunedParams(spec, 0, "x86-64-v3", kValues, {});
  spec = tune::writeTunedParams(spec, 2, "", kValues, {});
  writeText(dir / "t.yaml", spec);
  driver::KernelSpec loaded = driver::loadSpec((dir / "t.yaml").string());
  std::map<std::string, std::int64_t> want(kValues.begin(), kValues.end());
  EXPECT_EQ(loaded.variants.at(0).isaParams.at("x86-64-v3"), want);
  EXPECT_EQ(loaded.variants.at(2).params, want);
  fs::remove_all(dir);
}

// ---- the checker ---------------------------------------------------------------------

TEST(TuneMeasure, AWrongKernelIsCaught) {
  fs::path dir = tempDir("wrong");
  driver::KernelSpec spec = driver::loadSpec((specsDir() / "mm.yaml").string());
  codegen::c::COptions copts{"mm_wrong", "mm.rise", "test", "", codegen::Target::C};
  codegen::CompileResult r = driver::compileWithStrategy(spec.program, spec.typedEntry, "", copts);
  std::vector<std::map<std::string, std::int64_t>> sizes = {{{"m", 4}, {"n", 5}, {"k", 3}}};
  {
    tune::LoadedKernel good(dir / "good", r.files, {tune::defaultCompiler(), {"-O1"}});
    EXPECT_EQ(tune::checkAgainstInterpreter(good, spec.typedEntry, sizes).status,
              tune::CheckOutcome::Status::Correct);
  }
  // The same kernel with one output element off by one.
  std::string out = r.files.abi.withRole(codegen::AbiParam::Role::Output).front()->name;
  std::size_t ret = r.files.source.rfind("return 0;");
  ASSERT_NE(ret, std::string::npos);
  r.files.source.insert(ret, out + "[3] += 1.0f;\n");
  tune::LoadedKernel bad(dir / "bad", r.files, {tune::defaultCompiler(), {"-O1"}});
  tune::CheckOutcome o = tune::checkAgainstInterpreter(bad, spec.typedEntry, sizes);
  EXPECT_EQ(o.status, tune::CheckOutcome::Status::Wrong);
  EXPECT_NE(o.detail.find("element 3"), std::string::npos) << o.detail;
  fs::remove_all(dir);
}

// ---- a whole tune --------------------------------------------------------------------

TEST(TuneCommand, TunesASmallMmAndWritesTheWinnerBack) {
#if !defined(__x86_64__)
  GTEST_SKIP() << "ISA levels are x86-64 levels";
#endif
  fs::path dir = tempDir("e2e");
  fs::copy_file(specsDir() / "mm.rise", dir / "mm.rise");
  // The register tiles with fewer candidates.
  std::string strategy = readText(specsDir() / "mm.register-tiles.elevate");
  strategy =
      replacedOnce(strategy, "param mb = 64 in [32, 48, 64, 96, 128]", "param mb = 32 in [32, 64]");
  strategy =
      replacedOnce(strategy, "param nr = 32 in [8, 16, 24, 32, 64]", "param nr = 16 in [8, 16]");
  strategy = replacedOnce(strategy, "param mr = 8 in [2, 4, 6, 8, 16]", "param mr = 2 in [2, 4]");
  strategy = replacedOnce(strategy, "param vw = 16 in [4, 8, 16]", "param vw = 4 in [4, 8]");
  strategy =
      replacedOnce(strategy, "param kc = 256 in [64, 128, 256, 384, 512]", "param kc = 64 in [64]");
  strategy = replacedOnce(strategy, "param packa = 0 in [0, 1]", "param packa = 0 in [0]");
  writeText(dir / "tiles.elevate", strategy);
  const std::string spec = "# kept\nkernel: mm\nsource: mm.rise\nvariants:\n"
                           "  - target: c\n    strategy: tiles.elevate\n    symbol: mm_tiles_c\n"
                           "    isas:\n      - x86-64   # baseline\n      - x86-64-v4\n"
                           "bench: {m: 64, n: 64, k: 64}\n"
                           "check:\n  - {m: 1, n: 1, k: 1}\n  - {m: 64, n: 32, k: 9}\n";
  writeText(dir / "mm.yaml", spec);

  driver::TuneOptions opts;
  opts.spec = (dir / "mm.yaml").string();
  opts.variant = "mm_tiles_c";
  opts.isa = "x86-64";
  opts.budget = "60s";
  opts.runs = 1;
  std::ostringstream out;
  ASSERT_EQ(driver::runTune(opts, out), 0);
  EXPECT_NE(out.str().find("winner"), std::string::npos) << out.str();

  // The spec: only the x86-64 entry changed, to a binding the requirements admit.
  driver::KernelSpec loaded = driver::loadSpec(opts.spec);
  const driver::VariantSpec& v = loaded.variants.at(0);
  ASSERT_TRUE(v.isaParams.count("x86-64")) << readText(dir / "mm.yaml");
  const std::map<std::string, std::int64_t>& won = v.isaParams.at("x86-64");
  ASSERT_EQ(won.size(), 7u);
  std::string text = readText(dir / "mm.yaml");
  std::string entry = "{isa: x86-64, params: " +
                      tune::flowMapping({{"mb", won.at("mb")},
                                         {"nr", won.at("nr")},
                                         {"mr", won.at("mr")},
                                         {"vw", won.at("vw")},
                                         {"kblock", won.at("kblock")},
                                         {"kc", won.at("kc")},
                                         {"packa", won.at("packa")}}) +
                      "}";
  EXPECT_EQ(text, replacedOnce(spec, "x86-64   # baseline", entry + "   # baseline"));
  tune::TuneProblem p;
  p.iface = interfaceOf("tiles.elevate", strategy);
  p.constants = driver::isaFacts("x86-64");
  for (const char* s : {"m", "n", "k"})
    p.constants[s] = 64;
  EXPECT_TRUE(tune::admits(p, won));

  // The log names the CPU and every candidate.
  fs::path log = dir / "mm.mm_tiles_c.x86-64.tune.log";
  ASSERT_TRUE(fs::exists(log));
  std::string logText = readText(log);
  EXPECT_NE(logText.find("cpu: "), std::string::npos);
  std::string model;
  {
    std::ifstream cpu("/proc/cpuinfo");
    for (std::string line; std::getline(cpu, line);)
      if (line.rfind("model name", 0) == 0) {
        model = line.substr(line.find_first_not_of(" \t", line.find(':') + 1));
        break;
      }
  }
  if (!model.empty()) {
    EXPECT_NE(logText.find("cpu: " + model), std::string::npos) << logText;
  }
  EXPECT_NE(logText.find("ratio winner/current"), std::string::npos) << logText;
  EXPECT_EQ(logText.find("WRONG"), std::string::npos) << logText;

  // The chosen kernel is correct.
  codegen::c::COptions copts{"mm_won", "mm.rise", "test", "tiles.elevate", codegen::Target::C};
  codegen::CompileResult r = driver::compileWithStrategy(
      loaded.program, loaded.typedEntry, v.strategyPath, copts, v.strategyBindings("x86-64"));
  tune::LoadedKernel k(dir / "won", r.files, {tune::defaultCompiler(), {"-O1", "-march=x86-64"}});
  EXPECT_EQ(tune::checkAgainstInterpreter(k, loaded.typedEntry, {{{"m", 64}, {"n", 64}, {"k", 9}}})
                .status,
            tune::CheckOutcome::Status::Correct);

  // --no-write leaves the spec alone; an unknown variant lists the symbols.
  opts.noWrite = true;
  opts.budget = "1s";
  std::string before = readText(dir / "mm.yaml");
  std::ostringstream out2;
  driver::runTune(opts, out2);
  EXPECT_EQ(readText(dir / "mm.yaml"), before);
  opts.variant = "nope";
  try {
    driver::runTune(opts, out2);
    ADD_FAILURE() << "expected E0831";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0831");
    EXPECT_NE(e.message().find("mm_tiles_c"), std::string::npos);
  }
  fs::remove_all(dir);
}

} // namespace
