// OpenCL address spaces, hoisting and barriers (docs/dpia.md "OpenCL"):
// where local arrays are declared, which global temporaries become kernel
// parameters (and their ABI description), where barriers go and where they
// do not, and the synchronizability rejections with their exact messages.
// The kernels are run on PoCL by CodegenOpenCLTest.cpp.
#include "codegen/Compile.h"
#include "rise/infer/Infer.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace risec;
namespace fs = std::filesystem;

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

codegen::CompileResult compile(const std::string& name, const std::string& text) {
  rise::Program program = rise::parseProgram(rise::makeSourceFile(name, text));
  std::string entry = program.defs.back().name;
  rise::TypedDef def = rise::inferDef(program, entry);
  codegen::c::COptions opts{entry, name, "test", "", codegen::Target::OpenCL};
  return codegen::compileToC(program, def, opts);
}

codegen::CompileResult compileE2e(const std::string& file) {
  return compile(file, readFile(fs::path(RISEC_TEST_DATA) / "e2e" / file));
}

std::string kernelOf(const std::string& cl) {
  std::size_t end = cl.find("*/\n");
  return end == std::string::npos ? cl : cl.substr(end + 3);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
    ++n;
  return n;
}

std::string diagnostic(const std::string& text) {
  try {
    compile("f.rise", text);
  } catch (const CompileError& e) {
    return e.location().str() + ": " + e.message() + " [" + e.code() + "]";
  }
  return "accepted";
}

TEST(CodegenOpenCLMemory, TwoLevelReductionKernel) {
  codegen::CompileResult r = compileE2e("ocl_local_sum.rise");
  EXPECT_EQ(kernelOf(r.files.source), R"(
__kernel void oclLocalSum(global float* restrict output, int n, const global float* restrict xs) {
  local float tmp[8];
  // mapWorkGroup(0)
  for (int i = get_group_id(0); i < n; i += get_num_groups(0)) {
    // mapLocal(0)
    for (int j = get_local_id(0); j < 8; j += get_local_size(0)) {
      float acc = 0.0f;
      // oclReduceSeq
      for (int k = 0; k < 8; k += 1) {
        acc = acc + xs[k + 64 * i + 8 * j];
      }
      tmp[j] = acc;
    }
    // barrier: tmp (toLocal at ocl_local_sum.rise:7:74) is read by other work-items
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc_2 = 0.0f;
    // oclReduceSeq
    for (int j = 0; j < 8; j += 1) {
      acc_2 = acc_2 + tmp[j];
    }
    output[i] = acc_2;
    // barrier: tmp (toLocal at ocl_local_sum.rise:7:74) is written again by the next iteration
    // while other work-items may still read it
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
)");
  EXPECT_TRUE(r.files.abi.usesBarriers);
  EXPECT_TRUE(r.files.abi.withRole(codegen::AbiParam::Role::Temporary).empty());
}

TEST(CodegenOpenCLMemory, MmTilesAreDeclaredAtKernelScopeWithFourBarriers) {
  std::string k = kernelOf(compileE2e("ocl_mm_local.rise").files.source);
  std::size_t firstLoop = k.find("for (");
  for (const char* decl :
       {"local float acc[16];", "local float tmp[16];", "local float tmp_2[16];"}) {
    std::size_t at = k.find(decl);
    ASSERT_NE(at, std::string::npos) << decl << "\n" << k;
    EXPECT_LT(at, firstLoop) << decl << " is not at kernel scope\n" << k;
  }
  EXPECT_EQ(count(k, "local float"), 3u) << k;
  EXPECT_EQ(count(k, "barrier(CLK_LOCAL_MEM_FENCE);"), 4u) << k;
  // after the tiles are loaded, at the end of the k loop, after it, and at
  // the end of the work-group iteration
  std::size_t loadB = k.find("tmp_2[q + 4 * p] = b[");
  std::size_t compute = k.find("acc_2 = acc_2 + tmp[");
  std::size_t store = k.find("output[");
  ASSERT_NE(loadB, std::string::npos) << k;
  ASSERT_NE(compute, std::string::npos) << k;
  std::size_t b1 = k.find("barrier(", loadB);
  EXPECT_LT(b1, compute) << k;
  std::size_t b2 = k.find("barrier(", compute);
  std::size_t b3 = k.find("barrier(", b2 + 1);
  EXPECT_LT(b3, store) << k;
  EXPECT_NE(k.find("barrier(", store), std::string::npos) << k;
}

TEST(CodegenOpenCLMemory, NoBarrierForSlicesPrivateToAWorkItem) {
  // the global temporary is allocated inside mapLocal(0) (8 iterations) in
  // mapWorkGroup(0) (n iterations): one slice per iteration of each, indexed
  // by the loop variables; only its own work-item touches it
  codegen::CompileResult r =
      compile("s.rise", "def s = depFun(n: Nat => fun(xs: n.8.4.f32 =>\n"
                        "  xs |> mapWorkGroup(0)(fun(ys => ys |> mapLocal(0)(fun(r =>\n"
                        "    r |> mapSeq(fun(x => x * x)) |> toGlobal\n"
                        "      |> oclReduceSeq(Private)(fun(a, y => a + y))(0.0f)))))))\n");
  std::string k = kernelOf(r.files.source);
  EXPECT_NE(k.find("tmp[k + 32 * i + 4 * j] = "), std::string::npos) << k;
  EXPECT_EQ(k.find("barrier"), std::string::npos) << k;
  EXPECT_FALSE(r.files.abi.usesBarriers);
  std::vector<const codegen::AbiParam*> t =
      r.files.abi.withRole(codegen::AbiParam::Role::Temporary);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0]->countC, "32*n");
}

TEST(CodegenOpenCLMemory, PrivateKernelsHaveNoBarriers) {
  codegen::CompileResult r =
      compile("mv_ocl.rise", readFile(fs::path(RISEC_TEST_DATA) / "rise" / "mv_ocl.rise"));
  EXPECT_EQ(r.files.source.find("barrier"), std::string::npos);
  EXPECT_EQ(r.files.source.find("local float"), std::string::npos);
  EXPECT_FALSE(r.files.abi.usesBarriers);
}

TEST(CodegenOpenCLMemory, GlobalTemporaryIsATrailingParameterInTheAbi) {
  codegen::CompileResult r = compileE2e("ocl_global_temp.rise");
  std::string k = kernelOf(r.files.source);
  EXPECT_NE(k.find("const global float* restrict xs, global float* restrict tmp) {"),
            std::string::npos)
      << k;
  EXPECT_EQ(count(k, "barrier(CLK_GLOBAL_MEM_FENCE);"), 1u) << k;
  EXPECT_NE(k.find("tmp[j + m * i] = "), std::string::npos) << k; // the slice of iteration i
  std::vector<const codegen::AbiParam*> t =
      r.files.abi.withRole(codegen::AbiParam::Role::Temporary);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0]->name, "tmp");
  EXPECT_EQ(t[0]->cType, "float");
  EXPECT_TRUE(t[0]->array);
  EXPECT_EQ(t[0]->countC, "m*n");
  EXPECT_EQ(&r.files.abi.params.back(), t[0]);
  EXPECT_TRUE(r.files.abi.usesBarriers);
}

TEST(CodegenOpenCLMemory, OneBarrierFencesLocalAndGlobalMemory) {
  std::string k = kernelOf(compileE2e("ocl_local_and_global.rise").files.source);
  EXPECT_EQ(count(k, "barrier("), 2u) << k;
  // after both producers, before both reductions
  std::size_t both = k.find("barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);");
  ASSERT_NE(both, std::string::npos) << k;
  EXPECT_LT(k.find("tmp_2[j + m * i] = "), both) << k;
  EXPECT_GT(k.find("acc = acc + tmp[j];"), both) << k;
  // the global rows are per mapWorkGroup iteration: only the local tile is
  // reused by the next iteration
  std::size_t end = k.find("barrier(CLK_LOCAL_MEM_FENCE);");
  EXPECT_GT(end, k.find("output[i] = ")) << k;
}

TEST(CodegenOpenCLMemory, GlobalTemporaryPerMapGlobalIterationNeedsNoBarrier) {
  codegen::CompileResult r =
      compile("g.rise", "def g = depFun(n: Nat => fun(xs: n.4.f32 =>\n"
                        "  xs |> mapGlobal(0)(fun(r => oclToMem(Global)(r |> mapSeq(fun(x => x * "
                        "x))) |> oclReduceSeq(Private)(fun(a, y => a + y))(0.0f)))))\n");
  std::string k = kernelOf(r.files.source);
  EXPECT_EQ(k.find("barrier"), std::string::npos) << k;
  std::vector<const codegen::AbiParam*> t =
      r.files.abi.withRole(codegen::AbiParam::Role::Temporary);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0]->countC, "4*n");
}

// ---- synchronizability and placement rejections ---------------------------------

TEST(CodegenOpenCLMemory, BarrierInsideMapLocalIsRejected) {
  EXPECT_EQ(diagnostic("def f = depFun((n: Nat, m: Nat) => fun(xs: n.m.4.4.f32 =>\n"
                       "  xs |> mapWorkGroup(1)(fun(ys => ys |> mapWorkGroup(0)(fun(t =>\n"
                       "    t |> mapLocal(1)(fun(row =>\n"
                       "      row |> mapLocal(0)(fun(x => x * 2.0f)) |> toGlobal\n"
                       "        |> oclReduceSeq(Private)(fun(a, y => a + y))(0.0f)))))))))\n"),
            "f.rise:4:49: `tmp (toGlobal)` needs a barrier inside a `mapLocal(1)` loop, where "
            "work-items run different numbers of iterations, so not every work-item would reach "
            "it (synchronizability, §4.6); move the allocation and the loops that write and read "
            "it out of the `mapLocal(1)` loop (e.g. into a mapWorkGroup body), or keep it private "
            "[E0634]");
}

TEST(CodegenOpenCLMemory, BarrierBetweenTwoWorkGroupLoopsIsRejected) {
  // inside a mapSeq: not a phase boundary (at the top level it is, below)
  std::string d = diagnostic(
      "def f = depFun((m: Nat, n: Nat) => fun(xss: m.n.4.f32 => xss |> mapSeq(fun(xs =>\n"
      "  xs |> mapWorkGroup(0)(fun(r => r |> mapLocal(0)(fun(x => x * x)))) |> toGlobal\n"
      "     |> transpose |> mapWorkGroup(0)(fun(c => c |> mapLocal(0)(fun(x => x + 1.0f))))))))\n");
  EXPECT_EQ(
      d.rfind("f.rise:2:73: `tmp (toGlobal)` is written and read by different work-groups", 0), 0u)
      << d;
  EXPECT_NE(d.find("[E0635]"), std::string::npos) << d;
}

TEST(CodegenOpenCLMemory, BarrierBetweenWorkGroupsIsRejected) {
  EXPECT_EQ(diagnostic("def f = depFun((m: Nat, n: Nat) => fun(xss: m.n.f32 =>\n"
                       "  xss |> mapSeq(fun(xs => xs |> mapGlobal(0)(fun(x => x * x)) |> toGlobal\n"
                       "     |> oclReduceSeq(Private)(fun(a, y => a + y))(0.0f)))))\n"),
            "f.rise:2:66: `tmp (toGlobal)` is written and read by different work-groups (a "
            "mapWorkGroup or mapGlobal loop accesses it before or after another loop does): that "
            "needs a barrier between all work-items, which OpenCL does not have inside a kernel "
            "(synchronizability, §4.6); split the kernel in two (a dependency between two "
            "statements of the program's outermost sequence, e.g. through `let(... |> "
            "toGlobal)`, is split into two kernels: docs/dpia.md, \"Kernel phases\"), or "
            "restructure so that each work-group only reads what its own work-items wrote "
            "(mapWorkGroup around mapLocal loops) [E0635]");
}

// ---- kernel phases (docs/dpia.md, "Kernel phases") -------------------------------------

/// `text` with every run of white space (and a `//` continuing a comment)
/// as one space: what clang-format wraps does not matter.
std::string squeeze(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      while (i + 1 < text.size() && std::isspace(static_cast<unsigned char>(text[i + 1])))
        ++i;
      if (text[i] == '\n' && text.compare(i + 1, 3, "// ") == 0)
        i += 3;
      out += ' ';
      continue;
    }
    out += text[i];
  }
  return out;
}

/// The names of the `__kernel`s of `cl`, in order.
std::vector<std::string> kernelNames(const std::string& cl) {
  std::vector<std::string> names;
  const std::string k = "__kernel void ";
  for (std::size_t p = cl.find(k); p != std::string::npos; p = cl.find(k, p + 1))
    names.push_back(cl.substr(p + k.size(), cl.find('(', p) - p - k.size()));
  return names;
}

TEST(CodegenOpenCLPhases, ADependencyBetweenWorkGroupsAtTheTopLevelSplitsTheKernel) {
  codegen::CompileResult r = compileE2e("ocl_phases_sum.rise");
  const std::string& cl = r.files.source;
  EXPECT_EQ(kernelNames(cl), (std::vector<std::string>{"sumSquares", "sumSquares_phase2"})) << cl;
  ASSERT_EQ(r.files.abi.kernels.size(), 2u);
  EXPECT_TRUE(r.files.abi.kernels[0].parallel);
  EXPECT_FALSE(r.files.abi.kernels[1].parallel) << "phase 2 has no parallel map";
  // each kernel says which phase it is; no barrier, no marker left
  EXPECT_NE(cl.find("// Phase 1 of 2 of sumSquares"), std::string::npos) << cl;
  EXPECT_NE(squeeze(cl).find("Phase 2 of 2: starts when every work-group of phase 1 is done "
                             "with tmp (toGlobal at ocl_phases_sum.rise:5:42). __kernel void "
                             "sumSquares_phase2("),
            std::string::npos)
      << cl;
  EXPECT_EQ(count(cl, "barrier("), 0u) << cl;
  EXPECT_EQ(count(cl, "#pragma"), 0u) << cl;
  EXPECT_FALSE(r.files.abi.usesBarriers);
  // the global temporary is a parameter of both kernels, allocated once by the host
  EXPECT_EQ(count(cl, "global float* restrict tmp)"), 2u) << cl;
  EXPECT_EQ(count(r.files.hostSource, "tmp = clCreateBuffer("), 1u) << r.files.hostSource;
}

TEST(CodegenOpenCLPhases, TheHostWrapperLaunchesTheKernelsInOrder) {
  codegen::CompileResult r = compileE2e("ocl_phases_three.rise");
  EXPECT_EQ(kernelNames(r.files.source),
            (std::vector<std::string>{"centre", "centre_phase2", "centre_phase3"}));
  const std::string host = squeeze(r.files.hostSource);
  // one launch function per phase, each from the default rule for its own loops
  std::size_t l1 = host.find("void centre_launch("), l2 = host.find("void centre_phase2_launch("),
              l3 = host.find("void centre_phase3_launch(");
  ASSERT_NE(l1, std::string::npos) << host;
  ASSERT_NE(l2, std::string::npos) << host;
  ASSERT_NE(l3, std::string::npos) << host;
  std::string phase2 = host.substr(l2, l3 - l2);
  EXPECT_NE(phase2.find("risec_global[0] = (size_t)(1);"), std::string::npos)
      << "phase 2 runs one work-item:\n"
      << phase2;
  // the launches in phase order, then one clFinish
  std::size_t e1 = host.find("risec_kernels[0], risec_dims[0], NULL, risec_global[0]"),
              e2 = host.find("risec_kernels[1], risec_dims[1], NULL, risec_global[1]"),
              e3 = host.find("risec_kernels[2], risec_dims[2], NULL, risec_global[2]");
  ASSERT_NE(e1, std::string::npos) << host;
  EXPECT_LT(e1, e2);
  EXPECT_LT(e2, e3);
  EXPECT_NE(host.find("\"centre_phase3\""), std::string::npos) << host;
  EXPECT_EQ(count(host, "clFinish("), 1u) << host;
  EXPECT_GT(host.find("clFinish("), e3);
  // the header declares the later phases' launch functions
  EXPECT_NE(squeeze(r.files.header)
                .find("void centre_phase3_launch(int n, size_t global[3], size_t local[3], "
                      "cl_uint* dims);"),
            std::string::npos)
      << r.files.header;
}

TEST(CodegenOpenCLPhases, AProgramWithoutSuchADependencyIsOneKernel) {
  codegen::CompileResult r = compileE2e("ocl_global_temp.rise");
  EXPECT_EQ(kernelNames(r.files.source).size(), 1u) << r.files.source;
  ASSERT_EQ(r.files.abi.kernels.size(), 1u);
  EXPECT_EQ(r.files.abi.kernels[0].name, r.files.abi.symbol);
  EXPECT_EQ(r.files.hostSource.find("risec_kernels"), std::string::npos);
}

TEST(CodegenOpenCLMemory, LocalOfSymbolicSizeIsRejected) {
  std::string d = diagnostic("def f = depFun((n: Nat, m: Nat) => fun(xs: n.m.f32 =>\n"
                             "  xs |> mapWorkGroup(0)(fun(row => row |> mapLocal(0)(fun(x => x "
                             "* x)) |> toLocal\n"
                             "    |> oclReduceSeq(Private)(fun(a, y => a + y))(0.0f)))))\n");
  EXPECT_EQ(d, "f.rise:2:75: `toLocal` of type `m.f32`: a local-memory array must have a "
               "constant size, declared at kernel scope; tile with a constant tile size (e.g. "
               "`split(16)`) so that the temporary holds one tile [E0633]");
}

} // namespace
