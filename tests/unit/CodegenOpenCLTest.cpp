// The OpenCL back end (--target opencl, docs/dpia.md "OpenCL"): the exact
// kernel of Listing 4's mv (the Listing 11 shape), the host-side check
// function, the rejection of large private temporaries,
// and end-to-end runs on PoCL of tests/rise/*_ocl.rise and tests/e2e/ocl_*.rise
// with global sizes unequal to the problem size (the grid-stride loops do
// the rest), compared with the interpreter on random inputs; local memory,
// global temporaries and barriers run with several local sizes each
// (structure and diagnostics: CodegenOpenCLMemoryTest.cpp).
#include "CKernelRunner.h"
#include "OclRunner.h"
#include "codegen/Compile.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

namespace {

using namespace risec;
using namespace risec::testsupport;
namespace fs = std::filesystem;

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path data(const std::string& dir, const std::string& f) {
  return fs::path(RISEC_TEST_DATA) / dir / f;
}

/// Compiles for OpenCL; a diagnostic is thrown as the CompileError it is.
CompiledKernel compile(const std::string& name, const std::string& text) {
  OclCompileOutcome o = compileOpenCL(name, text);
  if (o.error)
    throw *o.error;
  if (!o.compiled())
    throw InternalError(o.internal);
  return std::move(*o.kernel);
}

/// The kernel text after the doc comment.
std::string kernelOf(const std::string& cl) {
  std::size_t end = cl.find("*/\n");
  return end == std::string::npos ? cl : cl.substr(end + 3);
}

TEST(CodegenOpenCL, MvListing4HasTheListing11Shape) {
  CompiledKernel c = compile("mv_ocl.rise", readFile(data("rise", "mv_ocl.rise")));
  EXPECT_EQ(kernelOf(c.result.files.source),
            R"(
__kernel void mvOpt(global float* restrict output, int n, int m, int s,
                    const global float* restrict M, const global float* restrict x) {
  // mapWorkGroup(0)
  for (int i = get_group_id(0); i < n / s; i += get_num_groups(0)) {
    // mapLocal(0)
    for (int j = get_local_id(0); j < s; j += get_local_size(0)) {
      float acc = 0.0f;
      // oclReduceSeq
      for (int k = 0; k < m; k += 1) {
        acc = acc + M[k + m * j + m * s * i] * x[k];
      }
      output[j + s * i] = acc;
    }
  }
}
)");
}

TEST(CodegenOpenCL, HeaderHasTheHostSideCheck) {
  CompiledKernel c = compile("mv_ocl.rise", readFile(data("rise", "mv_ocl.rise")));
  const std::string& h = c.result.files.header;
  EXPECT_NE(h.find("static inline __attribute__((unused)) int mvOpt_check(int n, int m, int s) {"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("return 2;"), std::string::npos) << h;
  EXPECT_NE(h.find("return 1;"), std::string::npos) << h;
  EXPECT_NE(c.result.files.source.find("Target:    opencl"), std::string::npos);
}

TEST(CodegenOpenCL, GlobalMapInTwoDimensionsAndPrivateScalar) {
  CompiledKernel c = compile("matrix_add_ocl.rise", readFile(data("rise", "matrix_add_ocl.rise")));
  const std::string& k = c.result.files.source;
  EXPECT_NE(k.find("for (int i = get_global_id(1); i < n; i += get_global_size(1))"),
            std::string::npos)
      << k;
  EXPECT_NE(k.find("for (int j = get_global_id(0); j < m; j += get_global_size(0))"),
            std::string::npos)
      << k;
}

TEST(CodegenOpenCL, PrivateTemporaryOfSymbolicSizeIsRejected) {
  std::string text = "def p = depFun((n: Nat, m: Nat) => fun(xs: n.m.f32 =>\n"
                     "  xs |> mapGlobal(0)(fun(row => row |> mapSeq(fun(x => x * x)) |> toPrivate\n"
                     "    |> oclReduceSeq(Private)(fun(a, y => a + y))(0.0f)))))\n";
  try {
    compile("p.rise", text);
    FAIL() << "a private array of symbolic size was accepted";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0631");
  }
}

// ---- end to end on PoCL -----------------------------------------------------------

// The kernels run in a separate runner process (OclRunner.h: PoCL and the
// compiler's LLVM cannot share one), on random inputs, once per launch
// configuration; global temporaries are filled with NaN so that reading one
// before writing it shows.
void runOnPocl(const fs::path& src, const std::vector<Launch>& launches,
               const std::vector<rise::interp::SizeEnv>& sizes) {
  CompiledKernel c = compile(src.filename().string(), readFile(src));
  const rise::TypedDef& def = c.def;
  OclRunner& runner = defaultOclRunner();
  ASSERT_TRUE(runner.ok()) << runner.buildLog();
  for (const rise::interp::SizeEnv& s : sizes) {
    rise::interp::EntryInterface iface = rise::interp::instantiateEntry(def, s);
    std::mt19937_64 rng(777);
    std::vector<rise::interp::Value> inputs;
    for (const rise::Type& t : iface.inputTypes)
      inputs.push_back(rise::interp::randomValue(t, rng));
    rise::interp::Value expected = rise::interp::evaluate(def, s, inputs);
    std::vector<OclRunResult> results = runner.run(c, s, inputs, launches);
    for (std::size_t i = 0; i < launches.size(); ++i) {
      const OclRunResult& r = results[i];
      ASSERT_EQ(r.rc, 0) << r.error << "\n" << c.result.files.source;
      ASSERT_TRUE(r.output.has_value());
      std::string why;
      EXPECT_TRUE(rise::interp::valuesClose(*r.output, expected, 1e-4, 1e-4, &why))
          << src.filename() << ": " << why << " (" << launches[i].str() << ")\n"
          << c.result.files.source;
    }
  }
}

void runOnPocl(const fs::path& src, const Launch& launch,
               const std::vector<rise::interp::SizeEnv>& sizes) {
  runOnPocl(src, std::vector<Launch>{launch}, sizes);
}

Launch oneDim(std::size_t global, std::size_t local) {
  return launch1D(global, local);
}

Launch twoDim(std::size_t g0, std::size_t g1, std::size_t l0, std::size_t l1) {
  return launch2D(g0, g1, l0, l1);
}

TEST(CodegenOpenCLEndToEnd, MvListing4) {
  // 2 work-groups of 4: fewer groups than row blocks, fewer local work-items
  // than rows per block for s = 5
  runOnPocl(data("rise", "mv_ocl.rise"), oneDim(8, 4),
            {{{"n", 4}, {"m", 3}, {"s", 2}},
             {{"n", 35}, {"m", 17}, {"s", 5}},
             {{"n", 64}, {"m", 33}, {"s", 8}},
             {{"n", 3}, {"m", 1}, {"s", 1}}});
}

TEST(CodegenOpenCLEndToEnd, MatrixAdd2D) {
  runOnPocl(data("rise", "matrix_add_ocl.rise"), twoDim(4, 6, 2, 3),
            {{{"n", 1}, {"m", 1}}, {{"n", 7}, {"m", 13}}, {{"n", 33}, {"m", 5}}});
}

TEST(CodegenOpenCLEndToEnd, Scal) {
  runOnPocl(data("e2e", "ocl_scal.rise"), oneDim(16, 4),
            {{{"n", 0}}, {{"n", 1}}, {{"n", 37}}, {{"n", 1001}}});
}

TEST(CodegenOpenCLEndToEnd, RowSums) {
  runOnPocl(data("e2e", "ocl_row_sums.rise"), oneDim(6, 3),
            {{{"n", 1}, {"m", 1}}, {{"n", 19}, {"m", 7}}, {{"n", 40}, {"m", 0}}});
}

TEST(CodegenOpenCLEndToEnd, ArraysOfPairsOfRows) {
  // 4.(m.f32, m.f32) per work-item: global tmp_fst and tmp_snd, sliced;
  // 4.(8.f32, 8.f32): two private arrays
  runOnPocl(data("e2e", "ocl_pair_rows_temp.rise"), oneDim(6, 3),
            {{{"n", 1}, {"m", 1}}, {{"n", 13}, {"m", 7}}, {{"n", 4}, {"m", 0}}});
  runOnPocl(data("e2e", "ocl_private_pair_rows.rise"), oneDim(6, 3),
            {{{"n", 0}}, {{"n", 1}}, {{"n", 11}}});
}

TEST(CodegenOpenCLEndToEnd, PrivateTile) {
  runOnPocl(data("e2e", "ocl_private_tile.rise"), oneDim(12, 4),
            {{{"n", 1}}, {{"n", 5}}, {{"n", 77}}});
}

} // namespace

// ---- local memory, global temporaries and barriers (docs/dpia.md "OpenCL") ----
// Several local sizes each: fewer local work-items than the tile (the
// grid-stride loops of mapLocal iterate), exactly the tile, more than the
// tile (some work-items idle but still reach every barrier).

namespace {

TEST(CodegenOpenCLEndToEnd, MmLocalTiles) {
  runOnPocl(data("e2e", "ocl_mm_local.rise"),
            {twoDim(8, 8, 4, 4), twoDim(4, 6, 2, 3), twoDim(16, 8, 8, 8), twoDim(1, 1, 1, 1)},
            {{{"n", 1}, {"m", 1}, {"k", 1}},
             {{"n", 3}, {"m", 5}, {"k", 2}},
             {{"n", 2}, {"m", 7}, {"k", 0}},
             {{"n", 4}, {"m", 3}, {"k", 9}}});
}

TEST(CodegenOpenCLEndToEnd, TransposeThroughLocalMemory) {
  runOnPocl(data("e2e", "ocl_transpose_local.rise"),
            {twoDim(8, 8, 4, 4), twoDim(6, 4, 3, 2), twoDim(2, 2, 1, 1)},
            {{{"n", 1}, {"m", 1}}, {{"n", 3}, {"m", 5}}, {{"n", 7}, {"m", 2}}});
}

TEST(CodegenOpenCLEndToEnd, TwoLevelReductionInLocalMemory) {
  runOnPocl(data("e2e", "ocl_local_sum.rise"), {oneDim(16, 8), oneDim(9, 3), oneDim(32, 16)},
            {{{"n", 1}}, {{"n", 5}}, {{"n", 13}}});
}

TEST(CodegenOpenCLEndToEnd, SumSquaresStagedInLocalMemory) {
  runOnPocl(data("rise", "sum_squares_ocl.rise"), {oneDim(8, 4), oneDim(6, 2), oneDim(24, 8)},
            {{{"n", 0}}, {{"n", 1}}, {{"n", 9}}, {{"n", 31}}});
}

TEST(CodegenOpenCLEndToEnd, LocalAndGlobalBehindOneBarrier) {
  runOnPocl(data("e2e", "ocl_local_and_global.rise"), {oneDim(8, 4), oneDim(6, 2), oneDim(9, 9)},
            {{{"n", 1}, {"m", 1}}, {{"n", 5}, {"m", 11}}, {{"n", 17}, {"m", 0}}});
}

// Programs of several kernels (docs/dpia.md, "Kernel phases"): each phase
// with a parallel map runs with the launch, one without as one work-item
// (the runner's job line, OclRunner.h); the global temporaries between them
// start as NaN, so a phase that runs early or not at all shows.
TEST(CodegenOpenCLEndToEnd, TwoPhasesThroughAGlobalTemporary) {
  runOnPocl(data("e2e", "ocl_phases_sum.rise"), {oneDim(8, 4), oneDim(3, 1), oneDim(64, 32)},
            {{{"n", 0}}, {{"n", 1}}, {{"n", 7}}, {{"n", 101}}});
}

TEST(CodegenOpenCLEndToEnd, TwoWorkGroupPhasesReadingTransposed) {
  runOnPocl(data("e2e", "ocl_phases_transpose.rise"), {oneDim(2, 2), oneDim(8, 4), oneDim(12, 3)},
            {{{"n", 1}}, {{"n", 4}}, {{"n", 13}}});
}

TEST(CodegenOpenCLEndToEnd, ThreePhases) {
  runOnPocl(data("e2e", "ocl_phases_three.rise"), {oneDim(8, 4), oneDim(5, 5)},
            {{{"n", 0}}, {{"n", 1}}, {{"n", 9}}, {{"n", 100}}});
}

TEST(CodegenOpenCLEndToEnd, ASequentialPhaseBetweenTwoParallelOnes) {
  // rule 7 per phase: the middle kernel, a mapSeq, runs as one work-item
  runOnPocl(data("e2e", "ocl_phases_sequential.rise"), {oneDim(8, 4), oneDim(3, 1)},
            {{{"n", 0}}, {{"n", 1}}, {{"n", 7}}, {{"n", 100}}});
}

TEST(CodegenOpenCLEndToEnd, PhasesOfDifferentHierarchies) {
  // E0647 per phase: a mapGlobal kernel, then a mapWorkGroup/mapLocal one
  runOnPocl(data("e2e", "ocl_phases_hierarchies.rise"), {oneDim(8, 4), oneDim(3, 1)},
            {{{"n", 0}}, {{"n", 1}}, {{"n", 7}}, {{"n", 100}}});
}

TEST(CodegenOpenCLEndToEnd, GlobalTemporary) {
  runOnPocl(
      data("e2e", "ocl_global_temp.rise"), {oneDim(12, 4), oneDim(5, 5), oneDim(64, 32)},
      {{{"n", 1}, {"m", 1}}, {{"n", 7}, {"m", 13}}, {{"n", 20}, {"m", 100}}, {{"n", 3}, {"m", 0}}});
}

TEST(CodegenOpenCLEndToEnd, LineBufferInGlobalMemory) {
  // circularBuffer(Global): rows of symbolic width in a global temporary,
  // one slice per work-item
  runOnPocl(
      data("e2e", "ocl_line_buffer_global.rise"), {oneDim(4, 2), oneDim(3, 1)},
      {{{"n", 1}, {"m", 1}}, {{"n", 5}, {"m", 7}}, {{"n", 2}, {"m", 0}}, {{"n", 0}, {"m", 3}}});
}

TEST(CodegenOpenCLEndToEnd, AChainOfLineBuffersInGlobalMemory) {
  // two circularBuffer(Global) in a row (Harris's gray and Ix rows), each
  // streamed: 3 rows of each per work-item, a row of the first computed
  // when the second first reads it
  runOnPocl(
      data("e2e", "ocl_line_buffer_chain.rise"), {oneDim(4, 2), oneDim(3, 1)},
      {{{"n", 1}, {"m", 1}}, {{"n", 5}, {"m", 7}}, {{"n", 2}, {"m", 0}}, {{"n", 0}, {"m", 3}}});
}

TEST(CodegenOpenCLEndToEnd, ZippedMapComputedInTheLoopThatReadsIt) {
  // m row sums per work-item, zipped and read by a mapSeq: computed in that
  // loop, not stored into a private temporary of symbolic size (E0631)
  runOnPocl(data("e2e", "ocl_zip_of_computed_map.rise"), {oneDim(4, 2), oneDim(1, 1)},
            {{{"n", 1}, {"m", 1}, {"k", 1}},
             {{"n", 5}, {"m", 7}, {"k", 3}},
             {{"n", 3}, {"m", 0}, {"k", 2}},
             {{"n", 2}, {"m", 4}, {"k", 0}}});
}

} // namespace

// ---- vectors on PoCL (floatN, vload/vstore; docs/dpia.md "Vectors") -----------------

namespace {

/// tests/e2e/vec*.rise not run on PoCL: those the OpenCL back end rejects
/// (with the code: the test checks it still does), and those it compiles
/// but this runner cannot feed (its buffers hold floats).
const std::map<std::string, std::string> kVectorProgramsNotForOpenCL = {
    {"vec_dot.rise", "E0631"},        // its temporary has a symbolic size
    {"vec_bytes.rise", "u8 buffers"}, // compiled (and verified) only
};

TEST(CodegenOpenCLEndToEnd, VectorPrograms) {
  fs::path dir = fs::path(RISEC_TEST_DATA) / "e2e";
  int ran = 0;
  for (const std::string& f : risec::test::filesWithExtension(dir, ".rise")) {
    if (f.rfind("vec", 0) != 0)
      continue;
    SCOPED_TRACE(f);
    if (auto it = kVectorProgramsNotForOpenCL.find(f); it != kVectorProgramsNotForOpenCL.end()) {
      bool rejected = it->second.rfind("E0", 0) == 0;
      try {
        compile(f, readFile(dir / f));
        EXPECT_FALSE(rejected) << f << " compiles for OpenCL now; remove it from the list";
      } catch (const CompileError& e) {
        EXPECT_EQ(e.code(), rejected ? it->second : "(none)") << e.message();
      }
      continue;
    }
    rise::TypedDef def = compile(f, readFile(dir / f)).def;
    std::vector<std::string> names = rise::interp::sizeParameters(def);
    ASSERT_EQ(names.size(), 1u);
    std::vector<rise::interp::SizeEnv> sizes;
    for (std::int64_t n : {0, 1, 3, 4, 5, 16, 37, 48})
      try {
        rise::interp::instantiateEntry(def, {{names[0], n}});
        sizes.push_back({{names[0], n}});
      } catch (const CompileError&) { // a precondition fails: the host check's job
      }
    runOnPocl(dir / f, oneDim(8, 4), sizes);
    ++ran;
  }
  EXPECT_GE(ran, 4);
}

} // namespace
