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

#include <filesystem>
#include <fstream>
#include <sstream>

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
  std::string d = diagnostic(
      "def f = depFun(n: Nat => fun(xs: n.4.f32 =>\n"
      "  xs |> mapWorkGroup(0)(fun(r => r |> mapLocal(0)(fun(x => x * x)))) |> toGlobal\n"
      "     |> transpose |> mapWorkGroup(0)(fun(c => c |> mapLocal(0)(fun(x => x + 1.0f))))))\n");
  EXPECT_EQ(
      d.rfind("f.rise:2:73: `tmp (toGlobal)` is written and read by different work-groups", 0), 0u)
      << d;
  EXPECT_NE(d.find("[E0635]"), std::string::npos) << d;
}

TEST(CodegenOpenCLMemory, BarrierBetweenWorkGroupsIsRejected) {
  EXPECT_EQ(diagnostic("def f = depFun(n: Nat => fun(xs: n.f32 =>\n"
                       "  xs |> mapGlobal(0)(fun(x => x * x)) |> toGlobal\n"
                       "     |> oclReduceSeq(Private)(fun(a, y => a + y))(0.0f)))\n"),
            "f.rise:2:42: `tmp (toGlobal)` is written and read by different work-groups (a "
            "mapWorkGroup or mapGlobal loop accesses it before or after another loop does): that "
            "needs a barrier between all work-items, which OpenCL does not have inside a kernel "
            "(synchronizability, §4.6); split the kernel in two, or restructure so that each "
            "work-group only reads what its own work-items wrote (mapWorkGroup around mapLocal "
            "loops) [E0635]");
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
