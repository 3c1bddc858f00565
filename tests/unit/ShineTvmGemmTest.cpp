// Shine's ICFP 2020 GEMM ladder (rise-lang/shine, src/main/scala/apps/
// tvmGemm.scala) as ported line by line in tests/shine/tvmGemm/*.elevate,
// applied to specs/mm.rise: each port rewrites mm, keeps its type (the
// blocked ports up to the preconditions of their blocks: 32 | m, 32 | n,
// 4 | k), agrees with the reference interpreter on random inputs at
// 64x64x64 and 96x64x32, and its C (OpenMP for par) built with gcc agrees
// with the interpreter at the same sizes.
#include "CKernelRunner.h"
#include "ElevateTestUtil.h"
#include "codegen/Compile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include <unistd.h>

using namespace risec;
using namespace risec::testutil;
using namespace risec::testsupport;
using risec::rise::interp::Value;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kPorts = {
    "baseline", "blocking", "vectorization", "loopPerm", "arrayPacking", "cacheBlocks", "par"};

const std::vector<rise::interp::SizeEnv> kSizes = {{{"m", 64}, {"n", 64}, {"k", 64}},
                                                   {{"m", 96}, {"n", 64}, {"k", 32}}};

std::string repoFile(const std::string& relative) {
  return readFile((fs::path(RISEC_TEST_DATA) / ".." / relative).string());
}

struct Port {
  Typed mm;
  std::string strategyFile;
  rise::TypedDef rewritten;
};

Port rewritePort(const std::string& name) {
  Port p{typed(repoFile("specs/mm.rise"), "specs/mm.rise"),
         "tests/shine/tvmGemm/" + name + ".elevate",
         {}};
  elevate::StrategyPtr s =
      elevate::loadStrategy(rise::makeSourceFile(p.strategyFile, repoFile(p.strategyFile)));
  p.rewritten = elevate::rewriteDef(p.mm.program, p.mm.def, *s);
  return p;
}

std::vector<Value> randomInputs(const rise::TypedDef& def, const rise::interp::SizeEnv& sizes,
                                std::uint64_t seed) {
  rise::interp::EntryInterface iface = rise::interp::instantiateEntry(def, sizes);
  std::mt19937_64 rng(seed);
  std::vector<Value> inputs;
  for (const rise::Type& t : iface.inputTypes)
    inputs.push_back(rise::interp::randomValue(t, rng));
  return inputs;
}

std::string sizeText(const rise::interp::SizeEnv& s) {
  return std::to_string(s.at("m")) + "x" + std::to_string(s.at("n")) + "x" +
         std::to_string(s.at("k"));
}

class ShineTvmGemm : public ::testing::TestWithParam<std::string> {};

TEST_P(ShineTvmGemm, KeepsTheTypeOfMm) {
  Port p = rewritePort(GetParam());
  std::string before = rise::typeToString(p.mm.def.type),
              after = rise::typeToString(p.rewritten.type);
  if (GetParam() == "baseline") {
    EXPECT_TRUE(rise::typeEqual(p.rewritten.type, p.mm.def.type)) << after;
    return;
  }
  // tile(32, 32) gives the rows and columns of C as 32*(m/32) and
  // 32*(n/32), equal to m and n under the preconditions it records
  EXPECT_EQ(after, "(m: Nat) -> (n: Nat) -> (k: Nat) -> m.k.f32 -> k.n.f32 -> "
                   "(32*(m/32)).(32*(n/32)).f32")
      << "mm is " << before;
  EXPECT_EQ(p.rewritten.preconditions.size(), 3u) << "m % 32, n % 32 and k % 4";
}

TEST_P(ShineTvmGemm, MatchesTheInterpreterOnRandomInputs) {
  Port p = rewritePort(GetParam());
  std::uint64_t seed = 7;
  for (const auto& sizes : kSizes)
    EXPECT_TRUE(sameResults(p.mm.def, p.rewritten, sizes, seed++))
        << GetParam() << " at m x n x k = " << sizeText(sizes);
}

TEST_P(ShineTvmGemm, CompiledToCMatchesTheInterpreter) {
  const std::string name = GetParam(), symbol = "mm_shine_" + name;
  const bool openmp = name == "par";
  Port p = rewritePort(name);
  rise::Program program = elevate::rewrittenProgram(p.mm.program, p.rewritten);
  codegen::CompileResult compiled =
      codegen::compileToC(program, p.rewritten,
                          {symbol, "specs/mm.rise", "golden", p.strategyFile,
                           *codegen::parseTarget(openmp ? "openmp" : "c")});
  fs::path dir =
      fs::temp_directory_path() / ("risec-shine-" + std::to_string(::getpid()) + "-" + symbol);
  std::string log;
  ASSERT_EQ(
      buildKernel(dir, symbol, compiled.files, driverSource(symbol, p.rewritten, 3), "gcc",
                  std::string("-std=c11 -Wall -Wextra -Werror -O2") + (openmp ? " -fopenmp" : ""),
                  log),
      0)
      << log;
  std::vector<std::string> sizeNames = rise::interp::sizeParameters(p.rewritten);
  std::uint64_t seed = 11;
  for (const auto& sizes : kSizes) {
    SCOPED_TRACE(name + " at m x n x k = " + sizeText(sizes));
    std::vector<Value> inputs = randomInputs(p.mm.def, sizes, seed++);
    Value want = rise::interp::evaluate(p.mm.def, sizes, inputs);
    std::string out;
    ASSERT_EQ(runDriver(dir, (dir / "gcc").string(),
                        inputRecord(p.rewritten, sizeNames, sizes, inputs), out),
              0)
        << out.substr(0, 2000);
    std::vector<std::string> tok = tokens(out);
    ASSERT_GE(tok.size(), 2u) << out.substr(0, 2000);
    ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << out.substr(0, 2000);
    std::size_t pos = 2;
    Value got = unflatten(rise::interp::instantiateEntry(p.mm.def, sizes).outputType, tok, pos);
    std::string why;
    EXPECT_TRUE(rise::interp::valuesClose(got, want, 1e-4, 1e-5, &why)) << why;
  }
  if (!HasFailure())
    fs::remove_all(dir);
}

// The strategies the ports added for Shine's names, on small programs.
const char* kPair = "def f = depFun((n: Nat, m: Nat) => fun(xs: n.m.f32 => fun(ys: m.f32 =>\n"
                    "  zip(xs |> transpose |> map(fun(c => reduce(add)(0.0f)(c))), "
                    "ys |> map(neg)) |> map(fun(p => fst(p) + snd(p))))))\n";

std::string body(const std::string& e) {
  return "def f = depFun((n: Nat, m: Nat) => fun(xs: n.m.f32 => fun(ys: m.f32 => " + e + ")))\n";
}

TEST(ShineStrategies, StoreInMemoryStoresTheRewrittenSubtermOnceUnderTheBinders) {
  Typed t = typed(kPair);
  rise::TypedDef r =
      rewrite(t, "storeInMemory(isApplied(isTranspose), splitJoin2(2) @ argument) @ inLambda");
  rise::Expr want = expected(body("let(toMem(xs |> split(2) |> join |> transpose))(fun(v => "
                                  "zip(v |> map(fun(c => reduce(add)(0.0f)(c))), ys |> map(neg)) "
                                  "|> map(fun(p => fst(p) + snd(p)))))"));
  EXPECT_TRUE(rise::alphaEquivalent(rules::stripImplicit(r.expr), want)) << printed(r);
  for (std::uint64_t seed = 0; seed < 5; ++seed)
    EXPECT_TRUE(sameResults(t.def, r, {{"n", 2 * (1 + seed % 3)}, {"m", 3}}, seed));
}

TEST(ShineStrategies, ArgumentFirstLocationsVisitTheArgumentBeforeTheFunction) {
  Typed t = typed(kPair);
  // zip(a)(b): the function side holds the map over the columns of xs, the
  // argument side the map over ys
  EXPECT_NE(
      printed(rewrite(t, "mapToSeq @ outermost(isApplied(isApplied(isMap)))")).find("mapSeq(fun(p"),
      std::string::npos);
  EXPECT_NE(
      printed(rewrite(t, "mapToSeq @ innermost(isApplied(isApplied(isMap)))")).find("mapSeq(fun(c"),
      std::string::npos);
  EXPECT_NE(printed(rewrite(t, "mapToSeq @ innermostArgFirst(isApplied(isApplied(isMap)))"))
                .find("mapSeq(neg)"),
            std::string::npos);
  EXPECT_NE(printed(rewrite(t, "mapToSeq @ outermostArgFirst(isApplied(isApplied(isMap)))"))
                .find("mapSeq(fun(p"),
            std::string::npos);
}

TEST(ShineStrategies, StoreInMemoryFailsWhereNothingMatches) {
  Typed t = typed(body("ys |> map(neg)"));
  EXPECT_THROW(rewrite(t, "storeInMemory(isApplied(isTranspose), id) @ inLambda"), CompileError);
}

INSTANTIATE_TEST_SUITE_P(Ports, ShineTvmGemm, ::testing::ValuesIn(kPorts),
                         [](const auto& info) { return info.param; });

} // namespace
