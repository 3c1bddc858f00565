// Tests of kernel spec loading and validation (driver/SpecLoader).
#include "driver/SpecLoader.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace risec;
using namespace risec::driver;
namespace fs = std::filesystem;

namespace {

const char* kChunks = "def chunks = depFun((n: Nat, m: Nat) => fun(xs: n.f32, ys: m.f32 =>\n"
                      "  makePair(xs |> split(32) |> map(reduce(add)(0.0f)))(ys)))\n";

class Spec : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("risec-spec-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    write("chunks.rise", kChunks);
    write("chunks.c.elevate", "lowerToC\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }

  /// Loads `yaml` and expects an error `code` at `line:col` whose message
  /// contains `fragment`.
  void expectError(const std::string& yaml, const std::string& code, int line, int col,
                   const std::string& fragment) {
    std::string path = write("k.yaml", yaml);
    try {
      loadSpec(path);
      FAIL() << "expected " << code << " for:\n" << yaml;
    } catch (const CompileError& e) {
      EXPECT_EQ(e.code(), code) << e.message();
      EXPECT_EQ(e.location().file->name, path);
      EXPECT_EQ(e.location().line, line) << e.message();
      EXPECT_EQ(e.location().column, col) << e.message();
      EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
    }
  }

  fs::path dir_;
};

const char* kGood = R"(kernel: chunks
source: chunks.rise
doc: Sums of 32-element chunks
variants:
  - target: c
    strategy: chunks.c.elevate
  - target: openmp
  - target: opencl
    launch: {global: [n/32], local: [8]}
    symbol: chunks_gpu
check:
  - {n: 64, m: 3}
  - {n: 0, m: 1}
)";

} // namespace

TEST_F(Spec, LoadsAValidSpec) {
  KernelSpec s = loadSpec(write("k.yaml", kGood));
  EXPECT_EQ(s.kernel, "chunks");
  EXPECT_EQ(s.entry, "chunks");
  EXPECT_EQ(s.doc, "Sums of 32-element chunks");
  EXPECT_EQ(s.sourcePath, (dir_ / "chunks.rise").lexically_normal().string());
  ASSERT_EQ(s.variants.size(), 3u);
  EXPECT_EQ(s.variants[0].symbol, "chunks_c");
  EXPECT_EQ(s.variants[0].strategyPath, (dir_ / "chunks.c.elevate").lexically_normal().string());
  EXPECT_EQ(s.variants[1].symbol, "chunks_openmp");
  EXPECT_TRUE(s.variants[1].strategyPath.empty());
  EXPECT_EQ(s.variants[2].symbol, "chunks_gpu");
  ASSERT_TRUE(s.variants[2].launch);
  EXPECT_EQ(rise::natToString(s.variants[2].launch->global.at(0)), "n/32");
  EXPECT_EQ(rise::natToString(s.variants[2].launch->local.at(0)), "8");
  ASSERT_EQ(s.checks.size(), 2u);
  EXPECT_EQ(s.checks[0].sizes.at("n"), 64);
  ASSERT_EQ(s.sizeParameters.size(), 2u);
  EXPECT_EQ(s.sizeParameters[1].name(), "m");
  EXPECT_EQ(s.typedEntry.preconditions.size(), 1u);
}

TEST_F(Spec, UnknownKeys) {
  expectError("kernel: chunks\nsource: chunks.rise\nsorce: x\nvariants: [{target: c}]\n", "E0802",
              3, 1, "unknown key `sorce` in the kernel spec");
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n  - target: c\n    strat: x\n",
              "E0802", 5, 5, "unknown key `strat` in a variant");
}

TEST_F(Spec, MissingKeysAndFiles) {
  expectError("kernel: chunks\nvariants: [{target: c}]\n", "E0803", 1, 1, "needs a `source` key");
  expectError("kernel: chunks\nsource: nope.rise\nvariants: [{target: c}]\n", "E0804", 2, 9,
              "`nope.rise`, which does not exist");
  expectError(
      "kernel: chunks\nsource: chunks.rise\nvariants:\n  - target: c\n    strategy: s.elevate\n",
      "E0804", 5, 15, "`s.elevate`, which does not exist");
  expectError("kernel: chunks\nsource: chunks.rise\nvariants: []\n", "E0814", 3, 11,
              "non-empty list");
}

TEST_F(Spec, BadTargetsAndNames) {
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n  - target: cuda\n", "E0805", 4, 13,
              "unknown target `cuda`");
  expectError("kernel: 2chunks\nsource: chunks.rise\nentry: chunks\nvariants: [{target: c}]\n",
              "E0806", 1, 9, "must be a C identifier");
  expectError("kernel: chunks\nsource: chunks.rise\nentry: sums\nvariants: [{target: c}]\n",
              "E0813", 3, 8, "no def named `sums`");
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n  - target: c\n  - target: c\n",
              "E0812", 5, 5, "both named `chunks_c`");
}

// A kernel named after a function that the generated files see would not
// compile (or, in C, would replace the library's function in the program).
TEST_F(Spec, SymbolsTheGeneratedFilesAlreadySee) {
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n"
              "  - target: opencl\n    symbol: dot\n",
              "E0806", 5, 13, "OpenCL C's built-in `dot`");
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n"
              "  - target: c\n    symbol: expf\n",
              "E0806", 5, 13, "the C library's `expf` (math.h)");
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n"
              "  - target: openmp\n    symbol: omp_sum\n",
              "E0806", 5, 13, "an OpenMP name");
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n"
              "  - target: opencl\n    symbol: vload_all\n",
              "E0806", 5, 13, "OpenCL C built-in family (vload*)");
  // `dot` is no C library function: a C variant may take it
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n"
              "  - target: c\n    symbol: dot\n  - target: opencl\n    symbol: dot\n",
              "E0806", 7, 13, "OpenCL C's built-in `dot`");
}

TEST_F(Spec, LaunchConfigurations) {
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n"
              "  - target: opencl\n    launch: {global: [k/32]}\n",
              "E0808", 5, 23, "unknown size variable `k`");
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n"
              "  - target: c\n    launch: {global: [n]}\n",
              "E0809", 5, 13, "only applies to opencl");
  expectError("kernel: chunks\nsource: chunks.rise\nvariants:\n"
              "  - target: opencl\n    launch: {global: [n], local: [8, 8]}\n",
              "E0807", 5, 34, "`local` has 2 dimensions but `global` has 1");
}

TEST_F(Spec, CheckSizes) {
  std::string head = "kernel: chunks\nsource: chunks.rise\nvariants: [{target: c}]\ncheck:\n";
  expectError(head + "  - {n: 64, k: 3}\n", "E0810", 5, 13, "`k` is not a size of `chunks`");
  expectError(head + "  - {n: 64}\n", "E0810", 5, 5, "no value for `m`");
  expectError(head + "  - {n: 64, m: -1}\n", "E0810", 5, 16, "non-negative integer");
  expectError(head + "  - {n: 30, m: 1}\n", "E0811", 5, 5, "violate the precondition n%32 == 0");
}

TEST_F(Spec, CompilerFlagsDefaultToO3WithContraction) {
  KernelSpec s = loadSpec(write("k.yaml", kGood));
  for (const VariantSpec& v : s.variants)
    EXPECT_EQ(v.cflags, (std::vector<std::string>{"-O3", "-ffp-contract=fast"})) << v.symbol;
  EXPECT_TRUE(s.cflags.empty());
}

TEST_F(Spec, CompilerFlagsOfTheSpecAndOfAVariant) {
  // The spec's list applies to every variant that has none of its own; a list
  // without an optimisation level gets -O3 first, one that does not choose
  // the contraction -ffp-contract=fast last; a variant's list replaces the
  // spec's.
  KernelSpec s = loadSpec(write("k.yaml", "kernel: chunks\nsource: chunks.rise\n"
                                          "cflags: [-march=x86-64-v3, -funroll-loops]\n"
                                          "variants:\n"
                                          "  - target: c\n"
                                          "  - target: openmp\n"
                                          "    cflags: [-fno-unroll-loops, -O2, -mtune=znver4]\n"
                                          "  - target: opencl\n"
                                          "    cflags: [-Os]\n"
                                          "  - target: c\n"
                                          "    symbol: chunks_o0\n"
                                          "    cflags:\n"
                                          "      - -O0\n"
                                          "      - -ffp-contract=off\n"));
  using Flags = std::vector<std::string>;
  EXPECT_EQ(s.cflags, (Flags{"-march=x86-64-v3", "-funroll-loops"}));
  ASSERT_EQ(s.variants.size(), 4u);
  EXPECT_EQ(s.variants[0].cflags,
            (Flags{"-O3", "-march=x86-64-v3", "-funroll-loops", "-ffp-contract=fast"}));
  EXPECT_EQ(s.variants[1].cflags,
            (Flags{"-fno-unroll-loops", "-O2", "-mtune=znver4", "-ffp-contract=fast"}));
  EXPECT_EQ(s.variants[2].cflags, (Flags{"-Os", "-ffp-contract=fast"}));
  EXPECT_EQ(s.variants[3].cflags, (Flags{"-O0", "-ffp-contract=off"}));
  // An empty list is the default.
  s = loadSpec(write("k.yaml", "kernel: chunks\nsource: chunks.rise\ncflags: []\n"
                               "variants: [{target: c}]\n"));
  EXPECT_EQ(s.variants[0].cflags, (Flags{"-O3", "-ffp-contract=fast"}));
  // Contraction is a choice of the spec too.
  s = loadSpec(write("k.yaml", "kernel: chunks\nsource: chunks.rise\ncflags: [-ffp-contract=on]\n"
                               "variants: [{target: c}]\n"));
  EXPECT_EQ(s.variants[0].cflags, (Flags{"-O3", "-ffp-contract=on"}));
}

TEST_F(Spec, CompilerFlagsOutsideTheAllowListAreRejected) {
  std::string head = "kernel: chunks\nsource: chunks.rise\n";
  std::string variants = "variants: [{target: c}]\n";
  expectError(head + "cflags: [-O3, -Ofast]\n" + variants, "E0815", 3, 15,
              "`-Ofast` lets the compiler change floating-point results");
  expectError(head + "cflags: [-ffast-math]\n" + variants, "E0815", 3, 10, "floating-point");
  expectError(head + "cflags: [-funsafe-math-optimizations]\n" + variants, "E0815", 3, 10,
              "floating-point");
  expectError(head + "cflags: [-Werror]\n" + variants, "E0815", 3, 10,
              "warnings are the choice of the project");
  expectError(head + "cflags: [-DNDEBUG]\n" + variants, "E0815", 3, 10,
              "`-DNDEBUG` is not a flag a spec may set; `cflags` takes only -O0");
  expectError(head + "cflags: [\"-O3 -g\"]\n" + variants, "E0815", 3, 10, "not a flag");
  expectError(head + "cflags: [-march=]\n" + variants, "E0815", 3, 10, "a CPU name is");
  expectError(head + "cflags: [\"-march=native;-g\"]\n" + variants, "E0815", 3, 10,
              "a CPU name is");
  expectError(head + "variants:\n  - target: c\n    cflags: [-O2, -fopenmp]\n", "E0815", 5, 19,
              "`-fopenmp` is not a flag a spec may set");
  // Two flags that set the same thing.
  expectError(head + "cflags: [-O2, -funroll-loops, -O3]\n" + variants, "E0816", 3, 31,
              "`-O2` and `-O3` both set the optimisation level; keep one");
  expectError(head + "variants:\n  - target: c\n    cflags: [-march=x86-64-v3, -march=native]\n",
              "E0816", 5, 32, "both set the CPU (-march)");
  // Shapes.
  expectError(head + "cflags: -O2\n" + variants, "E0807", 3, 9, "`cflags` is a list");
  expectError(head + "cflags: [[-O2]]\n" + variants, "E0807", 3, 10, "a compiler flag");
}

TEST_F(Spec, IsaLevelsOfTheSpecAndOfAVariant) {
  using Isas = std::vector<std::string>;
  // The spec's `isas` apply to its c and openmp variants, not to opencl; a
  // variant's own replace them; the baseline x86-64 is always first, the
  // levels in order whatever the order written.
  KernelSpec s = loadSpec(write("k.yaml", "kernel: chunks\nsource: chunks.rise\n"
                                          "isas: [x86-64-v4, x86-64-v2]\n"
                                          "variants:\n"
                                          "  - target: c\n"
                                          "  - target: openmp\n"
                                          "    isas: [x86-64-v3, x86-64]\n"
                                          "  - target: opencl\n"));
  EXPECT_EQ(s.isas, (Isas{"x86-64", "x86-64-v2", "x86-64-v4"}));
  EXPECT_EQ(s.variants[0].isas, (Isas{"x86-64", "x86-64-v2", "x86-64-v4"}));
  EXPECT_EQ(s.variants[1].isas, (Isas{"x86-64", "x86-64-v3"}));
  EXPECT_TRUE(s.variants[2].isas.empty());
  EXPECT_EQ(isaSuffix("x86-64-v3"), "x86_64_v3");
  // No `isas`: no dispatch.
  s = loadSpec(write("k.yaml", "kernel: chunks\nsource: chunks.rise\nvariants:\n  - target: c\n"));
  EXPECT_TRUE(s.variants[0].isas.empty());
}

TEST_F(Spec, BadIsaLevelsAreLocatedErrors) {
  std::string head = "kernel: chunks\nsource: chunks.rise\n";
  std::string variants = "variants:\n  - target: c\n";
  expectError(head + "isas: [x86-64-v5]\n" + variants, "E0817", 3, 8,
              "unknown ISA level `x86-64-v5`; the levels are x86-64, x86-64-v2, x86-64-v3, "
              "x86-64-v4");
  expectError(head + "isas: [avx2]\n" + variants, "E0817", 3, 8, "unknown ISA level `avx2`");
  expectError(head + "isas: [x86-64-v3, x86-64-v3]\n" + variants, "E0817", 3, 19, "listed twice");
  expectError(head + "isas: x86-64-v3\n" + variants, "E0817", 3, 7, "non-empty list");
  expectError(head + "isas: []\n" + variants, "E0817", 3, 7, "non-empty list");
  expectError(head + "variants:\n  - target: opencl\n    isas: [x86-64-v3]\n", "E0818", 5, 11,
              "only applies to c and openmp variants");
  expectError(head + "variants:\n  - target: c\n    cflags: [-march=native]\n"
                     "    isas: [x86-64-v3]\n",
              "E0818", 6, 11, "also sets `-march=native`");
  // The spec's -march with the spec's isas: located at the variant.
  expectError(head + "cflags: [-march=native]\nisas: [x86-64-v3]\n" + variants, "E0818", 6, 5,
              "remove the -march from `cflags`");
}

TEST_F(Spec, InvalidYaml) {
  expectError("kernel: [unclosed\n", "E0801", 2, 1, "invalid YAML");
  expectError("- just\n- a list\n", "E0801", 1, 1, "YAML mapping");
}

TEST_F(Spec, ErrorsInTheProgramPointIntoTheProgram) {
  write("bad.rise", "def chunks = fun(x: f32 => y)\n");
  std::string path = write("k.yaml", "kernel: chunks\nsource: bad.rise\nvariants: [{target: c}]\n");
  try {
    loadSpec(path);
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0201");
    EXPECT_EQ(e.location().file->name, (dir_ / "bad.rise").lexically_normal().string());
  }
}

namespace {

/// A spec whose c variant's strategy has parameters (docs/strategies.md,
/// "Parameters"): `s` splits, `w` is only constrained.
const char* kParamStrategy = "param s = 4 in [2, 4, 8]\n"
                             "param w = 8 in [4, 8, 16]\n"
                             "require w <= vector_lanes\n"
                             "require n % s == 0\n"
                             "lowerToC\n";

} // namespace

TEST_F(Spec, StrategyParametersPerVariantAndPerIsaLevel) {
  write("p.elevate", kParamStrategy);
  KernelSpec s = loadSpec(write("k.yaml", R"(kernel: chunks
source: chunks.rise
variants:
  - target: c
    strategy: p.elevate
    params: {s: 8}
    isas:
      - {isa: x86-64, params: {w: 4}}
      - x86-64-v3
      - isa: x86-64-v4
        params: {w: 16, s: 2}
bench: {n: 1024, m: 3}
)"));
  const VariantSpec& v = s.variants.at(0);
  EXPECT_EQ(v.isas, (std::vector<std::string>{"x86-64", "x86-64-v3", "x86-64-v4"}));
  EXPECT_EQ(v.params, (std::map<std::string, std::int64_t>{{"s", 8}}));
  // The variant's values, then the level's, then the level's machine facts.
  auto base = v.strategyBindings("x86-64");
  EXPECT_EQ(base.at("s"), 8);
  EXPECT_EQ(base.at("w"), 4);
  EXPECT_EQ(base.at("vector_lanes"), 4);
  auto v3 = v.strategyBindings("x86-64-v3");
  EXPECT_EQ(v3.at("s"), 8);
  EXPECT_FALSE(v3.count("w")); // the strategy's default
  EXPECT_EQ(v3.at("vector_lanes"), 8);
  auto v4 = v.strategyBindings("x86-64-v4");
  EXPECT_EQ(v4.at("s"), 2);
  EXPECT_EQ(v4.at("w"), 16);
  EXPECT_EQ(v4.at("vector_registers"), 32);
  // The single function of a variant without levels gets no machine facts.
  EXPECT_FALSE(v.strategyBindings("").count("vector_lanes"));
  ASSERT_TRUE(s.bench.has_value());
  EXPECT_EQ(s.bench->sizes.at("n"), 1024);
}

TEST_F(Spec, SpecLevelIsaParametersReachEveryCAndOpenMPVariant) {
  write("p.elevate", kParamStrategy);
  KernelSpec s = loadSpec(write("k.yaml", R"(kernel: chunks
source: chunks.rise
isas: [{isa: x86-64-v3, params: {w: 8}}]
variants:
  - target: c
    strategy: p.elevate
  - target: openmp
    strategy: p.elevate
    symbol: chunks_omp
)"));
  for (const VariantSpec& v : s.variants)
    EXPECT_EQ(v.strategyBindings("x86-64-v3").at("w"), 8) << v.symbol;
}

TEST_F(Spec, BadStrategyParametersAreLocatedErrors) {
  write("p.elevate", kParamStrategy);
  const std::string head = "kernel: chunks\nsource: chunks.rise\nvariants:\n  - target: c\n";
  expectError(head + "    strategy: p.elevate\n    params: {s: 2, vw: 4}\n", "E0827", 6, 20,
              "has no parameter `vw`; its parameters are s, w");
  expectError(head + "    strategy: p.elevate\n    params: {s: two}\n", "E0827", 6, 17,
              "needs a non-negative integer, not `two`");
  // 0 is a value (a strategy may switch a step off with it); -1 is not
  expectError(head + "    strategy: p.elevate\n    params: {s: -1}\n", "E0827", 6, 17,
              "non-negative integer, not `-1`");
  expectError(head + "    strategy: p.elevate\n    params: [4]\n", "E0827", 6, 13,
              "maps strategy parameters to values");
  expectError(head + "    params: {s: 2}\n", "E0827", 5, 14, "this variant has no `strategy:`");
  expectError(head +
                  "    strategy: chunks.c.elevate\n    isas: [{isa: x86-64-v3, params: {s: 2}}]\n",
              "E0827", 6, 38, "it declares none");
  expectError(head + "    strategy: p.elevate\n    isas: [{level: x86-64-v3}]\n", "E0802", 6, 13,
              "unknown key `level` in an `isas` entry");
  expectError(head + "    strategy: p.elevate\nbench: {n: 64}\n", "E0810", 6, 8,
              "no value for `m`");
  // A requirement naming something unknown is located in the strategy file.
  std::string q = write("q.elevate", "param s = 4\nrequire s <= lanes\nlowerToC\n");
  try {
    loadSpec(write("k.yaml", head + "    strategy: q.elevate\n"));
    FAIL() << "expected E0827";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0827");
    EXPECT_EQ(fs::path(e.location().file->name), fs::path(q).lexically_normal());
    EXPECT_EQ(e.location().line, 2);
    EXPECT_NE(e.message().find("names `lanes`, which is no parameter"), std::string::npos)
        << e.message();
  }
}
