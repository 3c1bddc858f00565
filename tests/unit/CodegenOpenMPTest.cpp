// The OpenMP back end (--target openmp, docs/dpia.md "OpenMP"): the exact
// pragmas and clauses, the legality rejections, privatised temporaries, and
// an end-to-end run of tests/e2e/omp_*.rise and the parallel mm strategy
// built with gcc -fopenmp at OMP_NUM_THREADS=1 and 2, compared with the
// interpreter at several (odd) sizes.
#include "CKernelRunner.h"
#include "codegen/Compile.h"
#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

namespace {

using namespace risec;
using namespace risec::testsupport;
using namespace risec::rise;
namespace fs = std::filesystem;

using risec::test::readFile;

struct Compiled {
  rise::TypedDef def;
  codegen::CompileResult result;
};

Compiled compile(const std::string& name, const std::string& text,
                 const std::string& strategyFile = "") {
  rise::Program program = rise::parseProgram(makeSourceFile(name, text));
  std::string entry = program.defs.back().name;
  rise::TypedDef def = rise::inferDef(program, entry);
  if (!strategyFile.empty()) {
    auto strategy = elevate::loadStrategy(makeSourceFile(strategyFile, readFile(strategyFile)));
    def = elevate::rewriteDef(program, def, *strategy, {});
    program = elevate::rewrittenProgram(program, def);
  }
  codegen::c::COptions opts{entry, name, "test", strategyFile, codegen::Target::OpenMP};
  rise::TypedDef original = rise::inferDef(program, entry);
  return {original, codegen::compileToC(program, def, opts)};
}

bool hasLine(const std::string& code, const std::string& line) {
  std::istringstream in(code);
  for (std::string l; std::getline(in, l);) {
    std::size_t b = l.find_first_not_of(' ');
    if (b != std::string::npos && l.substr(b) == line)
      return true;
  }
  return false;
}

fs::path e2e(const std::string& f) {
  return fs::path(RISEC_TEST_DATA) / "e2e" / f;
}

TEST(CodegenOpenMP, MapParIsAParallelFor) {
  Compiled c = compile("omp_scal.rise", readFile(e2e("omp_scal.rise")));
  const std::string& s = c.result.files.source;
  EXPECT_TRUE(hasLine(s, "#pragma omp parallel for")) << s;
  EXPECT_TRUE(hasLine(s, "#include <omp.h>")) << s;
  EXPECT_TRUE(hasLine(s, "output[i] = a * xs[i];")) << s;
  EXPECT_NE(s.find("Target:    openmp"), std::string::npos) << s;
}

TEST(CodegenOpenMP, ReduceParWithAddIsAReductionClause) {
  Compiled c = compile("omp_sum.rise", readFile(e2e("omp_sum.rise")));
  const std::string& s = c.result.files.source;
  EXPECT_TRUE(hasLine(s, "#pragma omp parallel for reduction(+ : acc)")) << s;
  EXPECT_TRUE(hasLine(s, "acc = acc + xs[i];")) << s;
}

TEST(CodegenOpenMP, ReduceParWithOtherOperatorCombinesInChunkOrder) {
  Compiled c = compile("omp_max.rise", readFile(e2e("omp_max.rise")));
  const std::string& s = c.result.files.source;
  EXPECT_EQ(s.find("reduction("), std::string::npos) << s;
  EXPECT_TRUE(hasLine(s, "int32_t partial[64];")) << s;
  EXPECT_TRUE(hasLine(s, "int chunks = risec_omp_chunks(n);")) << s;
  EXPECT_TRUE(hasLine(s, "part = xs[lo];")) << s;
  EXPECT_TRUE(hasLine(s, "partial[i] = part;")) << s;
  EXPECT_TRUE(hasLine(s, "int32_t part = partial[i];")) << s;
}

TEST(CodegenOpenMP, TemporariesInsideMapParArePerThread) {
  Compiled c = compile("omp_mv.rise", readFile(e2e("omp_mv.rise")));
  const std::string& s = c.result.files.source;
  EXPECT_TRUE(hasLine(s, "int nthreads = omp_get_max_threads();")) << s;
  EXPECT_TRUE(hasLine(s, "float* restrict tmp = malloc((size_t)nthreads * ((size_t)m * "
                         "sizeof(float)));"))
      << s;
  // declared inside the parallel loop: private to the iteration
  std::size_t loop = s.find("#pragma omp parallel for");
  std::size_t own =
      s.find("float* restrict tmp_own = tmp + (size_t)omp_get_thread_num() * (size_t)m;");
  ASSERT_NE(loop, std::string::npos);
  ASSERT_NE(own, std::string::npos) << s;
  EXPECT_LT(loop, own);
  EXPECT_TRUE(hasLine(s, "tmp_own[j] = M[j + m * i] * x[j];")) << s;
}

TEST(CodegenOpenMP, APairOfArraysInsideMapParIsPerThread) {
  // storeUnzipped's shape: each array of the pair one heap block per thread,
  // each iteration using its thread's slice of both
  Compiled c = compile("omp_pair_temp.rise", readFile(e2e("omp_pair_temp.rise")));
  const std::string& s = c.result.files.source;
  EXPECT_TRUE(hasLine(s, "float* restrict tmp_fst = malloc((size_t)nthreads * ((size_t)m * "
                         "sizeof(float)));"))
      << s;
  EXPECT_TRUE(hasLine(s, "float* restrict tmp_snd = malloc((size_t)nthreads * ((size_t)m * "
                         "sizeof(float)));"))
      << s;
  std::size_t loop = s.find("#pragma omp parallel for");
  std::size_t fst =
      s.find("float* restrict tmp_fst_own = tmp_fst + (size_t)omp_get_thread_num() * (size_t)m;");
  std::size_t snd =
      s.find("float* restrict tmp_snd_own = tmp_snd + (size_t)omp_get_thread_num() * (size_t)m;");
  ASSERT_NE(loop, std::string::npos) << s;
  ASSERT_NE(fst, std::string::npos) << s;
  ASSERT_NE(snd, std::string::npos) << s;
  EXPECT_LT(loop, fst);
  EXPECT_LT(loop, snd);
  EXPECT_TRUE(hasLine(s, "acc = acc + tmp_fst_own[j] * tmp_snd_own[j];")) << s;
}

TEST(CodegenOpenMP, APairWithAScalarInsideMapParIsRejected) {
  // the scalar component would be one C variable shared by the threads
  std::string text = "def pairScalar = depFun((n: Nat, m: Nat) => fun(xs: n.m.f32 =>\n"
                     "  xs |> mapPar(fun(row =>\n"
                     "    let(toMem((row |> reduceSeq(add)(0.0f), row |> mapSeq(fun(x => x * "
                     "2.0f)))))(fun(v =>\n"
                     "      snd(v) |> reduceSeq(fun(acc, y => acc + y * fst(v)))(0.0f)))))))\n";
  try {
    compile("pair_scalar.rise", text);
    FAIL() << "a pair holding a scalar inside a mapPar was accepted";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0621");
    EXPECT_EQ(e.location().line, 3);
    EXPECT_NE(e.message().find("a pair `tmp` with a scalar or small array component inside a "
                               "parallel loop"),
              std::string::npos)
        << e.message();
  }
}

TEST(CodegenOpenMP, AParallelLoopOverALoopNestIsCollapsed) {
  Compiled c = compile("omp_collapse.rise", readFile(e2e("omp_collapse.rise")));
  const std::string& s = c.result.files.source;
  EXPECT_TRUE(hasLine(s, "#pragma omp parallel for collapse(2)")) << s;
  // the thread's slice of the temporary is declared inside the inner loop:
  // nothing stands between collapsed loops
  std::size_t inner = s.find("for (int j = 0; j < b; j += 1) {");
  std::size_t own = s.find("float* restrict tmp_own = tmp + (size_t)omp_get_thread_num()");
  ASSERT_NE(inner, std::string::npos) << s;
  ASSERT_NE(own, std::string::npos) << s;
  EXPECT_LT(inner, own);
  // a parallel loop over an innermost loop is not collapsed (that loop is
  // the one `omp simd` may mark)
  Compiled nest = compile("omp_nest.rise", readFile(e2e("omp_nest.rise")));
  EXPECT_TRUE(hasLine(nest.result.files.source, "#pragma omp parallel for"))
      << nest.result.files.source;
}

TEST(CodegenOpenMP, NoSimdPragmaBetweenCollapsedLoops) {
  // the collapsed inner loop becomes innermost once its loop of one
  // iteration is inlined (stage 10): it keeps no pragma of its own
  Compiled c = compile("omp_collapse_single_iteration.rise",
                       readFile(e2e("omp_collapse_single_iteration.rise")));
  const std::string& s = c.result.files.source;
  EXPECT_NE(s.find("#pragma omp parallel for collapse(2)\n"
                   "  // mapPar\n"
                   "  for (int i = 0; i < n; i += 1) {\n"
                   "    // mapSeq\n"
                   "    for (int j = 0; j < m; j += 1) {\n"
                   "      output[j + m * i] = xs[j + m * i] * 2.0f;"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("omp simd"), std::string::npos) << s;
}

TEST(CodegenOpenMP, CTargetStaysSequential) {
  rise::Program program =
      rise::parseProgram(makeSourceFile("omp_sum.rise", readFile(e2e("omp_sum.rise"))));
  rise::TypedDef def = rise::inferDef(program, "ompSum");
  codegen::c::COptions opts{"ompSum", "omp_sum.rise", "test", ""};
  std::string s = codegen::compileToC(program, def, opts).files.source;
  EXPECT_EQ(s.find("omp"), s.find("ompSum")) << s; // only the name
  EXPECT_EQ(s.find("#pragma"), std::string::npos) << s;
}

TEST(CodegenOpenMP, NestedMapParIsRejected) {
  std::string text = "def nested = depFun((n: Nat, m: Nat) => fun(xs: n.m.f32 =>\n"
                     "  xs |> mapPar(fun(row =>\n"
                     "    row |> mapPar(fun(x => x * 2.0f))))))\n";
  try {
    compile("nested.rise", text);
    FAIL() << "a nested mapPar was accepted";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0620");
    EXPECT_EQ(e.location().line, 3);
    EXPECT_EQ(e.location().column, 12);
    EXPECT_EQ(e.message(), "`mapPar` inside the function of the `mapPar` at nested.rise:2:9: "
                           "nested parallel loops are not supported by the OpenMP back end; make "
                           "the inner one sequential (mapSeq, reduceSeq)");
  }
}

TEST(CodegenOpenMP, ReduceParInsideMapParIsRejected) {
  std::string text = "def nested = depFun((n: Nat, m: Nat) => fun(xs: n.m.f32 =>\n"
                     "  xs |> mapPar(fun(row => row |> reducePar(add)(0.0f)))))\n";
  try {
    compile("nested.rise", text);
    FAIL() << "a reducePar inside a mapPar was accepted";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0620");
    EXPECT_EQ(e.location().line, 2);
  }
}

// ---- end to end ---------------------------------------------------------------------

struct Case {
  std::string file, strategy;
  std::vector<interp::SizeEnv> sizes;
};

void runEndToEnd(const Case& k) {
  fs::path src = k.strategy.empty() ? e2e(k.file) : fs::path(RISEC_TEST_DATA) / ".." / k.file;
  std::string strategy =
      k.strategy.empty() ? "" : (fs::path(RISEC_TEST_DATA) / ".." / k.strategy).string();
  Compiled c = compile(src.filename().string(), readFile(src), strategy);
  const rise::TypedDef& def = c.def;
  std::string symbol = def.name;
  fs::path dir = fs::temp_directory_path() /
                 ("risec-omp-" + std::to_string(::getpid()) + "-" + src.stem().string());
  std::vector<std::string> sizeNames = interp::sizeParameters(def);
  std::string log;
  int st = buildKernel(dir, symbol, c.result.files, driverSource(symbol, def, sizeNames.size()),
                       "gcc", defaultCFlags() + " -fopenmp", log);
  ASSERT_EQ(st, 0) << log << "\n" << c.result.files.source;
  for (const interp::SizeEnv& s : k.sizes) {
    interp::EntryInterface iface = interp::instantiateEntry(def, s);
    std::mt19937_64 rng(4242);
    std::vector<interp::Value> inputs;
    for (const rise::Type& t : iface.inputTypes)
      inputs.push_back(interp::randomValue(t, rng));
    interp::Value expected = interp::evaluate(def, s, inputs);
    for (const char* threads : {"1", "2"}) {
      ::setenv("OMP_NUM_THREADS", threads, 1);
      std::string out;
      EXPECT_EQ(runDriver(dir, (dir / "gcc").string(), inputRecord(def, sizeNames, s, inputs), out),
                0)
          << out;
      std::vector<std::string> tok = tokens(out);
      ASSERT_GE(tok.size(), 2u) << out;
      ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << out;
      std::size_t pos = 2;
      interp::Value actual = unflatten(iface.outputType, tok, pos);
      std::string why;
      EXPECT_TRUE(interp::valuesClose(actual, expected, 1e-4, 1e-4, &why))
          << k.file << " threads " << threads << ": " << why;
    }
  }
  ::unsetenv("OMP_NUM_THREADS");
  if (!::testing::Test::HasFailure())
    fs::remove_all(dir);
}

TEST(CodegenOpenMPEndToEnd, Scal) {
  runEndToEnd({"omp_scal.rise", "", {{{"n", 0}}, {{"n", 1}}, {{"n", 37}}, {{"n", 1000}}}});
}
TEST(CodegenOpenMPEndToEnd, MvRows) {
  runEndToEnd(
      {"omp_mv.rise", "", {{{"n", 1}, {"m", 1}}, {{"n", 17}, {"m", 5}}, {{"n", 64}, {"m", 33}}}});
}
TEST(CodegenOpenMPEndToEnd, SumWithReductionClause) {
  runEndToEnd({"omp_sum.rise", "", {{{"n", 0}}, {{"n", 1}}, {{"n", 3}}, {{"n", 1001}}}});
}
TEST(CodegenOpenMPEndToEnd, MaxWithExplicitCombine) {
  runEndToEnd({"omp_max.rise", "", {{{"n", 0}}, {{"n", 1}}, {{"n", 3}}, {{"n", 999}}}});
}
TEST(CodegenOpenMPEndToEnd, CollapsedNest) {
  runEndToEnd({"omp_collapse.rise",
               "",
               {{{"a", 1}, {"b", 7}, {"c", 5}},
                {{"a", 3}, {"b", 1}, {"c", 2}},
                {{"a", 2}, {"b", 0}, {"c", 3}},
                {{"a", 5}, {"b", 33}, {"c", 17}}}});
}
TEST(CodegenOpenMPEndToEnd, CollapsedNestOverALoopOfOneIteration) {
  runEndToEnd({"omp_collapse_single_iteration.rise",
               "",
               {{{"n", 0}, {"m", 3}}, {{"n", 1}, {"m", 1}}, {{"n", 7}, {"m", 33}}}});
}
TEST(CodegenOpenMPEndToEnd, NestOuterParallel) {
  runEndToEnd({"omp_nest.rise", "", {{{"n", 3}, {"m", 7}}, {{"n", 31}, {"m", 2}}}});
}
TEST(CodegenOpenMPEndToEnd, PairOfArraysPerThread) {
  runEndToEnd({"omp_pair_temp.rise",
               "",
               {{{"n", 0}, {"m", 3}},
                {{"n", 1}, {"m", 1}},
                {{"n", 37}, {"m", 5}},
                {{"n", 64}, {"m", 33}}}});
}
TEST(CodegenOpenMPEndToEnd, ArrayOfPairsOfArraysPerThread) {
  // k.(m.f32, m.f32) per iteration: tmp_fst and tmp_snd, k rows each, sliced
  runEndToEnd({"omp_pair_rows_temp.rise",
               "",
               {{{"n", 0}, {"k", 2}, {"m", 3}},
                {{"n", 1}, {"k", 1}, {"m", 1}},
                {{"n", 37}, {"k", 3}, {"m", 5}},
                {{"n", 33}, {"k", 7}, {"m", 9}}}});
}
TEST(CodegenOpenMPEndToEnd, HarrisStripsStrategy) {
  // specs/harris.strips.omp.elevate: strips in parallel, each with its
  // products stored unzipped (a pair of arrays per thread); heights below,
  // at and above a strip of 32 and not multiples of it
  runEndToEnd({"specs/harris.rise",
               "specs/harris.strips.omp.elevate",
               {{{"h", 1}, {"w", 1}},
                {{"h", 31}, {"w", 45}},
                {{"h", 33}, {"w", 9}},
                {{"h", 70}, {"w", 3}},
                {{"h", 96}, {"w", 33}}}});
}
TEST(CodegenOpenMPEndToEnd, MmParallelStrategy) {
  runEndToEnd({"specs/mm.rise",
               "specs/mm.parallel.elevate",
               {{{"m", 32}, {"n", 32}, {"k", 32}}, {{"m", 64}, {"n", 96}, {"k", 64}}}});
}

} // namespace
