// `risec generate --isas` (driver/IsaRequest.h, docs/usage.md, "ISA
// variants"): the levels a list resolves to (the baseline always first,
// `native` the CPU's own level, E0819 for anything else), which variants
// get them (only those whose spec names no `isas:`), and the command line:
// a bad list writes nothing, a good one dispatches the variants.
#include "../support/CKernelRunner.h"
#include "../support/Process.h"
#include "../support/TestFiles.h"

#include "driver/IsaRequest.h"
#include "driver/SpecLoader.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace risec;
using namespace risec::driver;
namespace fs = std::filesystem;

namespace {

using Levels = std::vector<std::string>;

const char* kChunks = "def chunks = depFun((n: Nat, m: Nat) => fun(xs: n.f32, ys: m.f32 =>\n"
                      "  makePair(xs |> split(32) |> map(reduce(add)(0.0f)))(ys)))\n";

/// No `isas:` anywhere: c, openmp, opencl, and a c variant that sets its CPU.
const char* kPlain = R"(kernel: chunks
source: chunks.rise
variants:
  - target: c
  - target: openmp
  - target: opencl
    launch: {global: [n/32]}
  - target: c
    symbol: chunks_c_native
    cflags: [-march=native]
)";

/// `isas:` on the spec, and its own on the openmp variant.
const char* kWithIsas = R"(kernel: sums
source: chunks.rise
entry: chunks
isas: [x86-64-v2]
variants:
  - target: c
  - target: openmp
    isas: [x86-64-v4]
)";

class IsaRequest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("risec-isa-request-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("chunks.rise", kChunks);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }

  fs::path dir_;
};

/// The E0819 error of resolveIsaRequest(list), or "" if none.
std::string errorOf(const std::string& list) {
  try {
    resolveIsaRequest(list);
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0819") << e.message();
    return e.message();
  }
  return "";
}

} // namespace

TEST(IsaRequestResolve, LevelsInOrderWithTheBaselineFirst) {
  EXPECT_EQ(resolveIsaRequest("x86-64-v3"), (Levels{"x86-64", "x86-64-v3"}));
  EXPECT_EQ(resolveIsaRequest("x86-64-v4,x86-64-v2"), (Levels{"x86-64", "x86-64-v2", "x86-64-v4"}));
  EXPECT_EQ(resolveIsaRequest("x86-64-v3, x86-64-v3,x86-64"), (Levels{"x86-64", "x86-64-v3"}));
}

TEST(IsaRequestResolve, NothingAboveTheBaselineMeansNoDispatch) {
  EXPECT_EQ(resolveIsaRequest(""), Levels{});
  EXPECT_EQ(resolveIsaRequest("x86-64"), Levels{});
}

TEST(IsaRequestResolve, UnknownLevelIsE0819ListingTheLevels) {
  std::string message = errorOf("x86-64-v3,avx2");
  EXPECT_NE(message.find("`avx2`"), std::string::npos) << message;
  for (const char* valid : {"x86-64,", "x86-64-v2", "x86-64-v3", "x86-64-v4", "native"})
    EXPECT_NE(message.find(valid), std::string::npos) << message;
  EXPECT_NE(errorOf("x86-64-v5"), "");
  EXPECT_NE(errorOf("x86-64-v3,"), "");
  EXPECT_NE(errorOf("none"), "");
}

TEST(IsaRequestResolve, NativeIsTheLevelOfThisCpu) {
  std::string level = nativeIsaLevel();
#if defined(__x86_64__)
  ASSERT_NE(level, "");
  // Supported (by the compiler's own test of the level where it has one),
  // and the best: a level the compiler says the CPU has is at most `level`.
  EXPECT_TRUE(testsupport::cpuSupportsIsa(level)) << level;
  const Levels& all = isaLevels();
  auto at = std::find(all.begin(), all.end(), level);
  ASSERT_NE(at, all.end());
  for (auto above = at + 1; above != all.end(); ++above)
    EXPECT_FALSE(testsupport::cpuSupportsIsa(*above)) << "native is " << level;
  Levels want = level == "x86-64" ? Levels{} : Levels{"x86-64", level};
  EXPECT_EQ(resolveIsaRequest("native"), want);
  // native and other levels: their union.
  Levels withV2 = resolveIsaRequest("native,x86-64-v2");
  EXPECT_EQ(withV2.front(), "x86-64");
  EXPECT_NE(std::find(withV2.begin(), withV2.end(), "x86-64-v2"), withV2.end());
  EXPECT_EQ(withV2.back(), level == "x86-64" ? "x86-64-v2" : level);
#else
  EXPECT_EQ(level, "");
  EXPECT_EQ(resolveIsaRequest("native"), Levels{});
#endif
}

TEST_F(IsaRequest, OnlyVariantsWithoutIsasFromTheSpecGetTheLevels) {
  std::vector<KernelSpec> specs = {loadSpec(write("plain.yaml", kPlain)),
                                   loadSpec(write("isas.yaml", kWithIsas))};
  const Levels levels = {"x86-64", "x86-64-v3"};
  applyIsaRequest(specs, levels);
  const std::vector<VariantSpec>& plain = specs[0].variants;
  EXPECT_EQ(plain[0].isas, levels);   // c
  EXPECT_EQ(plain[1].isas, levels);   // openmp
  EXPECT_EQ(plain[2].isas, Levels{}); // opencl: compiled by the OpenCL driver
  EXPECT_EQ(plain[3].isas, Levels{}); // -march=native: the spec chose its CPU
  EXPECT_FALSE(plain[0].isasFromSpec);
  const std::vector<VariantSpec>& own = specs[1].variants;
  EXPECT_EQ(own[0].isas, (Levels{"x86-64", "x86-64-v2"})); // the spec's `isas:` win
  EXPECT_EQ(own[1].isas, (Levels{"x86-64", "x86-64-v4"})); // the variant's
  EXPECT_TRUE(own[0].isasFromSpec);
  EXPECT_TRUE(own[1].isasFromSpec);
}

TEST_F(IsaRequest, NoLevelAboveTheBaselineChangesNothing) {
  std::vector<KernelSpec> specs = {loadSpec(write("plain.yaml", kPlain))};
  applyIsaRequest(specs, {});
  applyIsaRequest(specs, {"x86-64"});
  for (const VariantSpec& v : specs[0].variants)
    EXPECT_EQ(v.isas, Levels{}) << v.symbol;
}

TEST_F(IsaRequest, GenerateWithIsas) {
  std::string spec = write("plain.yaml", kPlain);
  fs::path out = dir_ / "out";
  test::ProcessResult bad = test::runProcess(
      {RISEC_BINARY, "generate", spec, "-o", out.string(), "--isas", "x86-64-v3,sse9"});
  EXPECT_EQ(bad.exitCode, 1) << bad.err;
  EXPECT_NE(bad.err.find("E0819"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(out));

  test::ProcessResult good = test::runProcess({RISEC_BINARY, "generate", spec, "-o", out.string(),
                                               "--targets", "c", "--isas", "x86-64-v2"});
  ASSERT_EQ(good.exitCode, 0) << good.err;
  for (const char* f :
       {"chunks_c.c", "chunks_c_x86_64.c", "chunks_c_x86_64_v2.c", "chunks_c_native.c"})
    EXPECT_TRUE(fs::exists(out / f)) << f;
  EXPECT_FALSE(fs::exists(out / "chunks_c_native_x86_64.c"));
  std::string dispatcher = test::readFile(out / "chunks_c.c");
  EXPECT_NE(dispatcher.find("chunks_c_selected_isa"), std::string::npos);
  std::string manifest = test::readFile(out / "kernels.json");
  EXPECT_NE(manifest.find("-march=x86-64-v2"), std::string::npos);
}

TEST_F(IsaRequest, ALevelWhoseMachineFactsFailTheStrategysRequirementsIsLeftOut) {
  // A strategy written for 16 lanes, bound per level by no spec: --isas
  // v3,v4 keeps v4 (16 lanes) and leaves v3 (8) out with a warning; the
  // baseline is the variant's single function, checked against no facts.
  write("wide.elevate", "param vw = 16 in [4, 8, 16]\nrequire vw <= vector_lanes\nlowerToC\n");
  std::vector<KernelSpec> specs = {loadSpec(write("wide.yaml", R"(kernel: chunks
source: chunks.rise
variants:
  - target: c
    strategy: wide.elevate
  - target: openmp
    strategy: wide.elevate
    params: {vw: 8}
)"))};
  std::vector<std::string> warnings = applyIsaRequest(specs, {"x86-64", "x86-64-v3", "x86-64-v4"});
  const std::vector<VariantSpec>& v = specs[0].variants;
  EXPECT_EQ(v[0].isas, (Levels{"x86-64", "x86-64-v4"}));
  EXPECT_EQ(v[1].isas, (Levels{"x86-64", "x86-64-v3", "x86-64-v4"})); // 8 lanes fit both
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("`chunks_c` gets no x86-64-v3 function: the strategy's requirement "
                             "`vw <= vector_lanes` does not hold for vw = 16, vector_lanes = 8"),
            std::string::npos)
      << warnings[0];
  EXPECT_FALSE(v[0].strategyBindings("x86-64").count("vector_lanes"));
  EXPECT_EQ(v[0].strategyBindings("x86-64-v4").at("vector_lanes"), 16);
}
