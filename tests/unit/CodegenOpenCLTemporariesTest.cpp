// Every OpenCL temporary is checked, whoever made it (issue 13; docs/dpia.md,
// "Temporaries"): the double buffers of iterate and oclIterate(a), private
// arrays indexed by a parallel map (codegen/opencl/PrivateMemory.h, E0648),
// and the address-space rules on them. Kernels run on PoCL against the
// interpreter at local sizes that do and do not divide the work; rejections
// are checked with their code, position and wording.
#include "OclRunner.h"
#include "codegen/opencl/GridLoop.h"
#include "codegen/opencl/PrivateMemory.h"
#include "codegen/opencl/Temporaries.h"
#include "dpia/Imperative.h"
#include "dpia/Parallel.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace {

using namespace risec;
using namespace risec::testsupport;
namespace fs = std::filesystem;

std::string readE2e(const std::string& file) {
  std::ifstream in(fs::path(RISEC_TEST_DATA) / "e2e" / file);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
    ++n;
  return n;
}

/// `launch`: the launch configuration known at compile time (--launch), if any.
CompiledKernel compiled(const std::string& name, const std::string& text,
                        const std::string& launch = "") {
  OclCompileOutcome o = compileOpenCL(name, text, "", "", launch);
  if (!o.compiled())
    throw std::runtime_error(name + ": " + o.describe());
  return *o.kernel;
}

/// Runs `text` at every size and launch on random inputs and compares each
/// result with the interpreter's.
void expectRunsLikeTheInterpreter(const std::string& name, const std::string& text,
                                  const std::vector<rise::interp::SizeEnv>& sizes,
                                  const std::vector<Launch>& launches,
                                  const std::string& compiledFor = "") {
  CompiledKernel k = compiled(name, text, compiledFor);
  ASSERT_TRUE(defaultOclRunner().ok()) << defaultOclRunner().buildLog();
  std::mt19937_64 rng(1313);
  for (const rise::interp::SizeEnv& s : sizes) {
    rise::interp::EntryInterface iface = rise::interp::instantiateEntry(k.def, s);
    std::vector<rise::interp::Value> inputs;
    for (const rise::Type& t : iface.inputTypes)
      inputs.push_back(rise::interp::randomValue(t, rng));
    rise::interp::Value expected = rise::interp::evaluate(k.def, s, inputs);
    std::vector<OclRunResult> got = defaultOclRunner().run(k, s, inputs, launches);
    ASSERT_EQ(got.size(), launches.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_TRUE(got[i].ok()) << name << " at " << launches[i].str() << ": " << got[i].error;
      std::string why;
      EXPECT_TRUE(rise::interp::valuesClose(*got[i].output, expected, 1e-4, 1e-4, &why))
          << name << " at " << launches[i].str() << ": " << why << "\n"
          << k.result.files.source;
    }
  }
}

/// The diagnostic of compiling `text` as f.rise: "E0648 at f.rise:3:5: message".
std::string rejection(const std::string& text) {
  OclCompileOutcome o = compileOpenCL("f.rise", text);
  EXPECT_EQ(o.status, OclCompileOutcome::Status::Rejected) << o.describe();
  return o.describe();
}

std::vector<rise::interp::SizeEnv> sizesOf(const std::string& name,
                                           std::vector<std::int64_t> values) {
  std::vector<rise::interp::SizeEnv> r;
  for (std::int64_t v : values)
    r.push_back({{name, v}});
  return r;
}

// ---- the tree reduction of issue 13 ----------------------------------------------------

TEST(OpenCLTemporaries, TreeReductionWithOclIterateLocalComputesTheSum) {
  // 8 work-items per group, fewer (3, 5: not dividing the 8 partial sums),
  // more (16), fewer groups than chunks
  expectRunsLikeTheInterpreter(
      "ocl_tree_reduce_local.rise", readE2e("ocl_tree_reduce_local.rise"),
      sizesOf("n", {0, 1, 3, 5}),
      {launch1D(16, 8), launch1D(9, 3), launch1D(10, 5), launch1D(32, 16), launch1D(8, 1)});
}

TEST(OpenCLTemporaries, OclIterateLocalBuffersAreSharedAndSynchronised) {
  CompiledKernel k = compiled("ocl_tree_reduce_local.rise", readE2e("ocl_tree_reduce_local.rise"));
  const std::string& cl = k.result.files.source;
  EXPECT_NE(cl.find("local float bufA[4];"), std::string::npos) << cl;
  EXPECT_NE(cl.find("local float bufB[4];"), std::string::npos) << cl;
  // before each step reads what the previous one wrote, and before the copy out
  EXPECT_EQ(count(cl, "barrier(CLK_LOCAL_MEM_FENCE);"), 4u) << cl;
  EXPECT_NE(cl.find("// barrier: bufA (oclIterate(Local) at ocl_tree_reduce_local.rise:12:10)"),
            std::string::npos)
      << cl;
}

TEST(OpenCLTemporaries, TreeReductionWithPrivateIterateBuffersIsRejected) {
  std::string text = readE2e("ocl_tree_reduce_local.rise");
  std::size_t at = text.rfind("oclIterate(Local)");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, std::string("oclIterate(Local)").size(), "iterate");
  std::string d = rejection(text);
  EXPECT_NE(d.find("E0640 at f.rise:13:30: `mapLocal(0)` writes its result into private memory "
                   "(the double buffers of `iterate` at f.rise:12:10)"),
            std::string::npos)
      << d;
  EXPECT_NE(d.find("oclIterate(Local)"), std::string::npos) << d;
}

TEST(OpenCLTemporaries, OclIterateInEveryAddressSpace) {
  // the tree of each chunk by one work-item (private buffers), by a
  // work-group (local) and by a work-group in global buffers (one slice per
  // group iteration, global fences)
  const char* body = "ys |> split(2) |> MAP(oclReduceSeq(Private)(add)(0.0f))";
  auto program = [&](const std::string& outer, const std::string& space, const std::string& map) {
    std::string step = body, copy = map + "(fun(x => x))";
    step.replace(step.find("MAP"), 3, map);
    std::string store = map == "mapSeq" ? "" : " |> toLocal";
    return "def f = depFun(n: Nat => fun(xs: (16*n).f32 =>\n  xs |> split(16) |> " + outer +
           "(fun(c => c |> " + copy + store + " |> oclIterate(" + space +
           ")(4)(depFun(l: Nat => fun(ys =>\n    " + step + ")))" + store + " |> " + copy +
           ")) |> join))\n";
  };
  std::vector<Launch> launches = {launch1D(8, 4), launch1D(15, 5), launch1D(4, 4)};
  expectRunsLikeTheInterpreter("private.rise", program("mapGlobal(0)", "Private", "mapSeq"),
                               sizesOf("n", {0, 1, 7}), launches);
  expectRunsLikeTheInterpreter("local.rise", program("mapWorkGroup(0)", "Local", "mapLocal(0)"),
                               sizesOf("n", {1, 6}), launches);
  std::string global = program("mapWorkGroup(0)", "Global", "mapLocal(0)");
  const std::string& cl = compiled("global.rise", global).result.files.source;
  EXPECT_NE(cl.find("barrier(CLK_GLOBAL_MEM_FENCE);"), std::string::npos) << cl;
  expectRunsLikeTheInterpreter("global.rise", global, sizesOf("n", {1, 6}), launches);
}

TEST(OpenCLTemporaries, OclIterateWithTwoStepsNeedsOneBuffer) {
  // fuzz finding F3: the second buffer was declared and never used, an
  // internal error under -Werror
  std::string text = "def k = depFun(n: Nat => fun(x: (8*n).f32 =>\n"
                     "  x |> split(8) |> mapWorkGroup(0)(fun(c => c |> mapLocal(0)(fun(v => v))\n"
                     "    |> toLocal |> oclIterate(Local)(2)(depFun(l: Nat => fun(ys =>\n"
                     "         ys |> split(2) |> mapLocal(0)(oclReduceSeq(Private)(add)(0.0f)))))\n"
                     "    |> toLocal |> mapLocal(0)(fun(v => v)))) |> join))\n";
  const std::string& cl = compiled("k.rise", text).result.files.source;
  EXPECT_NE(cl.find("local float bufA[4];"), std::string::npos) << cl;
  EXPECT_EQ(cl.find("bufB"), std::string::npos) << cl;
  expectRunsLikeTheInterpreter("k.rise", text, sizesOf("n", {1, 3}),
                               {launch1D(8, 4), launch1D(6, 3), launch1D(2, 1)});
}

TEST(OpenCLTemporaries, OclIterateNeedsAKnownAddressSpace) {
  std::string d = rejection("def f = depFun((n: Nat, a: AddrSpace) => fun(xs: (4*n).f32 =>\n"
                            "  xs |> split(4) |> mapGlobal(0)(fun(c => c |> oclIterate(a)(2)(\n"
                            "    depFun(l: Nat => fun(ys => ys |> split(2) |> "
                            "mapSeq(reduceSeq(add)(0.0f))))))) |> join))\n");
  EXPECT_NE(d.find("E0630 at f.rise:2:48"), std::string::npos) << d;
}

// ---- private arrays indexed by a parallel map (issue 13, item 3) ---------------------

TEST(OpenCLTemporaries, PrivateAccumulatorOfBlastGemvIsAcceptedAndRight) {
  CompiledKernel k =
      compiled("ocl_private_accumulator.rise", readE2e("ocl_private_accumulator.rise"));
  EXPECT_NE(k.result.files.source.find("float acc[8];"), std::string::npos)
      << k.result.files.source;
  std::vector<rise::interp::SizeEnv> sizes = {
      {{"n", 1}, {"m", 1}}, {{"n", 3}, {"m", 2}}, {{"n", 2}, {"m", 5}}};
  expectRunsLikeTheInterpreter(
      "ocl_private_accumulator.rise", readE2e("ocl_private_accumulator.rise"), sizes,
      {launch1D(16, 8), launch1D(9, 3), launch1D(10, 5), launch1D(4, 1), launch1D(32, 16)});
}

TEST(OpenCLTemporaries, PrivateArrayWrittenAndReadByOneMappingRuns) {
  // lowerToC stores the first mapLocal's result in a private array; each
  // work-item reads back the elements it wrote
  expectRunsLikeTheInterpreter(
      "f.rise",
      "def f = depFun(n: Nat => fun(x: n.5.f32 =>\n"
      "  x |> mapWorkGroup(0)(fun(r => r |> mapLocal(0)(fun(v => v * 2.0f))\n"
      "    |> mapLocal(0)(fun(v => v + 1.0f))))))\n",
      sizesOf("n", {1, 4}), {launch1D(4, 2), launch1D(6, 3), launch1D(1, 1), launch1D(16, 8)});
}

TEST(OpenCLTemporaries, PrivateElementReadByAnotherWorkItemIsRejected) {
  std::string d =
      rejection("def f = depFun(n: Nat => fun(xs: (8*n).f32 =>\n"
                "  xs |> split(8) |> mapWorkGroup(0)(fun(c =>\n"
                "    let(c |> mapLocal(0)(fun(x => x * 2.0f)) |> toPrivate)(fun(t =>\n"
                "      t |> mapLocal(0)(fun(x => t |> oclReduceSeq(Private)(add)(x)))))))\n"
                "  |> join))\n");
  EXPECT_EQ(d, "E0648 at f.rise:3:49: `toPrivate` at f.rise:3:49 (`tmp`) is private memory, one "
               "copy per work-item, and the `mapLocal(0)` loop writes its elements on different "
               "work-items; but the `mapLocal(0)` loop over `j` reads `tmp[k]`, not only its own "
               "element `tmp[j]`, so it may see an element another work-item wrote (rule 1 of the "
               "mapping constraints: private memory belongs to one work-item); keep it in memory "
               "the work-items share (toLocal or oclToMem(Local) inside a mapWorkGroup, "
               "oclIterate(Local) for iterate's buffers, toGlobal), or make the loops that write "
               "and read it sequential (mapSeq), or declare it inside the loop (one temporary per "
               "iteration)");
}

TEST(OpenCLTemporaries, PrivateAccumulatorReadAtAnotherIndexIsRejected) {
  // the BLAST gemv with the accumulators read in reverse at the end
  std::string text = readE2e("ocl_private_accumulator.rise");
  std::string last = "|> mapLocal(0)(fun(x => x)))) |> join)))";
  std::size_t at = text.find(last);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, last.size(),
               "|> fun(r => let(r)(fun(acc => generate(fun(i: idx[8] =>\n"
               "          acc |> idx(natAsIndex(8)(7n - indexAsNat(i)))))\n"
               "        |> mapLocal(0)(fun(x => x))))))) |> join)))");
  std::string d = rejection(text);
  EXPECT_NE(d.find("E0648 at f.rise:12:10: the accumulator of `oclReduceSeq(Private)` at "
                   "f.rise:12:10 (`acc`)"),
            std::string::npos)
      << d;
}

TEST(OpenCLTemporaries, AMapReadInPlaceIsAViewNotAPrivateCopy) {
  // Shine reads `map(snd)` of a work-group's rows as a view; stored, it was a
  // private temporary the mapLocal reading it could not share (E0640)
  std::string text = "def f = depFun((n: Nat, m: Nat) => fun(mat: (4*m).n.f32, ys: (4*m).f32 =>\n"
                     "  zip(mat)(ys) |> split(4) |> mapWorkGroup(0)(fun(c =>\n"
                     "    zip(generate(fun(i => 1.0f)) |> mapLocal(0)(fun(x => x)) |> toLocal)\n"
                     "       (c |> map(fun(r => snd(r))))\n"
                     "      |> mapLocal(0)(fun(x => fst(x) + snd(x))))) |> join))\n";
  const std::string& cl = compiled("f.rise", text).result.files.source;
  EXPECT_EQ(count(cl, "float tmp"), count(cl, "local float tmp")) << cl; // no private copy
  expectRunsLikeTheInterpreter("f.rise", text, {{{"n", 3}, {"m", 2}}},
                               {launch1D(8, 4), launch1D(3, 3)});
}

TEST(OpenCLTemporaries, AMapOfLayoutFunctionsIsWrittenThroughNotIntoAPrivateCopy) {
  // Shine writes `map(transpose)` of a mapGlobal's result through as a view;
  // lowered to a copy it read a private temporary that the mapGlobal, on
  // different work-items, could not fill (E0640)
  std::string text = "def f = depFun((n: Nat, m: Nat, k: Nat) => fun(x: n.m.k.f32 =>\n"
                     "  x |> mapGlobal(1)(mapGlobal(0)(mapSeq(fun(v => v * 2.0f))))\n"
                     "    |> map(transpose) |> map(join) |> transpose))\n";
  const std::string& cl = compiled("f.rise", text).result.files.source;
  EXPECT_EQ(count(cl, "float tmp"), 0u) << cl; // no temporary at all
  EXPECT_EQ(count(cl, "for ("), 3u) << cl;     // no copy loop
  expectRunsLikeTheInterpreter("f.rise", text, {{{"n", 3}, {"m", 2}, {"k", 4}}},
                               {launch2D(2, 3, 1, 1), launch2D(4, 4, 2, 2), launch2D(1, 1, 1, 1)});
}

/// A work-group stores a pair of arrays in address space `space`, each
/// component written by its own mapLocal, then every work-item reads all of
/// the first component (other work-items' elements: a barrier is needed).
std::string pairTemporary(const std::string& space) {
  return "def f = depFun(n: Nat => fun(xs: (8*n).f32, ys: (8*n).f32 =>\n"
         "  zip(xs |> split(8))(ys |> split(8)) |> mapWorkGroup(0)(fun(c =>\n"
         "    let(" +
         space +
         "(makePair(fst(c) |> mapLocal(0)(fun(x => x * 2.0f)))\n"
         "                    (snd(c) |> mapLocal(0)(fun(y => y + 1.0f)))))(fun(p =>\n"
         "      snd(p) |> mapLocal(0)(fun(y =>\n"
         "        y * (fst(p) |> oclReduceSeq(Private)(add)(0.0f))))))))\n"
         "  |> join))\n";
}

TEST(OpenCLTemporaries, APairOfArraysInLocalMemoryIsOneBufferPerComponent) {
  std::string text = pairTemporary("toLocal");
  const std::string& cl = compiled("f.rise", text).result.files.source;
  EXPECT_NE(cl.find("local float tmp_fst[8];"), std::string::npos) << cl;
  EXPECT_NE(cl.find("local float tmp_snd[8];"), std::string::npos) << cl;
  EXPECT_NE(cl.find("// barrier: tmp_fst, tmp_snd (toLocal at f.rise:3:9) is read by other "
                    "work-items"),
            std::string::npos)
      << cl;
  expectRunsLikeTheInterpreter("f.rise", text, sizesOf("n", {1, 3}),
                               {launch1D(8, 8), launch1D(6, 3), launch1D(16, 16), launch1D(4, 1)});
}

TEST(OpenCLTemporaries, APairOfArraysInGlobalMemoryIsOneBufferPerComponent) {
  std::string text = pairTemporary("toGlobal");
  CompiledKernel k = compiled("f.rise", text);
  const std::string& cl = k.result.files.source;
  EXPECT_NE(cl.find("global float* restrict tmp_fst"), std::string::npos) << cl;
  EXPECT_NE(cl.find("global float* restrict tmp_snd"), std::string::npos) << cl;
  expectRunsLikeTheInterpreter("f.rise", text, sizesOf("n", {1, 3}),
                               {launch1D(8, 8), launch1D(6, 3), launch1D(4, 1)});
}

TEST(OpenCLTemporaries, APairOfArraysInPrivateMemoryIsOneArrayPerComponent) {
  std::string text = "def f = depFun(n: Nat => fun(xs: n.4.f32, ys: n.2.f32 =>\n"
                     "  zip(xs)(ys) |> mapGlobal(0)(fun(c =>\n"
                     "    let(toPrivate(makePair(fst(c) |> mapSeq(fun(x => x * 2.0f)))\n"
                     "                          (snd(c) |> mapSeq(fun(y => y + 1.0f)))))(fun(p =>\n"
                     "      snd(p) |> mapSeq(fun(y =>\n"
                     "        y * (fst(p) |> oclReduceSeq(Private)(add)(0.0f))))))))))\n";
  const std::string& cl = compiled("f.rise", text).result.files.source;
  EXPECT_NE(cl.find("float tmp_fst[4];"), std::string::npos) << cl;
  EXPECT_NE(cl.find("float tmp_snd[2];"), std::string::npos) << cl;
  expectRunsLikeTheInterpreter("f.rise", text, sizesOf("n", {1, 5}),
                               {launch1D(2, 1), launch1D(8, 4), launch1D(1, 1)});
}

// ---- private arrays of nested mappings, distributed (Shine's nbodyNVIDIA) -------------

TEST(OpenCLTemporaries, PrivateArraysOfNbodyRunAtAnyLocalSize) {
  // compiled for no particular launch: each work-item holds whole copies,
  // of which it uses its own elements
  const std::string text = readE2e("ocl_private_nbody.rise");
  const std::string& cl = compiled("ocl_private_nbody.rise", text).result.files.source;
  EXPECT_NE(cl.find("float acc[16];"), std::string::npos) << cl;
  EXPECT_EQ(cl.find("reqd_work_group_size"), std::string::npos) << cl;
  expectRunsLikeTheInterpreter("ocl_private_nbody.rise", text, sizesOf("n", {1, 3}),
                               {launch2D(16, 1, 16, 1), launch2D(15, 1, 5, 1), launch2D(6, 2, 3, 2),
                                launch2D(64, 1, 32, 1), launch2D(2, 1, 1, 1)});
}

TEST(OpenCLTemporaries, PrivateArraysOfNbodyAreDistributedOverTheWorkItems) {
  // with the local size known at compile time, each work-item holds only
  // its own elements: ceil(16 / local size) of them, at index i / local size
  const std::string text = readE2e("ocl_private_nbody.rise");
  struct Case {
    std::string launch;
    Launch run;
    std::string declared, kernel;
  };
  for (const Case& c : {Case{"global=[16,1],local=[16,1]", launch2D(16, 1, 16, 1), "float acc[1];",
                             "reqd_work_group_size(16, 1, 1)"},
                        Case{"global=[15,1],local=[5,1]", launch2D(15, 1, 5, 1), "float acc[4];",
                             "reqd_work_group_size(5, 1, 1)"},
                        Case{"global=[6,2],local=[3,2]", launch2D(6, 2, 3, 2), "float acc[6];",
                             "reqd_work_group_size(3, 2, 1)"},
                        Case{"global=[64,1],local=[32,1]", launch2D(64, 1, 32, 1), "float acc[1];",
                             "reqd_work_group_size(32, 1, 1)"}}) {
    SCOPED_TRACE(c.launch);
    const std::string cl = compiled("ocl_private_nbody.rise", text, c.launch).result.files.source;
    EXPECT_NE(cl.find(c.declared), std::string::npos) << cl;
    EXPECT_NE(cl.find(c.kernel), std::string::npos) << cl;
    expectRunsLikeTheInterpreter("ocl_private_nbody.rise", text, sizesOf("n", {1, 3}), {c.run},
                                 c.launch);
  }
}

/// The lines of tests/e2e/ocl_private_nbody.rise that are not comments, with
/// every `from` replaced by `to` in turn.
std::string nbodyVariant(const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string text;
  std::istringstream in(readE2e("ocl_private_nbody.rise"));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("//", 0) == 0)
      continue;
    for (const auto& [from, to] : edits)
      for (std::size_t at = line.find(from); at != std::string::npos;
           at = line.find(from, at + to.size()))
        line.replace(at, from.size(), to);
    text += line + "\n";
  }
  return text;
}

TEST(OpenCLTemporaries, DistributedPrivateArraysOfVectorsAreLoadedAtTheirOwnIndex) {
  // nbodyNVIDIA's bodies are float4: vector loads and stores of the private
  // arrays, `vload4(0, acc + 4 * (p / 5))` in each work-item's part
  std::string text = nbodyVariant({{"(16*n).f32", "(16*n).vec[f32, 4]"},
                                   {"0.5f", "vectorFromScalar(0.5f)"},
                                   {"j => 0.0f", "j => vectorFromScalar(0.0f)"},
                                   {"* deltaT", "* vectorFromScalar(deltaT)"}});
  const std::string launch = "global=[15,1],local=[5,1]";
  const std::string cl = compiled("v.rise", text, launch).result.files.source;
  EXPECT_NE(cl.find("float acc[16];"), std::string::npos) << cl; // 4 float4
  EXPECT_NE(cl.find("vstore4(acc_2, 0, acc + 16 * l + 4 * (p / 5));"), std::string::npos) << cl;
  expectRunsLikeTheInterpreter("v.rise", text, sizesOf("n", {1, 2}), {launch2D(15, 1, 5, 1)},
                               launch);
  expectRunsLikeTheInterpreter("v.rise", text, sizesOf("n", {1}),
                               {launch2D(15, 1, 5, 1), launch2D(6, 2, 3, 2)});
}

TEST(OpenCLTemporaries, DistributedPrivateArraysFitWhereWholeCopiesDoNot) {
  // tiles of 512 bodies: the two private arrays hold 2 KiB each, beyond the
  // 1024 bytes of private memory; 8 elements per work-item at 64
  std::string text = nbodyVariant({{"16", "512"}});
  std::string d = rejection(text);
  EXPECT_EQ(d.rfind("E0631 at f.rise:8:21: this value of type `1.512.f32` is stored in a private "
                    "temporary (the accumulator of `oclReduceSeq(Private)` at f.rise:8:21, `acc`)",
                    0),
            0u)
      << d;
  EXPECT_NE(d.find("this one holds 2048 bytes per work-item"), std::string::npos) << d;
  EXPECT_NE(d.find("those of its iterations of `mapLocal(1)`, `mapLocal(0)`"), std::string::npos)
      << d;
  EXPECT_NE(d.find("--launch"), std::string::npos) << d;
  const std::string launch = "global=[128,1],local=[64,1]";
  const std::string cl = compiled("f.rise", text, launch).result.files.source;
  EXPECT_NE(cl.find("float acc[8];"), std::string::npos) << cl;
  expectRunsLikeTheInterpreter("f.rise", text, sizesOf("n", {1}), {launch2D(128, 1, 64, 1)},
                               launch);
  // a local size of 1 leaves every element to one work-item: too large again
  d = compileOpenCL("f.rise", text, "", "", "global=[4,1],local=[1,1]").describe();
  EXPECT_EQ(d.rfind("E0631 at f.rise:8:21:", 0), 0u) << d;
}

TEST(OpenCLTemporaries, NestedPrivateArrayReadAtOtherElementsIsRejected) {
  // written by mapGlobal(1)(mapGlobal(0)) at its own element [i][j]; then
  // each iteration of mapGlobal(0) sums the whole row, whose other elements
  // other work-items wrote into their own copies
  std::string d = rejection(
      "def f = fun(xs: 4.8.f32 =>\n"
      "  let(xs |> mapGlobal(1)(mapGlobal(0)(fun(x => x * 2.0f))) |> toPrivate)(fun(t =>\n"
      "    t |> mapGlobal(1)(fun(r => r |> mapGlobal(0)(fun(x =>\n"
      "      r |> oclReduceSeq(Private)(add)(x))))))))\n");
  EXPECT_EQ(d.rfind("E0648 at f.rise:2:63: `toPrivate` at f.rise:2:63 (`tmp`) is private memory, "
                    "one copy per work-item, and the `mapGlobal(1)` loop writes its elements on "
                    "different work-items; but the `mapGlobal(0)` loop over `j` reads `tmp[i][k]`, "
                    "not only its own elements `tmp[*][j]`",
                    0),
            0u)
      << d;
  // read through transpose: the other mapping's elements (rule 1 on the program)
  d = rejection("def f = fun(xs: 4.8.f32 =>\n"
                "  xs |> mapGlobal(1)(mapGlobal(0)(fun(x => x * 2.0f))) |> toPrivate\n"
                "    |> transpose |> mapGlobal(1)(mapGlobal(0)(fun(x => x + 1.0f))))\n");
  EXPECT_EQ(d.rfind("E0640 at f.rise:2:9: `mapGlobal(1)` writes its result into private memory", 0),
            0u)
      << d;
}

// ---- the check itself, on hand-made accesses ------------------------------------------

struct CheckFixture : ::testing::Test {
  dpia::Phrase tmp =
      dpia::newVar(rise::arrayType(rise::natConst(8), rise::scalarType(rise::ScalarKind::F32)),
                   "tmp", [](const dpia::Phrase&) { return dpia::skip(); }, {});
  rise::Nat i = rise::natVar("i"), j = rise::natVar("j");
  static constexpr codegen::opencl::GridKind kLocal = codegen::opencl::GridKind::Local;
  codegen::opencl::GridLoopRef local0{i->var().id, "i", "mapLocal(0)", {kLocal, 0}};
  codegen::opencl::GridLoopRef otherLocal0{j->var().id, "j", "mapLocal(0)", {kLocal, 0}};
  codegen::opencl::GridLoopRef local1{j->var().id, "j", "mapLocal(1)", {kLocal, 1}};
  codegen::opencl::PrivateMemoryCheck check;

  std::string error() {
    try {
      check.check();
    } catch (const CompileError& e) {
      return e.code() + ": " + e.message();
    }
    return "accepted";
  }
};

TEST_F(CheckFixture, OwnElementsUnderOneMappingAreAccepted) {
  check.declare(1, tmp, "tmp", {});
  check.access(1, i, "i", false, true, {local0});
  check.access(1, j, "j", true, false, {otherLocal0}); // another mapLocal(0) loop, own index
  check.access(1, i, "i", true, true, {local0});
  EXPECT_EQ(error(), "accepted");
}

TEST_F(CheckFixture, WrittenWholeByEveryWorkItemIsAccepted) {
  check.declare(1, tmp, "tmp", {});
  check.access(1, rise::natConst(3), "3", false, true, {});
  check.access(1, i + 1, "i + 1", true, false, {local0}); // reads only: its own full copy
  EXPECT_EQ(error(), "accepted");
}

TEST_F(CheckFixture, ReadOutsideTheWritingLoopIsRejected) {
  check.declare(1, tmp, "tmp", {});
  check.access(1, i, "i", false, true, {local0});
  check.access(1, rise::natConst(0), "0", true, false, {});
  std::string e = error();
  EXPECT_EQ(e.rfind("E0648: the temporary `tmp` stored (`tmp`) is private memory", 0), 0u) << e;
  EXPECT_NE(e.find("it is also read outside that loop"), std::string::npos) << e;
}

TEST_F(CheckFixture, AnotherMappingIsRejected) {
  check.declare(1, tmp, "tmp", {});
  check.access(1, i, "i", false, true, {local0});
  check.access(1, j, "j", true, false, {local1});
  EXPECT_NE(error().find("it is also accessed inside `mapLocal(1)`"), std::string::npos);
}

TEST_F(CheckFixture, NestedDistributionIsRejected) {
  check.declare(1, tmp, "tmp", {});
  check.access(1, i, "i", false, true, {local0, local1});
  EXPECT_NE(error().find("E0648"), std::string::npos);
}

TEST_F(CheckFixture, UnknownElementUnderADistributedWriteIsRejected) {
  check.declare(1, tmp, "tmp", {});
  check.access(1, nullptr, "", false, false, {local0}); // a vector load or store
  EXPECT_NE(error().find("reads `tmp`, not only its own element `tmp[i]`"), std::string::npos)
      << error();
}

TEST_F(CheckFixture, NestedMappingsOwnOneDimensionEach) {
  dpia::Phrase grid = dpia::newVar(
      rise::arrayType(rise::natConst(2),
                      rise::arrayType(rise::natConst(8), rise::scalarType(rise::ScalarKind::F32))),
      "acc", [](const dpia::Phrase&) { return dpia::skip(); }, {});
  check.declare(2, grid, "acc", {});
  check.access(2, std::vector<rise::Nat>{j, i}, "j][i", false, true, {local1, local0});
  check.access(2, std::vector<rise::Nat>{j, i}, "j][i", true, false, {local0, local1});
  EXPECT_EQ(error(), "accepted");
  // distributed over the local sizes known at compile time
  auto layouts = check.layouts({{{kLocal, 0}, 3}});
  ASSERT_EQ(layouts.count(2), 1u);
  EXPECT_EQ(layouts.at(2).divisors, (std::vector<std::int64_t>{1, 3}));
  // a read inside a further loop runs on fewer work-items: fine; a write is not
  check.declare(3, tmp, "tmp", {});
  check.access(3, i, "i", false, true, {local0});
  check.access(3, i, "i", true, false, {local1, local0});
  EXPECT_EQ(error(), "accepted");
  check.access(3, i, "i", false, true, {local1, local0});
  EXPECT_NE(error().find("it is also accessed inside `mapLocal(1)`"), std::string::npos) << error();
}

TEST_F(CheckFixture, WrittenWholeOutsideTheLoopsIsNotDistributed) {
  check.declare(1, tmp, "tmp", {});
  check.access(1, rise::natConst(3), "3", false, true, {});
  check.access(1, i, "i", false, true, {local0});
  check.access(1, i, "i", true, false, {local0});
  EXPECT_EQ(error(), "accepted");
  EXPECT_TRUE(check.layouts({{{kLocal, 0}, 4}}).empty());
}

TEST_F(CheckFixture, DeclaredInsideTheLoopIsPerIteration) {
  check.declare(1, tmp, "tmp", {local0});
  check.access(1, rise::natConst(5), "5", false, true, {local0});
  check.access(1, rise::natConst(2), "2", true, false, {local0});
  EXPECT_EQ(error(), "accepted");
}

} // namespace

// ---- typed handles: grid loops and the primitive behind a temporary -------------------

TEST(OpenCLGridLoop, ComesFromTheLoopsOriginNotItsTag) {
  using codegen::opencl::GridKind;
  auto body = [](const dpia::Phrase&) { return dpia::skip(); };
  // the tag is only a comment: a misleading one changes nothing
  dpia::Phrase local1 = dpia::parFor(rise::natConst(8), body, "mapGlobal(0)",
                                     dpia::Origin{rise::Prim::MapLocal, rise::natConst(1)});
  codegen::opencl::GridLoop g = codegen::opencl::gridLoop(local1);
  EXPECT_EQ(g.kind, GridKind::Local);
  EXPECT_EQ(g.dim, 1);
  EXPECT_EQ(std::string(codegen::opencl::gridIdFunction(g.kind)), "get_local_id");
  EXPECT_EQ(std::string(codegen::opencl::gridSizeFunction(g.kind)), "get_local_size");
  dpia::Phrase wg = dpia::parFor(rise::natConst(4), body, "mapWorkGroup(2)",
                                 dpia::Origin{rise::Prim::MapWorkGroup, rise::natConst(2)});
  EXPECT_EQ(codegen::opencl::gridLoop(wg), (codegen::opencl::GridLoop{GridKind::WorkGroup, 2}));
  EXPECT_EQ(std::string(codegen::opencl::gridIdFunction(GridKind::WorkGroup)), "get_group_id");
  EXPECT_EQ(std::string(codegen::opencl::gridSizeFunction(GridKind::Global)), "get_global_size");
  EXPECT_TRUE((codegen::opencl::GridLoop{GridKind::Global, 2} <
               codegen::opencl::GridLoop{GridKind::Local, 0}));
  // mapPar's loop, a sequential loop and a loop without origin are no grid loops
  dpia::Phrase par =
      dpia::parFor(rise::natConst(4), body, "mapPar", dpia::Origin{rise::Prim::MapPar, nullptr});
  EXPECT_FALSE(codegen::opencl::gridKind(par).has_value());
  EXPECT_FALSE(codegen::opencl::gridKind(dpia::forLoop(rise::natConst(4), "i", body, "mapLocal(0)"))
                   .has_value());
  EXPECT_THROW(codegen::opencl::gridLoop(dpia::parFor(rise::natConst(4), body, "mapLocal(0)")),
               InternalError);
  // a dimension other than 0, 1, 2: E0632, naming the tag
  dpia::Phrase bad = dpia::parFor(rise::natConst(4), body, "mapGlobal(3)",
                                  dpia::Origin{rise::Prim::MapGlobal, rise::natConst(3)});
  try {
    codegen::opencl::gridLoop(bad);
    ADD_FAILURE() << "expected E0632";
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0632");
    EXPECT_EQ(e.message().rfind("`mapGlobal(3)`: the dimension", 0), 0u) << e.message();
  }
}

TEST(OpenCLGridLoop, SurvivesRebuildingTheLoop) {
  auto body = [](const dpia::Phrase&) { return dpia::skip(); };
  dpia::Phrase loop = dpia::parFor(rise::natConst(8), body, "mapLocal(1)",
                                   dpia::Origin{rise::Prim::MapLocal, rise::natConst(1)});
  dpia::Phrase rebuilt = dpia::mapChildren(loop, [](const dpia::Phrase&) {
    return dpia::assign(
        dpia::freshIdent("o", dpia::accType(rise::scalarType(rise::ScalarKind::F32))),
        dpia::literal(rise::ScalarValue::makeFloat(rise::ScalarKind::F32, 1.0)));
  });
  ASSERT_NE(rebuilt.get(), loop.get());
  EXPECT_EQ(codegen::opencl::gridLoop(rebuilt),
            (codegen::opencl::GridLoop{codegen::opencl::GridKind::Local, 1}));
  EXPECT_EQ(codegen::opencl::gridLoop(dpia::withTag(loop, "renamed")).dim, 1);
}

TEST(OpenCLTemporaries, DescriptionNamesThePrimitiveRecordedOnTheTemporary) {
  // the source text at the location is not the primitive's name: the
  // description comes from the origin recorded on the `new`
  SourceLocation at{rise::makeSourceFile("f.rise", "def f = someAlias(x)\n"), 1, 9};
  auto body = [](const dpia::Phrase&) { return dpia::skip(); };
  rise::Type f32 = rise::scalarType(rise::ScalarKind::F32);
  rise::Type tile = rise::arrayType(rise::natConst(8), f32);
  dpia::Phrase acc =
      dpia::newVarIn(rise::AddrSpace::local(), at, f32, "acc", body,
                     dpia::Origin{rise::Prim::OclReduceSeq, nullptr, dpia::TempRole::Accumulator});
  EXPECT_EQ(acc->origin().prim, rise::Prim::OclReduceSeq);
  EXPECT_EQ(codegen::opencl::describeTemporary(acc),
            "the accumulator of `oclReduceSeq(Local)` at f.rise:1:9");
  dpia::Phrase local = dpia::newVarIn(rise::AddrSpace::local(), at, tile, "tmp", body,
                                      dpia::Origin{rise::Prim::ToLocal, nullptr});
  EXPECT_EQ(codegen::opencl::describeTemporary(local), "`toLocal` at f.rise:1:9");
  dpia::Phrase buf =
      dpia::newVarIn(rise::AddrSpace::global(), at, tile, "bufA", body,
                     dpia::Origin{rise::Prim::OclIterate, nullptr, dpia::TempRole::DoubleBuffer});
  EXPECT_EQ(codegen::opencl::describeTemporary(buf),
            "the double buffer `bufA` of `oclIterate(Global)` at f.rise:1:9");
  dpia::Phrase copy = dpia::newVar(tile, "tmp", body, at, dpia::Origin{rise::Prim::ToMem, nullptr});
  EXPECT_EQ(codegen::opencl::describeTemporary(copy), "the temporary `tmp` stored at f.rise:1:9");
  // no origin: what the translation made on its own
  dpia::Phrase none = dpia::newVar(tile, "acc", body, at);
  EXPECT_EQ(codegen::opencl::describeTemporary(none), "the temporary `acc` stored at f.rise:1:9");
  // the role is data on the `new`, not its name: a double buffer named `acc`
  dpia::Phrase named =
      dpia::newVarIn(rise::AddrSpace::local(), at, tile, "acc", body,
                     dpia::Origin{rise::Prim::OclIterate, nullptr, dpia::TempRole::DoubleBuffer});
  EXPECT_EQ(codegen::opencl::describeTemporary(named),
            "the double buffer `acc` of `oclIterate(Local)` at f.rise:1:9");
}

TEST(OpenCLTemporaries, TheOriginSurvivesTheRewritesAndPasses) {
  // The program writes `toMem`; the strategy's toMemIn(Private) makes it a
  // `toPrivate` at the same location, which lowerToC, DPIA and hoisting keep.
  // The text at f.rise:3:49 says `toMem`: a message that read the source
  // there would call it "the temporary `tmp` stored"; the origin on the
  // `new` names the primitive that made it.
  std::string text = "def f = depFun(n: Nat => fun(xs: (8*n).f32 =>\n"
                     "  xs |> split(8) |> mapWorkGroup(0)(fun(c =>\n"
                     "    let(c |> mapLocal(0)(fun(x => x * 2.0f)) |> toMem    )(fun(t =>\n"
                     "      t |> mapLocal(0)(fun(x => t |> oclReduceSeq(Private)(add)(x)))))))\n"
                     "  |> join))\n";
  OclCompileOutcome o = compileOpenCL("f.rise", text, "toMemIn(Private) @ topDown");
  ASSERT_EQ(o.status, OclCompileOutcome::Status::Rejected) << o.describe();
  EXPECT_EQ(o.describe().rfind("E0648 at f.rise:3:49: `toPrivate` at f.rise:3:49 (`tmp`) is "
                               "private memory, one copy per work-item",
                               0),
            0u)
      << o.describe();
  // and the same program in local memory compiles, with the barrier named by
  // the primitive the strategy chose
  o = compileOpenCL("f.rise", text, "toMemIn(Local) @ topDown");
  ASSERT_TRUE(o.compiled()) << o.describe();
  EXPECT_NE(o.kernel->result.files.source.find("(toLocal at f.rise:3:49)"), std::string::npos)
      << o.kernel->result.files.source;
}
