// The host wrappers (codegen/host, docs/host.md): the OpenCL header declares
// SYMBOL with exactly the C target's parameter list plus SYMBOL_ctx,
// SYMBOL_buffers, SYMBOL_check and SYMBOL_launch in ABI order; SYMBOL_host.c
// embeds SYMBOL.cl exactly; --launch is parsed and diagnosed; the default
// launch rule. End to end on PoCL (in separate processes, through
// CKernelRunner exactly like a C kernel): SYMBOL(...) with host pointers and
// SYMBOL_buffers(...) with cl_mem, compared with the reference interpreter
// on random inputs at sizes including 0, 1 and non-divisible ones; a
// violated precondition returns 1 and leaves the output untouched; a device
// that does not exist returns 5; host arrays at every alignment, in place
// (zero copy) and through the staging buffers, on repeated calls; a launch
// whose work-group size or local memory the device does not allow returns 8
// with the numbers (risec_cl_check_launch).
#include "CKernelRunner.h"
#include "TestFiles.h"
#include "codegen/Compile.h"
#include "codegen/host/HostWrappers.h"
#include "codegen/host/Launch.h"
#include "driver/CompileCommand.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <unistd.h>

namespace {

using namespace risec;
using namespace risec::testsupport;
namespace fs = std::filesystem;
using codegen::host::GridLoopInfo;
using risec::test::readFile;

struct Compiled {
  rise::TypedDef def;
  codegen::CompileResult result;
};

Compiled compile(const std::string& file, const std::string& target,
                 std::optional<codegen::host::Launch> launch = std::nullopt) {
  fs::path path = fs::path(RISEC_TEST_DATA) / file;
  rise::Program program = rise::parseProgram(rise::makeSourceFile(file, readFile(path)));
  std::string entry = program.defs.back().name;
  rise::TypedDef def = rise::inferDef(program, entry);
  codegen::c::COptions opts{entry, file, "test", "", *codegen::parseTarget(target)};
  opts.launch = launch;
  return {def, codegen::compileToC(program, def, opts)};
}

std::vector<rise::DepBinder> sizesOf(const rise::TypedDef& def) {
  std::vector<rise::DepBinder> sizes;
  for (rise::Expr e = def.expr;
       e->kind() == rise::ExprKind::DepLambda && e->binder().kind == rise::Kind::Nat; e = e->body())
    sizes.push_back(e->binder());
  return sizes;
}

/// `text` with every run of whitespace as one space.
std::string squeeze(const std::string& text) {
  return std::regex_replace(text, std::regex("\\s+"), " ");
}

/// The parameter list of the declaration `int NAME(...);` in `header`.
std::string parameterList(const std::string& header, const std::string& name) {
  std::string flat = squeeze(header);
  std::smatch m;
  if (!std::regex_search(flat, m, std::regex("int " + name + "\\(([^)]*)\\);")))
    return "(not declared)";
  return m[1];
}

// ---- the header ------------------------------------------------------------------

class HostHeader : public ::testing::TestWithParam<const char*> {};

TEST_P(HostHeader, DeclaresTheCAbiAndTheWrappersInAbiOrder) {
  Compiled ocl = compile(GetParam(), "opencl");
  const codegen::KernelAbi& abi = ocl.result.files.abi;
  const std::string& h = ocl.result.files.header;
  // SYMBOL: exactly the C target's parameter list (same header text)
  std::string expected;
  for (const codegen::AbiParam& p : abi.params) {
    if (p.role == codegen::AbiParam::Role::Temporary)
      continue;
    std::string decl = !p.array
                           ? p.cType + " " + p.name
                           : std::string(p.role == codegen::AbiParam::Role::Input ? "const " : "") +
                                 p.cType + "* restrict " + p.name;
    expected += (expected.empty() ? "" : ", ") + decl;
  }
  EXPECT_EQ(parameterList(h, abi.symbol), expected) << h;
  EXPECT_EQ(parameterList(h, abi.symbol + "_ctx"), "risec_cl_context* ctx, " + expected) << h;
  std::string buffers;
  std::string sizes;
  for (const codegen::AbiParam& p : abi.params) {
    if (p.role == codegen::AbiParam::Role::Temporary)
      continue;
    buffers += (buffers.empty() ? "" : ", ") + (p.array ? "cl_mem " : p.cType + " ") + p.name;
    if (p.role == codegen::AbiParam::Role::Size)
      sizes += "int " + p.name + ", ";
  }
  EXPECT_EQ(parameterList(h, abi.symbol + "_buffers"), "risec_cl_context* ctx, " + buffers);
  EXPECT_NE(squeeze(h).find("void " + abi.symbol + "_launch(" + sizes +
                            "size_t global[3], size_t local[3], cl_uint* dims);"),
            std::string::npos)
      << h;
  EXPECT_NE(squeeze(h).find("int " + abi.symbol + "_check("), std::string::npos) << h;
  EXPECT_NE(h.find("#include \"risec_cl.h\""), std::string::npos);

  // and the C target declares the same list
  Compiled c = compile(GetParam(), "c");
  EXPECT_EQ(parameterList(c.result.files.header, abi.symbol), expected);
  EXPECT_EQ(c.result.files.hostSource, "");
}

INSTANTIATE_TEST_SUITE_P(Kernels, HostHeader,
                         ::testing::Values("rise/mv_ocl.rise", "e2e/ocl_scal.rise",
                                           "rise/matrix_add_ocl.rise"));

TEST(HostHeader, DocCommentListsEveryParameterWithItsRiseTypeAndCount) {
  Compiled c = compile("rise/mv_ocl.rise", "c");
  const std::string& h = c.result.files.header;
  for (const char* line :
       {" *   output (output): (s*(n/s)).f32, s*(n/s) elements\n", " *   n (size): Nat\n",
        " *   M (input): n.m.f32, m*n elements\n", " *   x (input): m.f32, m elements\n",
        " *   n%s == 0\n", " * Target:    c\n"})
    EXPECT_NE(h.find(line), std::string::npos) << line << "\n" << h;
  EXPECT_EQ(c.result.files.source.rfind(h.substr(0, h.find("*/")), 0), 0u)
      << "the source opens with the same doc comment";
}

TEST(HostHeader, OutputFilesOfOpenCLIncludeTheHostSource) {
  Compiled ocl = compile("e2e/ocl_scal.rise", "opencl");
  std::vector<codegen::OutputFile> files = codegen::outputFiles(ocl.result);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].name, "oclScal.cl");
  EXPECT_EQ(files[1].name, "oclScal.h");
  EXPECT_EQ(files[2].name, "oclScal_host.c");
  EXPECT_EQ(files[2].contents, ocl.result.files.hostSource);
  EXPECT_EQ(codegen::outputFiles(compile("e2e/ocl_scal.rise", "c").result).size(), 2u);
}

// ---- the embedded kernel ---------------------------------------------------------

/// Reads back the C string literal pieces starting at `pos` up to the `;`.
std::string unescapeLiterals(const std::string& c, std::size_t pos) {
  std::string out;
  while (pos < c.size() && c[pos] != ';') {
    if (c[pos] != '"') {
      ++pos;
      continue;
    }
    for (++pos; c[pos] != '"'; ++pos) {
      if (c[pos] != '\\') {
        out += c[pos];
        continue;
      }
      char e = c[++pos];
      if (e >= '0' && e <= '7') {
        out += static_cast<char>(std::stoi(c.substr(pos, 3), nullptr, 8));
        pos += 2;
      } else {
        out += e == 'n' ? '\n' : e == 't' ? '\t' : e; // \\ \" \?
      }
    }
    ++pos;
  }
  return out;
}

TEST(HostSource, EmbedsTheKernelExactly) {
  for (const char* file : {"rise/mv_ocl.rise", "e2e/ocl_scal.rise", "rise/matrix_add_ocl.rise"}) {
    Compiled ocl = compile(file, "opencl");
    const std::string& host = ocl.result.files.hostSource;
    std::string marker = ocl.result.files.abi.symbol + "_source[] =";
    std::size_t at = host.find(marker);
    ASSERT_NE(at, std::string::npos) << host;
    EXPECT_EQ(unescapeLiterals(host, at + marker.size()), ocl.result.files.source) << file;
  }
}

TEST(HostSource, StringLiteralsRoundTripAwkwardText) {
  std::string text = "a \"quoted\" \\ back?"
                     "?=slash\ttab\n\nend\x01 ?"
                     "?"
                     "? \xc3\xa9";
  std::string literal = codegen::host::cStringLiteral(text);
  EXPECT_EQ(unescapeLiterals(literal + ";", 0), text) << literal;
  EXPECT_EQ(literal.find("??"), std::string::npos) << "no trigraphs: " << literal;
  EXPECT_EQ(codegen::host::cStringLiteral("x\ny\n"), "    \"x\\n\"\n    \"y\\n\"");
}

TEST(HostSource, GlobalTemporariesAreAllocatedAndPassedLast) {
  // No kernel has global temporaries yet: add one to scal's ABI by hand.
  Compiled c = compile("e2e/ocl_scal.rise", "opencl");
  codegen::KernelAbi abi = c.result.files.abi;
  codegen::AbiParam tmp;
  tmp.role = codegen::AbiParam::Role::Temporary;
  tmp.name = "tmp";
  tmp.riseName = "tmp";
  tmp.cType = "float";
  tmp.array = true;
  tmp.count = rise::natConst(1);
  for (const codegen::AbiParam& p : abi.params)
    if (p.role == codegen::AbiParam::Role::Input && p.array)
      tmp.count = p.count * 2;
  abi.params.push_back(tmp);
  codegen::host::LaunchPlan plan;
  plan.launch = codegen::host::defaultLaunch(plan.loops);
  codegen::c::COptions opts{abi.symbol, "ocl_scal.rise", "test", "", codegen::Target::OpenCL};
  std::string header = codegen::host::openclHeader(
      abi, opts, plan, "static inline int oclScal_check(int n) { return n < 0 ? 2 : 0; }");
  std::string host = codegen::host::openclHostSource(abi, opts, plan, c.result.files.source);
  EXPECT_EQ(parameterList(header, "oclScal_buffers"),
            "risec_cl_context* ctx, cl_mem output, int n, float a, cl_mem xs")
      << "temporaries are not parameters of the wrappers";
  EXPECT_NE(squeeze(host).find("tmp = clCreateBuffer(risec_cl_context_handle(risec_ctx), "
                               "CL_MEM_READ_WRITE, risec_bytes > 0 ? risec_bytes : 1, NULL, "
                               "&risec_err);"),
            std::string::npos)
      << host;
  EXPECT_NE(squeeze(host).find("size_t risec_bytes = (size_t)(2*n) * sizeof(float);"),
            std::string::npos)
      << host;
  EXPECT_NE(host.find("clSetKernelArg(risec_kernel, 4, sizeof(cl_mem), &tmp)"), std::string::npos)
      << host;
  EXPECT_NE(host.find("clReleaseMemObject(tmp);"), std::string::npos) << host;
  // and it compiles
  fs::path dir = fs::temp_directory_path() / ("risec-host-tmp-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "oclScal.h") << header;
  std::ofstream(dir / "oclScal_host.c") << host;
  std::string log;
  EXPECT_EQ(runCommand("gcc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I" +
                           std::string(RISEC_TEST_DATA) + "/../host " +
                           (dir / "oclScal_host.c").string(),
                       &log),
            0)
      << log << "\n"
      << host;
  if (!::testing::Test::HasFailure())
    fs::remove_all(dir);
}

TEST(HostSource, ZeroCopyAlignmentIsTheLargestVectorType) {
  using codegen::host::largestVectorBytes;
  EXPECT_EQ(largestVectorBytes("global float* restrict out, const global float* xs"), 0u);
  EXPECT_EQ(largestVectorBytes("vstore4((float4)(a) * vload4(0, xs), 0, out)"), 16u);
  EXPECT_EQ(largestVectorBytes("double3 d; int2 i; uchar16 c;"), 32u) << "a 3-vector is 4 wide";
  EXPECT_EQ(largestVectorBytes("float16 f; long8 l;"), 64u);
  EXPECT_EQ(largestVectorBytes("myfloat4 x; float42 y; float4x"), 0u) << "whole words only";
  // scalar kernels need the element's alignment; vector ones the vector's
  std::string scalar = compile("e2e/ocl_scal.rise", "opencl").result.files.hostSource;
  EXPECT_NE(squeeze(scalar).find("risec_cl_host_array_begin(risec_ctx, 1, xs, risec_xs_bytes, "
                                 "_Alignof(float), 0, &risec_xs_array)"),
            std::string::npos)
      << scalar;
  std::string vector = compile("e2e/vec_scal_global.rise", "opencl").result.files.hostSource;
  EXPECT_NE(squeeze(vector).find("risec_cl_host_array_begin(risec_ctx, 0, output, "
                                 "risec_output_bytes, (16 > _Alignof(float) ? 16 : "
                                 "_Alignof(float)), 1, &risec_output_array)"),
            std::string::npos)
      << vector;
}

// ---- --launch ------------------------------------------------------------------------

class LaunchOption : public ::testing::Test {
protected:
  std::vector<rise::DepBinder> sizes = sizesOf(compile("rise/mv_ocl.rise", "c").def); // n, m, s
  std::string parsed(const std::string& text) {
    return codegen::host::launchToString(codegen::host::parseLaunchOption(text, sizes));
  }
  std::string diagnostic(const std::string& text) {
    try {
      codegen::host::parseLaunchOption(text, sizes);
    } catch (const CompileError& e) {
      return e.code() + ": " + e.message();
    }
    return "(accepted)";
  }
};

TEST_F(LaunchOption, ParsesOneToThreeDimensions) {
  EXPECT_EQ(parsed("global=[n]"), "global=[n]");
  EXPECT_EQ(parsed("global=[n/s, m],local=[s, 1]"), "global=[n/s, m],local=[s, 1]");
  EXPECT_EQ(parsed(" local=[32,1,1] , global=[n*32, 2, 1]"),
            "global=[32*n, 2, 1],local=[32, 1, 1]");
}

TEST_F(LaunchOption, Diagnostics) {
  EXPECT_EQ(diagnostic("global=[q]"),
            "E0511: --launch 'global=[q]': size `q` of `global`: unknown size variable `q`; sizes "
            "must be bound by an enclosing depFun, e.g. `depFun(q: Nat => ...)` (the sizes are "
            "n, m, s)");
  EXPECT_EQ(diagnostic("global=[n"),
            "E0510: --launch 'global=[n': `global=` takes a list such as `global=[n, m/4]`, not "
            "`[n`");
  EXPECT_EQ(diagnostic("glob=[n]"),
            "E0510: --launch 'glob=[n]': expected `global=[...]` or `local=[...]` at `glob=[n]`; "
            "write e.g. --launch 'global=[n],local=[32]'");
  EXPECT_EQ(diagnostic("global=[n],global=[m]"),
            "E0510: --launch 'global=[n],global=[m]': `global` is given twice");
  EXPECT_EQ(diagnostic("global=[]"),
            "E0512: --launch 'global=[]': `global` has 1 to 3 dimensions, e.g. `global=[n, m]`, "
            "not 0");
  EXPECT_EQ(diagnostic("global=[n,n,n,n]"),
            "E0512: --launch 'global=[n,n,n,n]': `global` has 1 to 3 dimensions, e.g. "
            "`global=[n, m]`, not 4");
  EXPECT_EQ(
      diagnostic("global=[n],local=[1,2]"),
      "E0512: --launch 'global=[n],local=[1,2]': `local` has 2 dimensions but `global` has 1");
  EXPECT_EQ(diagnostic("local=[1]"),
            "E0513: --launch 'local=[1]': the global size is missing; add `global=[...]`");
}

TEST_F(LaunchOption, UnusedDimensionsHaveOneWorkItem) {
  // a kernel whose maps use dimension 0 only (fuzz finding F2: in-place
  // updates of an accumulator tile were repeated by the work-items of
  // dimension 1)
  using codegen::host::checkUnusedDimensions;
  auto launch = [&](const std::string& text) {
    return codegen::host::parseLaunchOption(text, sizes);
  };
  EXPECT_NO_THROW(checkUnusedDimensions(launch("global=[n],local=[s]"), {0}));
  EXPECT_NO_THROW(checkUnusedDimensions(launch("global=[n, 1, 1]"), {0}));
  EXPECT_NO_THROW(checkUnusedDimensions(launch("global=[n, m]"), {0, 1}));
  try {
    checkUnusedDimensions(launch("global=[n, m],local=[s, 2]"), {0});
    ADD_FAILURE() << "accepted";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0515");
    EXPECT_EQ(e.message().rfind("--launch 'global=[n, m],local=[s, 2]': no parallel map of the "
                                "kernel uses dimension 1, so its global size must be 1, not `m`",
                                0),
              0u)
        << e.message();
  }
}

TEST(LaunchOptionCli, OnlyForOpenCL) {
  driver::CompileOptions opts;
  opts.file = (fs::path(RISEC_TEST_DATA) / "e2e" / "ocl_scal.rise").string();
  opts.target = "c";
  opts.launch = "global=[n]";
  opts.outDir = fs::temp_directory_path().string();
  std::ostringstream out;
  try {
    driver::runCompile(opts, out);
    FAIL() << "accepted --launch for --target c";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0514");
    EXPECT_EQ(e.message(), "--launch only applies to --target opencl; remove it or compile with "
                           "--target opencl");
  }
}

TEST(LaunchOptionCli, GivenLaunchIsTheOneUsed) {
  Compiled ocl =
      compile("rise/mv_ocl.rise", "opencl",
              codegen::host::parseLaunchOption("global=[n/s*8, 1],local=[8, 1]",
                                               sizesOf(compile("rise/mv_ocl.rise", "c").def)));
  const std::string& host = ocl.result.files.hostSource;
  EXPECT_NE(host.find("*risec_dims = 2;"), std::string::npos) << host;
  EXPECT_NE(host.find("risec_local[0] = (size_t)(8);"), std::string::npos) << host;
  EXPECT_NE(ocl.result.files.header.find("launch: given"), std::string::npos);
}

// ---- the default launch rule ---------------------------------------------------------

std::string launchOf(const codegen::host::GridLoops& loops) {
  return codegen::host::launchToString(codegen::host::defaultLaunch(loops));
}

TEST(DefaultLaunch, Rule) {
  using Kind = GridLoopInfo::Kind;
  rise::Nat n = rise::natVar("n"), m = rise::natVar("m");
  codegen::host::GridLoops none;
  EXPECT_EQ(launchOf(none), "global=[1],local=[1]");

  codegen::host::GridLoops global;
  global.add({Kind::Global, 0, n, 0});
  EXPECT_EQ(launchOf(global), "global=[n],local=[max(1, min(128, n))]")
      << "a lone mapGlobal(0), symbolic trip count: local up to 128, global the trip count (the "
         "wrapper rounds it up to whole work-groups)";
  EXPECT_EQ(rise::natToString(*codegen::host::neededGlobal(global, 0, rise::natConst(128))),
            "128*((n + 127)/128)")
      << "the work of whole work-groups";
  codegen::host::GridLoops global2d; // mapGlobal(0) and mapGlobal(1): 32 x 8
  global2d.add({Kind::Global, 0, rise::natConst(1000), 0});
  global2d.add({Kind::Global, 1, rise::natConst(1000), 1});
  EXPECT_EQ(launchOf(global2d), "global=[1000, 1000],local=[32, 8]");
  codegen::host::GridLoops groups1d; // mapWorkGroup(0)(mapLocal(0) over 64): capped at 32
  groups1d.add({Kind::WorkGroup, 0, n, 0});
  groups1d.add({Kind::Local, 0, rise::natConst(64), 1});
  EXPECT_EQ(launchOf(groups1d), "global=[32*n],local=[32]");

  codegen::host::GridLoops small;
  small.add({Kind::Global, 0, rise::natConst(5), 0});
  EXPECT_EQ(launchOf(small), "global=[5],local=[5]");
  codegen::host::GridLoops large;
  large.add({Kind::Global, 0, rise::natConst(1000), 0});
  EXPECT_EQ(launchOf(large), "global=[1000],local=[128]");

  codegen::host::GridLoops groups; // mapWorkGroup(0)(mapLocal(0)) and a mapGlobal(2)
  groups.add({Kind::WorkGroup, 0, n / 4, 0});
  groups.add({Kind::Local, 0, rise::natConst(4), 1});
  groups.add({Kind::Local, 0, rise::natConst(64), 2}); // not the outermost
  groups.add({Kind::Global, 2, m, 1});
  std::string l = launchOf(groups);
  EXPECT_EQ(l.substr(0, l.find(',')), "global=[4*(n/4)");
  EXPECT_NE(l.find("local=[4, 1, 1]"), std::string::npos) << l;
  EXPECT_NE(l.find(", 1, m]"), std::string::npos) << "mapGlobal(2): one work-item per group " << l;

  codegen::host::GridLoops rows; // mapGlobal(1) over 100 rows: local capped at 8
  rows.add({Kind::Global, 1, rise::natConst(100), 0});
  EXPECT_EQ(launchOf(rows), "global=[1, 100],local=[1, 8]");
  // Two grid loops of dimension 0 in sequence (a vector loop over n/4 and
  // its tail of n % 4, peelTail): the launch covers the larger, so that the
  // tail runs when n/4 is 0 (before: global n/4, capped to 0, no launch).
  codegen::host::GridLoops peeled;
  peeled.add({Kind::Global, 0, rise::natConst(0), 0});
  peeled.add({Kind::Global, 0, rise::natConst(3), 0});
  EXPECT_EQ(launchOf(peeled), "global=[3],local=[3]");
  EXPECT_EQ((*codegen::host::neededGlobal(peeled, 0, rise::Nat()))->value(), 3);
}

TEST(DefaultLaunch, OfTheKernels) {
  auto text = [](const char* file) {
    const std::string& h = compile(file, "opencl").result.files.header;
    std::size_t at = h.find(" *   launch: ") + 13;
    std::string text = h.substr(at, h.find("*/", at) - at); // may be wrapped
    text = squeeze(std::regex_replace(text, std::regex("\n \\*"), ""));
    return text.substr(0, text.find(" work:"));
  };
  EXPECT_EQ(text("rise/mv_ocl.rise"), "the default rule (docs/host.md) global: [n/s*max(1, "
                                      "min(32, s))] local: [max(1, min(32, s))]");
  EXPECT_EQ(text("rise/matrix_add_ocl.rise"),
            "the default rule (docs/host.md) global: [m, n] local: [max(1, min(32, m)), max(1, "
            "min(8, n))]");
}

// ---- end to end on PoCL --------------------------------------------------------------

class HostEndToEnd : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("risec-host-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    setenv("RISEC_CL_CACHE_DIR", (dir_ / "cache").c_str(), 1);
    unsetenv("RISEC_CL_DEVICE");
  }
  void TearDown() override {
    unsetenv("RISEC_CL_CACHE_DIR");
    if (!HasFailure())
      fs::remove_all(dir_);
  }

  /// Builds the kernel's host wrappers with the CKernelRunner driver and runs
  /// it on random inputs at each size, against the interpreter.
  void runAgainstInterpreter(const std::string& file,
                             const std::vector<rise::interp::SizeEnv>& sizes) {
    Compiled c = compile(file, "opencl");
    const rise::TypedDef& def = c.def;
    const std::string& symbol = c.result.files.abi.symbol;
    std::vector<std::string> names = rise::interp::sizeParameters(def);
    std::string log;
    ASSERT_EQ(buildKernel(dir_, symbol, c.result.files, driverSource(symbol, def, names.size()),
                          "gcc", defaultCFlags(), log),
              0)
        << log << "\n"
        << c.result.files.hostSource;
    std::mt19937_64 rng(2024);
    for (const rise::interp::SizeEnv& s : sizes) {
      rise::interp::EntryInterface iface = rise::interp::instantiateEntry(def, s);
      std::vector<rise::interp::Value> inputs;
      for (const rise::Type& t : iface.inputTypes)
        inputs.push_back(rise::interp::randomValue(t, rng));
      rise::interp::Value expected = rise::interp::evaluate(def, s, inputs);
      std::string out;
      EXPECT_EQ(runDriver(dir_, (dir_ / "gcc").string(), inputRecord(def, names, s, inputs), out),
                0)
          << out;
      std::vector<std::string> tok = tokens(out);
      ASSERT_GE(tok.size(), 2u) << out;
      ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << file << "\n" << out;
      std::size_t pos = 2;
      rise::interp::Value actual = unflatten(iface.outputType, tok, pos);
      std::string why;
      EXPECT_TRUE(rise::interp::valuesClose(actual, expected, 1e-4, 1e-4, &why))
          << file << ": " << why;
    }
  }

  /// Runs the built driver on sizes that must fail before reading inputs.
  std::string runFailing(const std::vector<int>& sizes, const rise::TypedDef& def,
                         const std::string& environment = "") {
    std::ostringstream in;
    for (int s : sizes)
      in << s << "\n";
    writeDummyInputsAndOutputs(def, in);
    std::ofstream(dir_ / "input.txt") << in.str();
    std::string out;
#ifdef RISEC_E2E_SANITIZE
    std::string asan = "ASAN_OPTIONS=detect_leaks=0 ";
#else
    std::string asan;
#endif
    runCommand(environment + asan + (dir_ / "gcc").string() + " " + (dir_ / "input.txt").string(),
               &out);
    return out;
  }

  fs::path dir_;
};

TEST_F(HostEndToEnd, MvWorkGroupsMatchTheInterpreter) {
  runAgainstInterpreter("rise/mv_ocl.rise", {{{"n", 0}, {"m", 2}, {"s", 4}},
                                             {{"n", 1}, {"m", 1}, {"s", 1}},
                                             {{"n", 6}, {"m", 5}, {"s", 3}},
                                             {{"n", 40}, {"m", 7}, {"s", 40}},
                                             {{"n", 99}, {"m", 3}, {"s", 33}}});
}

TEST_F(HostEndToEnd, ScalMatchesTheInterpreter) {
  runAgainstInterpreter("e2e/ocl_scal.rise", {{{"n", 0}}, {{"n", 1}}, {{"n", 33}}, {{"n", 1000}}});
}

TEST_F(HostEndToEnd, MatrixAdd2DMatchesTheInterpreter) {
  runAgainstInterpreter("rise/matrix_add_ocl.rise", {{{"n", 0}, {"m", 3}},
                                                     {{"n", 1}, {"m", 1}},
                                                     {{"n", 3}, {"m", 0}},
                                                     {{"n", 37}, {"m", 5}},
                                                     {{"n", 7}, {"m", 45}}});
}

TEST_F(HostEndToEnd, PreconditionFailureAndBadDevice) {
  Compiled c = compile("rise/mv_ocl.rise", "opencl");
  std::string log;
  ASSERT_EQ(buildKernel(dir_, "mvOpt", c.result.files, driverSource("mvOpt", c.def, 3), "gcc",
                        defaultCFlags(), log),
            0)
      << log;
  EXPECT_EQ(runFailing({5, 2, 2}, c.def), "rc 1\nuntouched 1\n") << "n % s != 0";
  EXPECT_EQ(runFailing({-1, 2, 2}, c.def), "rc 2\nuntouched 1\n") << "a negative size";
  EXPECT_EQ(runFailing({4, 2, 2}, c.def, "RISEC_CL_DEVICE=no-such-device "), "rc 5\nuntouched 1\n")
      << "no device";
}

/// A driver that asks the device for its maximum work-group size M and calls
/// oclScal, compiled with `local=[n]`, at n = M (it fits) and n = M + 1 (it
/// does not): the return code, the output (right, or untouched) and the
/// message of risec_cl_default_error().
const char* kMisfitDriver = R"(#include "oclScal.h"
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  risec_cl_context* ctx;
  if (risec_cl_default(&ctx) != RISEC_CL_OK) return 91;
  size_t max = 0;
  if (clGetDeviceInfo(risec_cl_device(ctx), CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max, &max,
                      NULL) != CL_SUCCESS)
    return 92;
  for (int extra = 0; extra <= 1; ++extra) {
    int n = (int)max + extra;
    float* x = malloc(sizeof(float) * (size_t)n);
    float* o = malloc(sizeof(float) * (size_t)n);
    for (int i = 0; i < n; ++i) {
      x[i] = (float)(i % 100);
      o[i] = -7.0f;
    }
    int rc = oclScal(o, n, 2.0f, x);
    int untouched = 1, right = 1;
    for (int i = 0; i < n; ++i) {
      untouched = untouched && o[i] == -7.0f;
      right = right && o[i] == 2.0f * (float)(i % 100);
    }
    printf("max %zu n %d rc %d untouched %d right %d\n%s\n", max, n, rc, untouched, right,
           rc ? risec_cl_default_error() : "");
    free(x);
    free(o);
  }
  return 0;
}
)";

TEST_F(HostEndToEnd, LaunchLargerThanTheDeviceAllowsReturns8WithTheNumbers) {
  Compiled plain = compile("e2e/ocl_scal.rise", "opencl");
  Compiled c =
      compile("e2e/ocl_scal.rise", "opencl",
              codegen::host::parseLaunchOption("global=[n],local=[n]", sizesOf(plain.def)));
  ASSERT_NE(c.result.files.hostSource.find("risec_cl_check_launch(risec_ctx, risec_kernel"),
            std::string::npos)
      << c.result.files.hostSource;
  std::string log;
  ASSERT_EQ(
      buildKernel(dir_, "oclScal", c.result.files, kMisfitDriver, "gcc", defaultCFlags(), log), 0)
      << log;
  std::string out;
  EXPECT_EQ(runDriver(dir_, (dir_ / "gcc").string(), "", out), 0) << out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out, m, std::regex("^max (\\d+) "))) << out;
  long max = std::stol(m[1]);
  ASSERT_GE(max, 1) << out;
  std::string fits =
      "max " + std::to_string(max) + " n " + std::to_string(max) + " rc 0 untouched 0 right 1\n\n";
  ASSERT_EQ(out.substr(0, fits.size()), fits) << "a local size of the maximum fits\n" << out;
  std::string rest = out.substr(fits.size());
  std::string misfit = "max " + std::to_string(max) + " n " + std::to_string(max + 1) +
                       " rc 8 untouched 1 right 0\n";
  EXPECT_EQ(rest.substr(0, misfit.size()), misfit) << out;
  std::string message = rest.substr(std::min(misfit.size(), rest.size()));
  std::string expected = "kernel oclScal: local size " + std::to_string(max + 1) +
                         " work-items exceeds this device's maximum work-group size of " +
                         std::to_string(max) + " (CL_DEVICE_MAX_WORK_GROUP_SIZE, ";
  EXPECT_EQ(message.substr(0, expected.size()), expected) << out;
  EXPECT_NE(message.find("a smaller tile (the trip count of a mapLocal) in the strategy, or a "
                         "smaller local size in the spec's `launch:`"),
            std::string::npos)
      << out;
}

/// Staging a work-group's 600000 floats (2400000 bytes) in local memory:
/// more than PoCL's 2 MiB of CL_DEVICE_LOCAL_MEM_SIZE.
const char* kBigLocalSource = R"(def bigLocal = depFun(n: Nat => fun(xs: n.600000.f32 =>
  xs |> mapWorkGroup(0)(fun(chunk =>
    chunk |> mapLocal(0)(fun(x => x)) |> toLocal |> mapLocal(0)(fun(x => x * 2.0f))))))
)";

const char* kBigLocalDriver = R"(#include "bigLocal.h"
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  risec_cl_context* ctx;
  if (risec_cl_default(&ctx) != RISEC_CL_OK) return 91;
  cl_ulong bytes = 0;
  if (clGetDeviceInfo(risec_cl_device(ctx), CL_DEVICE_LOCAL_MEM_SIZE, sizeof bytes, &bytes,
                      NULL) != CL_SUCCESS)
    return 92;
  float* x = calloc(600000, sizeof(float));
  float* o = malloc(600000 * sizeof(float));
  for (int i = 0; i < 600000; ++i) o[i] = -7.0f;
  int rc = bigLocal(o, 1, x);
  int untouched = 1;
  for (int i = 0; i < 600000; ++i) untouched = untouched && o[i] == -7.0f;
  printf("local %llu rc %d untouched %d\n%s\n", (unsigned long long)bytes, rc, untouched,
         risec_cl_default_error());
  free(x);
  free(o);
  return 0;
}
)";

TEST_F(HostEndToEnd, LocalMemoryLargerThanTheDeviceHasReturns8WithTheNumbers) {
  fs::path source = dir_ / "big_local.rise";
  std::ofstream(source) << kBigLocalSource;
  Compiled c = compile(source.string(), "opencl");
  std::string log;
  ASSERT_EQ(
      buildKernel(dir_, "bigLocal", c.result.files, kBigLocalDriver, "gcc", defaultCFlags(), log),
      0)
      << log;
  std::string out;
  EXPECT_EQ(runDriver(dir_, (dir_ / "gcc").string(), "", out), 0) << out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out, m, std::regex("^local (\\d+) "))) << out;
  long long bytes = std::stoll(m[1]);
  if (bytes >= 2400000)
    GTEST_SKIP() << "the device has " << bytes << " bytes of local memory";
  std::string expected = "local " + std::to_string(bytes) +
                         " rc 8 untouched 1\nkernel bigLocal: its local memory of 2400000 bytes "
                         "(CL_KERNEL_LOCAL_MEM_SIZE) exceeds this device's " +
                         std::to_string(bytes) + " bytes (CL_DEVICE_LOCAL_MEM_SIZE, ";
  EXPECT_EQ(out.substr(0, expected.size()), expected) << out;
}

/// A driver that calls oclScal_buffers on cl_mem buffers of its own context.
const char* kBuffersDriver = R"(#include "oclScal.h"
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
  (void)argc;
  FILE* in = fopen(argv[1], "r");
  int n;
  float a;
  if (!in || fscanf(in, "%d %f", &n, &a) != 2) return 90;
  float* x = malloc(sizeof(float) * (size_t)(n + 1));
  float* out = malloc(sizeof(float) * (size_t)(n + 1));
  for (int i = 0; i < n; ++i)
    if (fscanf(in, "%f", &x[i]) != 1) return 90;
  fclose(in);
  risec_cl_context* ctx;
  if (risec_cl_create(&ctx, NULL) != RISEC_CL_OK) return 91;
  cl_int err;
  cl_context c = risec_cl_context_handle(ctx);
  size_t bytes = sizeof(float) * (size_t)(n > 0 ? n : 1);
  cl_mem bx = clCreateBuffer(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, x, &err);
  cl_mem bo = clCreateBuffer(c, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
  int rc = oclScal_buffers(ctx, bo, n, a, bx);
  printf("rc %d\n", rc);
  if (rc == 0 && n > 0)
    clEnqueueReadBuffer(risec_cl_queue(ctx), bo, CL_TRUE, 0, sizeof(float) * (size_t)n, out, 0,
                        NULL, NULL);
  for (int i = 0; rc == 0 && i < n; ++i)
    printf("%.9g\n", out[i]);
  clReleaseMemObject(bx);
  clReleaseMemObject(bo);
  risec_cl_release(ctx);
  free(x);
  free(out);
  return 0;
}
)";

TEST_F(HostEndToEnd, BuffersWrapperTakesClMem) {
  Compiled c = compile("e2e/ocl_scal.rise", "opencl");
  std::string log;
  ASSERT_EQ(
      buildKernel(dir_, "oclScal", c.result.files, kBuffersDriver, "gcc", defaultCFlags(), log), 0)
      << log;
  std::mt19937_64 rng(99);
  for (std::int64_t n : {0, 1, 77}) {
    rise::interp::SizeEnv s{{"n", n}};
    rise::interp::EntryInterface iface = rise::interp::instantiateEntry(c.def, s);
    std::vector<rise::interp::Value> inputs;
    for (const rise::Type& t : iface.inputTypes)
      inputs.push_back(rise::interp::randomValue(t, rng));
    rise::interp::Value expected = rise::interp::evaluate(c.def, s, inputs);
    std::ostringstream record;
    record.precision(9);
    record << n << "\n";
    for (std::size_t i = 0; i < inputs.size(); ++i)
      writeValue(iface.inputTypes[i], inputs[i], record);
    // writeValue prefixes buffers with their element count: drop it
    std::vector<std::string> words = tokens(record.str());
    std::string text = words[0] + " " + words[1];
    for (std::size_t i = 3; i < words.size(); ++i)
      text += " " + words[i];
    std::string out;
    EXPECT_EQ(runDriver(dir_, (dir_ / "gcc").string(), text, out), 0) << out;
    std::vector<std::string> tok = tokens(out);
    ASSERT_GE(tok.size(), 2u) << out;
    ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << out;
    std::size_t pos = 2;
    rise::interp::Value actual = unflatten(iface.outputType, tok, pos);
    std::string why;
    EXPECT_TRUE(rise::interp::valuesClose(actual, expected, 1e-5, 1e-5, &why)) << why;
  }
}

/// A driver that calls SYMBOL(output, n, a, xs) (scal) with host arrays at
/// each offset (in floats) from a 128-byte boundary, zero copy on and off,
/// twice per size: checks the result, that the input is unchanged and that
/// the floats around the output are untouched; prints the runtime's counts.
const char* kHostArraysDriver = R"(#include "SYMBOL.h"
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  risec_cl_context* ctx;
  if (risec_cl_default(&ctx) != RISEC_CL_OK) return 91;
  const int sizes[] = {0, 4, 64, 4100, 100000};
  int bad = 0, calls = 0;
  for (int zeroCopy = 1; zeroCopy >= 0; --zeroCopy) {
    risec_cl_set_zero_copy(ctx, zeroCopy);
    for (int off = 0; off < 5; ++off)
      for (int s = 0; s < 5; ++s)
        for (int rep = 0; rep < 2; ++rep) {
          int n = sizes[s];
          size_t floats = (size_t)n + 2 * 16 + 8;
          float* xb = aligned_alloc(128, (floats * 4 + 127) / 128 * 128);
          float* ob = aligned_alloc(128, (floats * 4 + 127) / 128 * 128);
          float* x = xb + 16 + off;
          float* o = ob + 16 + off;
          for (size_t i = 0; i < floats; ++i) xb[i] = ob[i] = -7.0f;
          for (int i = 0; i < n; ++i) x[i] = (float)(i % 97) - 40.0f;
          float a = rep ? -0.5f : 3.0f;
          int rc = SYMBOL(o, n, a, x);
          ++calls;
          if (rc != 0) { printf("rc %d %s\n", rc, risec_cl_default_error()); ++bad; }
          for (int i = 0; i < n; ++i)
            if (o[i] != a * ((float)(i % 97) - 40.0f) || x[i] != (float)(i % 97) - 40.0f) {
              printf("wrong at %d: n %d off %d zero copy %d\n", i, n, off, zeroCopy);
              ++bad;
              break;
            }
          for (size_t i = 0; i < floats; ++i)
            if ((ob + i < o || ob + i >= o + n) && ob[i] != -7.0f) {
              printf("written outside at %zu: n %d off %d zero copy %d\n", i, n, off, zeroCopy);
              ++bad;
              break;
            }
          free(xb);
          free(ob);
        }
  }
  risec_cl_stats st = risec_cl_get_stats(ctx);
  printf("bad %d calls %d zero_copy %u staged %u staging_allocations %u\n", bad, calls,
         st.zero_copy, st.staged, st.staging_allocations);
  return 0;
}
)";

TEST_F(HostEndToEnd, HostArraysAtEveryAlignmentInPlaceAndStaged) {
  // oclScal reads floats (zero copy at any float address); scalGlobal float4
  // vectors (zero copy at multiples of 16 bytes, offsets 0 and 4)
  struct Case {
    const char* file;
    unsigned inPlaceOffsets;
  };
  for (Case k : {Case{"e2e/ocl_scal.rise", 5}, Case{"e2e/vec_scal_global.rise", 2}}) {
    Compiled c = compile(k.file, "opencl");
    const std::string& symbol = c.result.files.abi.symbol;
    std::string driver = std::regex_replace(kHostArraysDriver, std::regex("SYMBOL"), symbol);
    std::string log;
    ASSERT_EQ(buildKernel(dir_, symbol, c.result.files, driver, "gcc", defaultCFlags(), log), 0)
        << log;
    std::string out;
    EXPECT_EQ(runDriver(dir_, (dir_ / "gcc").string(), "", out), 0) << out;
    // 2 modes x 5 offsets x 5 sizes x 2 calls; the 4 non-empty sizes each
    // use two arrays, wrapped (zero copy on, aligned) or staged
    unsigned inPlace = k.inPlaceOffsets * 4 * 2 * 2;
    unsigned staged = 5 * 4 * 2 * 2 * 2 - inPlace;
    std::ostringstream expected;
    expected << "bad 0 calls 100 zero_copy " << inPlace << " staged " << staged;
    EXPECT_EQ(out.substr(0, out.find(" staging_allocations")), expected.str()) << k.file << "\n"
                                                                               << out;
    // staging buffers are reused: made again only when a size grows
    std::smatch m;
    ASSERT_TRUE(std::regex_search(out, m, std::regex("staging_allocations (\\d+)"))) << out;
    EXPECT_LE(std::stoi(m[1]), 8) << out;
  }
}

} // namespace
