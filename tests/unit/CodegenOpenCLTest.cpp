// The OpenCL back end (--target opencl, docs/dpia.md "OpenCL"): the exact
// kernel of Listing 4's mv (the Listing 11 shape), the host-side check
// function, the rejection of large private temporaries,
// and end-to-end runs on PoCL of tests/rise/*_ocl.rise and tests/e2e/ocl_*.rise
// with global sizes unequal to the problem size (the grid-stride loops do
// the rest), compared with the interpreter on random inputs; local memory,
// global temporaries and barriers run with several local sizes each
// (structure and diagnostics: CodegenOpenCLMemoryTest.cpp).
#include "CKernelRunner.h"
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
#include <unistd.h>

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

struct Compiled {
  rise::TypedDef def;
  codegen::CompileResult result;
};

Compiled compile(const std::string& name, const std::string& text) {
  rise::Program program = rise::parseProgram(rise::makeSourceFile(name, text));
  std::string entry = program.defs.back().name;
  rise::TypedDef def = rise::inferDef(program, entry);
  codegen::c::COptions opts{entry, name, "test", "", "opencl"};
  return {def, codegen::compileToC(program, def, opts)};
}

/// The kernel text after the doc comment.
std::string kernelOf(const std::string& cl) {
  std::size_t end = cl.find("*/\n");
  return end == std::string::npos ? cl : cl.substr(end + 3);
}

TEST(CodegenOpenCL, MvListing4HasTheListing11Shape) {
  Compiled c = compile("mv_ocl.rise", readFile(data("rise", "mv_ocl.rise")));
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
  Compiled c = compile("mv_ocl.rise", readFile(data("rise", "mv_ocl.rise")));
  const std::string& h = c.result.files.header;
  EXPECT_NE(h.find("static inline __attribute__((unused)) int mvOpt_check(int n, int m, int s) {"),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("return 2;"), std::string::npos) << h;
  EXPECT_NE(h.find("return 1;"), std::string::npos) << h;
  EXPECT_NE(c.result.files.source.find("Target:    opencl"), std::string::npos);
}

TEST(CodegenOpenCL, GlobalMapInTwoDimensionsAndPrivateScalar) {
  Compiled c = compile("matrix_add_ocl.rise", readFile(data("rise", "matrix_add_ocl.rise")));
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

struct Launch {
  unsigned dims = 1;
  std::size_t global[2] = {1, 1};
  std::size_t local[2] = {1, 1};
};

std::vector<float> flat(const rise::Type& t, const rise::interp::Value& v) {
  std::ostringstream os;
  writeValue(t, v, os);
  std::vector<float> out;
  for (const std::string& tok : tokens(os.str()))
    out.push_back(std::stof(tok));
  if (t->kind() != rise::TypeKind::Scalar) // writeValue starts a buffer with its length
    out.erase(out.begin());
  return out;
}

// PoCL loads LLVM 15 and the compiler libraries LLVM 14: they cannot share a
// process. The kernels run in a small C program built with the host runtime
// (risec_host_cl): `runner FILE.cl KERNEL DIMS G0 G1 L0 L1 ARGS` where ARGS
// lists the arguments in ABI order, one per line: `o COUNT` (the output
// buffer), `i VALUE` (an int size), `f VALUE` (a float scalar), `b COUNT
// VALUES...` (an input buffer), `t COUNT` (a global temporary, filled with
// NaN so that reading it before writing shows). It prints `rc 0` and the
// output.
const char* kRunner = R"(#include "risec_cl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char* slurp(const char* path) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* s = calloc((size_t)n + 1, 1);
  if (fread(s, 1, (size_t)n, f) != (size_t)n) return NULL;
  fclose(f);
  return s;
}
#define FAIL(what, code) do { printf("rc %d %s %s\n", (int)(code), what, risec_cl_error_string(code)); return 1; } while (0)
int main(int argc, char** argv) {
  if (argc != 9) return 2;
  risec_cl_context* ctx;
  int st = risec_cl_create(&ctx, NULL);
  if (st) FAIL("create", st);
  char* src = slurp(argv[1]);
  cl_program prog;
  st = risec_cl_program(ctx, src, "-cl-std=CL1.2", &prog);
  if (st) { printf("%s\n", risec_cl_last_error(ctx)); FAIL("build", st); }
  cl_int err;
  cl_kernel k = clCreateKernel(prog, argv[2], &err);
  if (err) FAIL("kernel", err);
  cl_context c = risec_cl_context_handle(ctx);
  FILE* a = fopen(argv[8], "r");
  char kind[4];
  cl_uint arg = 0;
  cl_mem out = NULL;
  long outCount = 0;
  while (fscanf(a, "%3s", kind) == 1) {
    if (kind[0] == 'i') {
      cl_int v; if (fscanf(a, "%d", &v) != 1) return 2;
      err = clSetKernelArg(k, arg++, sizeof v, &v);
    } else if (kind[0] == 'f') {
      float v; if (fscanf(a, "%f", &v) != 1) return 2;
      err = clSetKernelArg(k, arg++, sizeof v, &v);
    } else {
      long n; if (fscanf(a, "%ld", &n) != 1) return 2;
      float* h = calloc((size_t)n + 1, sizeof(float));
      for (long i = 0; kind[0] == 'b' && i < n; ++i)
        if (fscanf(a, "%f", &h[i]) != 1) return 2;
      if (kind[0] == 'o') for (long i = 0; i < n; ++i) h[i] = -1.0f;
      if (kind[0] == 't') for (long i = 0; i < n; ++i) h[i] = NAN;
      cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                ((size_t)n + 1) * sizeof(float), h, &err);
      if (err) FAIL("buffer", err);
      if (kind[0] == 'o') { out = m; outCount = n; }
      err = clSetKernelArg(k, arg++, sizeof m, &m);
    }
    if (err) FAIL("arg", err);
  }
  size_t g[2] = {strtoul(argv[4], 0, 10), strtoul(argv[5], 0, 10)};
  size_t l[2] = {strtoul(argv[6], 0, 10), strtoul(argv[7], 0, 10)};
  err = clEnqueueNDRangeKernel(risec_cl_queue(ctx), k, (cl_uint)atoi(argv[3]), NULL, g, l, 0,
                               NULL, NULL);
  if (err) FAIL("launch", err);
  float* r = calloc((size_t)outCount + 1, sizeof(float));
  err = clEnqueueReadBuffer(risec_cl_queue(ctx), out, CL_TRUE, 0, (size_t)outCount * sizeof(float),
                            r, 0, NULL, NULL);
  if (err && outCount) FAIL("read", err);
  printf("rc 0\n");
  for (long i = 0; i < outCount; ++i) printf("%.9g\n", (double)r[i]);
  risec_cl_release(ctx);
  return 0;
}
)";

// In a sanitizer build the host runtime library is instrumented, so the
// runner must be built with the same flags. PoCL's own allocations at exit
// are not ours to report.
#ifdef RISEC_E2E_SANITIZE
const std::string kSanitizerFlags = " -fsanitize=address,undefined -fno-sanitize-recover=all";
const std::string kRunEnvironment = "ASAN_OPTIONS=detect_leaks=0 ";
#else
const std::string kSanitizerFlags;
const std::string kRunEnvironment;
#endif

/// The element count of an ABI parameter at the sizes `s`.
std::int64_t countAt(const rise::Nat& n, const rise::interp::SizeEnv& s) {
  rise::Nat v =
      rise::natMapVars(n, [&](const rise::NatVarInfo& x) { return rise::natConst(s.at(x.name)); });
  if (!v->isConst())
    throw std::runtime_error("cannot evaluate " + rise::natToString(n));
  return v->value();
}

void runOnPocl(const fs::path& src, const std::vector<Launch>& launches,
               const std::vector<rise::interp::SizeEnv>& sizes) {
  Compiled c = compile(src.filename().string(), readFile(src));
  const rise::TypedDef& def = c.def;
  fs::path dir = fs::temp_directory_path() /
                 ("risec-ocl-" + std::to_string(::getpid()) + "-" + src.stem().string());
  fs::create_directories(dir);
  std::ofstream(dir / "kernel.cl") << c.result.files.source;
  std::ofstream(dir / "runner.c") << kRunner;
  std::string log;
  std::string build = "gcc -std=c11 -O1" + kSanitizerFlags + " -I" +
                      (fs::path(RISEC_TEST_DATA) / ".." / "host").string() + " -o " +
                      (dir / "runner").string() + " " + (dir / "runner.c").string() + " " +
                      RISEC_HOST_CL_LIB + " -lOpenCL 2>&1";
  ASSERT_EQ(runCommand(build, &log), 0) << log;
  std::vector<std::string> sizeNames = rise::interp::sizeParameters(def);
  for (const rise::interp::SizeEnv& s : sizes) {
    rise::interp::EntryInterface iface = rise::interp::instantiateEntry(def, s);
    std::mt19937_64 rng(777);
    std::vector<rise::interp::Value> inputs;
    for (const rise::Type& t : iface.inputTypes)
      inputs.push_back(rise::interp::randomValue(t, rng));
    rise::interp::Value expected = rise::interp::evaluate(def, s, inputs);

    std::ostringstream args;
    args.precision(9);
    args << "o " << elementCount(iface.outputType) << "\n";
    for (const std::string& n : sizeNames)
      args << "i " << s.at(n) << "\n";
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      std::vector<float> host = flat(iface.inputTypes[i], inputs[i]);
      if (iface.inputTypes[i]->kind() == rise::TypeKind::Scalar) {
        args << "f " << host.at(0) << "\n";
        continue;
      }
      args << "b " << host.size();
      for (float v : host)
        args << " " << v;
      args << "\n";
    }
    for (const codegen::AbiParam* t :
         c.result.files.abi.withRole(codegen::AbiParam::Role::Temporary))
      args << "t " << countAt(t->count, s) << "\n";
    std::ofstream(dir / "args.txt") << args.str();
    for (const Launch& launch : launches) {
      std::string cmd = kRunEnvironment + "RISEC_CL_CACHE_DIR=" + (dir / "cache").string() + " " +
                        (dir / "runner").string() + " " + (dir / "kernel.cl").string() + " " +
                        def.name + " " + std::to_string(launch.dims);
      for (std::size_t g : launch.global)
        cmd += " " + std::to_string(g);
      for (std::size_t l : launch.local)
        cmd += " " + std::to_string(l);
      cmd += " " + (dir / "args.txt").string() + " 2>&1";
      std::string out;
      EXPECT_EQ(runCommand(cmd, &out), 0) << out;
      std::vector<std::string> tok = tokens(out);
      ASSERT_GE(tok.size(), 2u) << out;
      ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << out << "\n" << c.result.files.source;
      std::size_t pos = 2;
      rise::interp::Value actual = unflatten(iface.outputType, tok, pos);
      std::string why;
      EXPECT_TRUE(rise::interp::valuesClose(actual, expected, 1e-4, 1e-4, &why))
          << src.filename() << ": " << why << " (local size " << launch.local[0] << "x"
          << launch.local[1] << ")\n"
          << c.result.files.source;
    }
  }
  if (!::testing::Test::HasFailure())
    fs::remove_all(dir);
}

void runOnPocl(const fs::path& src, const Launch& launch,
               const std::vector<rise::interp::SizeEnv>& sizes) {
  runOnPocl(src, std::vector<Launch>{launch}, sizes);
}

Launch oneDim(std::size_t global, std::size_t local) {
  Launch l;
  l.global[0] = global;
  l.local[0] = local;
  return l;
}

Launch twoDim(std::size_t g0, std::size_t g1, std::size_t l0, std::size_t l1) {
  Launch l;
  l.dims = 2;
  l.global[0] = g0;
  l.global[1] = g1;
  l.local[0] = l0;
  l.local[1] = l1;
  return l;
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
  Launch l;
  l.dims = 2;
  l.global[0] = 4;
  l.global[1] = 6;
  l.local[0] = 2;
  l.local[1] = 3;
  runOnPocl(data("rise", "matrix_add_ocl.rise"), l,
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

TEST(CodegenOpenCLEndToEnd, GlobalTemporary) {
  runOnPocl(
      data("e2e", "ocl_global_temp.rise"), {oneDim(12, 4), oneDim(5, 5), oneDim(64, 32)},
      {{{"n", 1}, {"m", 1}}, {{"n", 7}, {"m", 13}}, {{"n", 20}, {"m", 100}}, {{"n", 3}, {"m", 0}}});
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
