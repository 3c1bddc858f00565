// Vector types in the C, OpenMP and OpenCL back ends (docs/dpia.md,
// "Vectors"; codegen/c/EmitVectors.h): the shape of the generated code (one
// typedef per file, a loop of n/4 iterations with one vector operation,
// loads and stores through the unaligned vector type, gathers and scatters
// lane by lane, vload/vstore and floatN in OpenCL), the OpenCL width and
// element diagnostics (E0660, E0661), and tests/e2e/vec_*.rise built with
// gcc -fopenmp (the outermost map made parallel), run at OMP_NUM_THREADS=2
// and compared with the interpreter; a size that violates a precondition
// must return 1. The same programs run as C (gcc and clang) in
// CodegenCEndToEndTest and on PoCL in CodegenOpenCLTest.
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
namespace fs = std::filesystem;
using risec::test::readFile;

struct Compiled {
  rise::TypedDef def; ///< before the strategy: what the interpreter runs
  codegen::CompileResult result;
};

/// Compiles the last def of `text` for `target`, after `strategy` (strategy
/// language text) if given.
Compiled compile(const std::string& name, const std::string& text, const std::string& target,
                 const std::string& strategy = "") {
  rise::Program program = rise::parseProgram(rise::makeSourceFile(name, text));
  std::string entry = program.defs.back().name;
  rise::TypedDef original = rise::inferDef(program, entry);
  rise::TypedDef def = original;
  if (!strategy.empty()) {
    auto s = elevate::loadStrategy(rise::makeSourceFile("parallel.elevate", strategy));
    def = elevate::rewriteDef(program, def, *s, {});
    program = elevate::rewrittenProgram(program, def);
  }
  codegen::c::COptions opts{entry, name, "test", "", *codegen::parseTarget(target)};
  return {original, codegen::compileToC(program, def, opts)};
}

fs::path e2e(const std::string& f) {
  return fs::path(RISEC_TEST_DATA) / "e2e" / f;
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    ++n;
  return n;
}

/// The body of the loop whose header line is `header` (up to its closing
/// brace at the same indentation), joined into one line.
std::string loopBody(const std::string& code, const std::string& header) {
  std::size_t at = code.find(header);
  if (at == std::string::npos)
    return "";
  std::size_t lineStart = code.rfind('\n', at) + 1;
  std::string close = "\n" + code.substr(lineStart, at - lineStart) + "}";
  std::size_t begin = code.find('\n', at), end = code.find(close, begin);
  std::string body = code.substr(begin, end - begin);
  std::string joined;
  std::istringstream in(body);
  for (std::string l; std::getline(in, l);)
    joined += (joined.empty() ? "" : " ") + risec::test::trim(l);
  return joined;
}

// ---- shape ----------------------------------------------------------------------

TEST(CodegenVector, VectorisedMapIsOneVectorOperationPerIteration) {
  Compiled c = compile("vec_saxpy.rise", readFile(e2e("vec_saxpy.rise")), "c");
  const std::string& s = c.result.files.source;
  EXPECT_EQ(count(s, "typedef float risec_f32x4 __attribute__((vector_size(16)));\n"), 1u) << s;
  EXPECT_EQ(
      count(
          s,
          "typedef float risec_f32x4u __attribute__((vector_size(16), aligned(4), may_alias));\n"),
      1u)
      << s;
  EXPECT_EQ(count(s, "typedef"), 2u) << s;
  std::string body = loopBody(s, "for (int i = 0; i < n / 4; i += 1) {");
  ASSERT_FALSE(body.empty()) << "no loop of n/4 iterations:\n" << s;
  EXPECT_EQ(count(body, ";"), 1u) << body;                                // one statement
  EXPECT_EQ(count(body, " + "), 1u) << body;                              // one vector add
  EXPECT_EQ(count(body, "*(risec_f32x4u*)&output[4 * i] ="), 1u) << body; // one vector store
  EXPECT_EQ(count(body, "*(const risec_f32x4u*)&xs[4 * i]"), 1u) << body;
  EXPECT_EQ(count(body, "*(const risec_f32x4u*)&ys[4 * i]"), 1u) << body;
  EXPECT_EQ(count(body, "risec_f32x4_splat(a)"), 1u) << body; // the broadcast
  EXPECT_NE(s.find("#define risec_f32x4_splat(x) ((risec_f32x4){(x), (x), (x), (x)})"),
            std::string::npos)
      << s;
  EXPECT_EQ(count(s, "output[4 * i + "), 0u) << "a lane stored as a scalar:\n" << s;
  // vectors are not in the ABI: the header needs no vector type
  EXPECT_EQ(c.result.files.header.find("risec_f32x4"), std::string::npos);
}

TEST(CodegenVector, VectorAccumulatorIsAVectorVariable) {
  Compiled c = compile("vector_acc.rise", readFile(e2e("vector_acc.rise")), "c");
  const std::string& s = c.result.files.source;
  EXPECT_NE(s.find("risec_f32x4 acc = risec_f32x4_splat(0.0f);"), std::string::npos) << s;
  std::string body = loopBody(s, "for (int i = 0; i < n; i += 1) {");
  EXPECT_EQ(body,
            "acc = acc + *(const risec_f32x4u*)&xs[4 * i] * *(const risec_f32x4u*)&xs[4 * i];")
      << s;
  EXPECT_NE(s.find("*(risec_f32x4u*)&output[0] = acc;"), std::string::npos) << s;
}

TEST(CodegenVector, ScatteredLanesAreGatheredAndScatteredLaneByLane) {
  // reading columns: the lanes of a vector are n apart
  std::string gather = "def g = depFun(n: Nat => fun(xs: 4.(4*n).f32 =>\n"
                       "  xs |> transpose |> join |> asVector(4) |> map(fun(v => v + v)) |> "
                       "asScalar))\n";
  std::string s = compile("g.rise", gather, "c").result.files.source;
  EXPECT_NE(s.find("(risec_f32x4){xs[i], xs[i + 4 * n], xs[i + 8 * n], xs[i + 12 * n]}"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("*(risec_f32x4u*)&output[4 * i] ="), std::string::npos) << s;
  // writing columns: the vector goes to a temporary, its lanes to memory
  std::string scatter = "def sc = depFun(n: Nat => fun(xs: (4*n).f32 =>\n"
                        "  xs |> asVector(4) |> mapSeq(fun(v => v * v)) |> asScalar |> split(4) "
                        "|> transpose))\n";
  for (const char* target : {"c", "opencl"}) {
    bool cl = std::string(target) == "opencl";
    s = compile("sc.rise", scatter, target).result.files.source;
    EXPECT_NE(s.find(cl ? "float4 lanes = vload4(0, xs + 4 * i) * vload4(0, xs + 4 * i);"
                        : "risec_f32x4 lanes = *(const risec_f32x4u*)&xs[4 * i] * *(const "
                          "risec_f32x4u*)&xs[4 * i];"),
              std::string::npos)
        << s;
    EXPECT_NE(s.find(cl ? "output[i + 3 * n] = lanes.s3;" : "output[i + 3 * n] = lanes[3];"),
              std::string::npos)
        << s;
  }
}

TEST(CodegenVector, MathWithoutAVectorFormIsComputedPerLaneInC) {
  Compiled c = compile("vec_clamp.rise", readFile(e2e("vec_clamp.rise")), "c");
  const std::string& s = c.result.files.source;
  EXPECT_NE(s.find("(risec_f32x4){sqrtf(fabsf(xs[4 * i])), sqrtf(fabsf(xs[4 * i + 1])),"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("-*(const risec_f32x4u*)&xs[4 * i]"), std::string::npos) << s; // vector neg
}

TEST(CodegenVector, WidthsWithoutAVectorTypeStayLaneByLaneInC) {
  std::string text = "def t = depFun(n: Nat => fun(xs: (3*n).f32 =>\n"
                     "  xs |> asVector(3) |> map(fun(v => v + v)) |> asScalar))\n";
  std::string s = compile("t.rise", text, "c").result.files.source;
  EXPECT_EQ(s.find("typedef"), std::string::npos) << s;
  EXPECT_NE(s.find("output[3 * i + 2] = xs[3 * i + 2] + xs[3 * i + 2];"), std::string::npos) << s;
}

TEST(CodegenVector, OpenCLUsesNativeVectors) {
  Compiled c = compile("vec_saxpy.rise", readFile(e2e("vec_saxpy.rise")), "opencl");
  const std::string& s = c.result.files.source;
  EXPECT_NE(s.find("vstore4((float4)(a)*vload4(0, xs + 4 * i) + vload4(0, ys + 4 * i), 0, "
                   "output + 4 * i);"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("typedef"), std::string::npos) << s;
  std::string clamp =
      compile("vec_clamp.rise", readFile(e2e("vec_clamp.rise")), "opencl").result.files.source;
  EXPECT_NE(clamp.find("max(min(vload4(0, xs + 4 * i), (float4)(1.0f)), (float4)(-1.0f))"),
            std::string::npos)
      << clamp;
  EXPECT_NE(clamp.find("sqrt(fabs(vload4(0, xs + 4 * i)))"), std::string::npos) << clamp;
  std::string three = "def t = depFun(n: Nat => fun(xs: (3*n).f32 =>\n"
                      "  xs |> asVector(3) |> map(fun(v => v + v)) |> asScalar))\n";
  std::string t = compile("t.rise", three, "opencl").result.files.source;
  EXPECT_NE(t.find("vstore3(vload3(0, xs + 3 * i) + vload3(0, xs + 3 * i), 0, output + 3 * i);"),
            std::string::npos)
      << t;
}

TEST(CodegenVector, OpenCLRejectsWidthsWithoutAType) {
  std::string text = "def f = depFun(n: Nat => fun(xs: (5*n).f32 =>\n"
                     "  xs |> asVector(5) |> map(fun(v => v + v)) |> asScalar))\n";
  try {
    compile("f.rise", text, "opencl");
    FAIL() << "vec[f32, 5] was accepted for OpenCL";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0660");
    EXPECT_EQ(e.location().line, 2);
    EXPECT_EQ(e.location().column, 9);
    EXPECT_EQ(e.message(), "`vec[f32, 5]`: OpenCL C has vectors of 2, 3, 4, 8 and 16 lanes only; "
                           "choose one of these widths (e.g. asVector(4), vectorize(4)), or "
                           "compile for --target c");
  }
  EXPECT_NO_THROW(compile("f.rise", text, "c")); // C computes it lane by lane
}

TEST(CodegenVector, ArraysOfPairsOfVectorsAreArraysOfStructsWithVectorFields) {
  // the header declares the vector type and the struct (the host's spelling
  // in an OpenCL kernel's header too); the .c only its load/store type
  std::string text = readFile(e2e("vec_pair_arrays.rise"));
  for (const char* target : {"c", "opencl"}) {
    SCOPED_TRACE(target);
    codegen::c::CFiles f = compile("vec_pair_arrays.rise", text, target).result.files;
    EXPECT_NE(f.header.find("#ifndef RISEC_VECTOR_risec_f32x4\n#define RISEC_VECTOR_risec_f32x4\n"
                            "typedef float risec_f32x4 __attribute__((vector_size(16)));"),
              std::string::npos)
        << f.header;
    EXPECT_NE(f.header.find("struct pair_f32x4_f32 {\n  risec_f32x4 fst;\n  float snd;\n};"),
              std::string::npos)
        << f.header;
    bool ocl = std::string(target) == "opencl";
    EXPECT_EQ(f.abi.params[0].cType, "struct pair_f32x4_f32x4");
    EXPECT_NE(
        f.source.find(ocl ? "output[i].snd = bodies[i].fst + (float4)(bodies[i].snd);"
                          : "output[i].snd = bodies[i].fst + risec_f32x4_splat(bodies[i].snd);"),
        std::string::npos)
        << f.source;
    EXPECT_EQ(f.source.find("typedef float risec_f32x4 "), std::string::npos) << f.source;
  }
  // a vector of a width that is no struct field: at the parameter
  std::string three = "def t = depFun(n: Nat => fun(xs: n.(vec[f32, 3], f32) =>\n"
                      "  xs |> map(fun(p => snd(p)))))\n";
  try {
    compile("t.rise", three, "c");
    FAIL() << "n.(vec[f32, 3], f32) was accepted";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0699");
    EXPECT_EQ(e.location().line, 1);
    EXPECT_EQ(e.location().column, 26);
  }
}

TEST(CodegenVector, OpenCLRejectsBoolVectors) {
  std::string text = "def b = depFun(n: Nat => fun(xs: (4*n).bool =>\n"
                     "  xs |> asVector(4) |> mapSeq(fun(v => v)) |> asScalar))\n";
  try {
    compile("b.rise", text, "opencl");
    FAIL() << "vec[bool, 4] was accepted for OpenCL";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0661");
    EXPECT_EQ(e.location().line, 2);
    EXPECT_EQ(e.message(), "`vec[bool, 4]`: OpenCL C has no vectors of bool; vectorise numeric "
                           "values, or compile for --target c");
  }
}

TEST(CodegenVector, OpenMPReducesVectorsWithAnExplicitCombine) {
  Compiled c = compile("vec_sum_par.rise", readFile(e2e("vec_sum_par.rise")), "openmp");
  const std::string& s = c.result.files.source;
  EXPECT_NE(s.find("risec_f32x4 partial[64];"), std::string::npos) << s;
  EXPECT_NE(s.find("part = part + *(const risec_f32x4u*)&xs[4 * j];"), std::string::npos) << s;
  EXPECT_EQ(s.find("reduction("), std::string::npos) << s; // no clause for vector types
}

TEST(CodegenVector, OpenMPRejectsReducingVectorsWithoutAVectorType) {
  std::string text = "def r = depFun(n: Nat => fun(xs: (3*n).f32 =>\n"
                     "  xs |> asVector(3) |> reducePar(fun(a, v => a + v), "
                     "vectorFromScalar(0.0f))))\n";
  try {
    compile("r.rise", text, "openmp");
    FAIL() << "reducePar on vec[f32, 3] was accepted";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0621");
    EXPECT_EQ(e.location().line, 2);
    EXPECT_EQ(e.location().column, 24);
    EXPECT_EQ(e.message(), "`reducePar` on a value of type `vec[f32, 3]` is not supported by the "
                           "OpenMP back end: its partial results would be arrays; use a scalar "
                           "(or pair of scalars) accumulator");
  }
}

// The ABI only aligns pointers to the element: every vector load and store
// must work at any float offset. The kernel is built at -O2 (packed loads)
// with UBSan (which reports a misaligned vector access) and called on x, y
// and the output 0..3 floats past the start of their buffers; every call
// must match the interpreter on the same values.
float alignX(int j) {
  return static_cast<float>(j % 7) - 2.5f;
}
float alignY(int j) {
  return static_cast<float>(j % 5) * 0.5f;
}

TEST(CodegenVector, LoadsAndStoresWorkAtAnyElementAlignment) {
  constexpr int n = 36;
  Compiled c = compile("vec_saxpy.rise", readFile(e2e("vec_saxpy.rise")), "c");
  fs::path dir = fs::temp_directory_path() / ("risec-vec-align-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "saxpyVec.c") << c.result.files.source;
  std::ofstream(dir / "saxpyVec.h") << c.result.files.header;
  std::ofstream(dir / "main.c") << R"(#include "saxpyVec.h"
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  enum { n = 36 };
  float* x = malloc(sizeof(float) * (n + 4));
  float* y = malloc(sizeof(float) * (n + 4));
  float* out = malloc(sizeof(float) * (n + 4));
  for (int j = 0; j < n + 4; ++j) {
    x[j] = (float)(j % 7) - 2.5f;
    y[j] = (float)(j % 5) * 0.5f;
  }
  for (int off = 0; off < 4; ++off) {
    if (saxpyVec(out + off, n, 1.5f, x + off, y + (3 - off)) != 0)
      return 1;
    for (int i = 0; i < n; ++i)
      printf("%.9g\n", (double)out[off + i]);
  }
  return 0;
}
)";
  std::vector<std::string> outputs;
  for (const char* cc : {"gcc", "clang"}) {
    if (std::string(cc) == "clang" && !haveClang())
      continue;
    std::string log, out, exe = (dir / cc).string();
    ASSERT_EQ(runCommand(std::string(cc) +
                             " -std=c11 -Wall -Wextra -Werror -O2 -fsanitize=undefined "
                             "-fno-sanitize-recover=all -I" +
                             dir.string() + " " + (dir / "saxpyVec.c").string() + " " +
                             (dir / "main.c").string() + " -o " + exe + " 2>&1",
                         &log),
              0)
        << log;
    ASSERT_EQ(runCommand(exe + " 2>&1", &out), 0) << out;
    outputs.push_back(out);
  }
  const rise::TypedDef& def = c.def;
  rise::interp::SizeEnv sizes{{"n", n}};
  rise::interp::EntryInterface iface = rise::interp::instantiateEntry(def, sizes);
  for (int off = 0; off < 4; ++off) {
    std::string xs, ys;
    for (int i = 0; i < n; ++i) {
      xs += (i ? ", " : "") + std::to_string(alignX(off + i));
      ys += (i ? ", " : "") + std::to_string(alignY(3 - off + i));
    }
    std::vector<rise::interp::Value> inputs = {
        rise::interp::parseValue("1.5", iface.inputTypes[0]),
        rise::interp::parseValue("[" + xs + "]", iface.inputTypes[1]),
        rise::interp::parseValue("[" + ys + "]", iface.inputTypes[2])};
    rise::interp::Value expected = rise::interp::evaluate(def, sizes, inputs);
    for (const std::string& o : outputs) {
      std::vector<std::string> t = tokens(o);
      ASSERT_EQ(t.size(), 4u * n) << o;
      std::vector<std::string> part(t.begin() + off * n, t.begin() + (off + 1) * n);
      std::size_t pos = 0;
      rise::interp::Value actual = unflatten(iface.outputType, part, pos);
      std::string why;
      EXPECT_TRUE(rise::interp::valuesClose(actual, expected, 1e-6, 1e-6, &why))
          << "offset " << off << ": " << why;
    }
  }
  if (!HasFailure())
    fs::remove_all(dir);
}

// ---- OpenMP end to end ----------------------------------------------------------------

std::vector<std::string> vectorPrograms() {
  std::vector<std::string> v;
  for (const std::string& f :
       risec::test::filesWithExtension(fs::path(RISEC_TEST_DATA) / "e2e", ".rise"))
    if (f.rfind("vec", 0) == 0)
      v.push_back(f);
  return v;
}

class VectorOpenMP : public ::testing::TestWithParam<std::string> {};

TEST_P(VectorOpenMP, MatchesTheInterpreterWithTwoThreads) {
  const std::string file = GetParam();
  Compiled c = compile(file, readFile(e2e(file)), "openmp", "try(mapToPar @ outermost(isMap))");
  const rise::TypedDef& def = c.def;
  std::vector<std::string> sizeNames = rise::interp::sizeParameters(def);
  ASSERT_EQ(sizeNames.size(), 1u) << "the vec_*.rise programs have one size, n";
  fs::path dir = fs::temp_directory_path() / ("risec-vec-omp-" + std::to_string(::getpid()) + "-" +
                                              fs::path(file).stem().string());
  std::string log;
  ASSERT_EQ(buildKernel(dir, def.name, c.result.files,
                        driverSource(def.name, def, sizeNames.size()), "gcc",
                        defaultCFlags() + " -fopenmp", log),
            0)
      << log << "\n"
      << c.result.files.source;
  ::setenv("OMP_NUM_THREADS", "2", 1);
  int valid = 0, invalid = 0;
  for (std::int64_t n : {0, 1, 3, 4, 5, 16, 37, 48, 96}) {
    rise::interp::SizeEnv s{{sizeNames[0], n}};
    std::string out;
    try {
      rise::interp::EntryInterface iface = rise::interp::instantiateEntry(def, s);
      std::mt19937_64 rng(static_cast<std::uint64_t>(n) + 99);
      std::vector<rise::interp::Value> inputs;
      for (const rise::Type& t : iface.inputTypes)
        inputs.push_back(rise::interp::randomValue(t, rng));
      rise::interp::Value expected = rise::interp::evaluate(def, s, inputs);
      EXPECT_EQ(runDriver(dir, (dir / "gcc").string(), inputRecord(def, sizeNames, s, inputs), out),
                0)
          << out;
      std::vector<std::string> tok = tokens(out);
      ASSERT_GE(tok.size(), 2u) << out;
      ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << "n=" << n << "\n" << out;
      std::size_t pos = 2;
      rise::interp::Value actual = unflatten(iface.outputType, tok, pos);
      std::string why;
      EXPECT_TRUE(rise::interp::valuesClose(actual, expected, 1e-4, 1e-4, &why))
          << file << " n=" << n << ": " << why;
      ++valid;
    } catch (const CompileError&) { // n violates a precondition: return 1, write nothing
      std::ostringstream in;
      in << n << "\n";
      writeDummyInputsAndOutputs(def, in);
      runDriver(dir, (dir / "gcc").string(), in.str(), out);
      EXPECT_EQ(out, "rc 1\nuntouched 1\n") << file << " n=" << n;
      ++invalid;
    }
  }
  ::unsetenv("OMP_NUM_THREADS");
  EXPECT_GE(valid, 2) << file;
  if (!::testing::Test::HasFailure())
    fs::remove_all(dir);
}

std::string programName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = fs::path(info.param).stem().string();
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Programs, VectorOpenMP, ::testing::ValuesIn(vectorPrograms()),
                         programName);

TEST(CodegenVector, OpenMPParallelisesTheVectorisedMap) {
  Compiled c = compile("vec_saxpy.rise", readFile(e2e("vec_saxpy.rise")), "openmp",
                       "mapToPar @ outermost(isMap)");
  const std::string& s = c.result.files.source;
  std::size_t pragma = s.find("#pragma omp parallel for");
  ASSERT_NE(pragma, std::string::npos) << s;
  std::string body = loopBody(s, "for (int i = 0; i < n / 4; i += 1) {");
  EXPECT_EQ(count(body, ";"), 1u) << body;
  EXPECT_EQ(count(body, "*(risec_f32x4u*)&output[4 * i] ="), 1u) << body;
}

} // namespace
