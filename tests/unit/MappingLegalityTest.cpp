// Legality of parallel mappings (docs/dpia.md, "Legality of parallel
// mappings"): the map nesting tree (codegen/MapNesting.h), one illegal program
// per rule of mapping-parallelism-constraints §4 for OpenCL
// (codegen/opencl/MappingLegality.h, E0640-E0647) and per OpenMP rule
// (codegen/openmp/Legality.h, E0620-E0623), each with its exact code,
// position and rule, and legal programs of the same shapes that must pass.
//
// Programs are checked after lowerToC, as compileToC does, except those with
// local memory: until the OpenCL back end supports it, lowerToC turns
// `toLocal` into `toMem`, so they are checked as written (the checker takes
// any RISE program; a high-level `map` counts as sequential).
#include "codegen/opencl/MappingLegality.h"
#include "codegen/MapNesting.h"
#include "codegen/openmp/Legality.h"
#include "lower/LowerToC.h"
#include "rise/infer/Infer.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace {

using namespace risec;
namespace fs = std::filesystem;

enum class Stage { Written, Lowered };

rise::TypedDef typed(const std::string& text, Stage stage, lower::LowerTarget target) {
  rise::Program program = rise::parseProgram(rise::makeSourceFile("f.rise", text));
  rise::TypedDef def = rise::inferDef(program, program.defs.back().name);
  return stage == Stage::Lowered ? lower::lowerToC(program, def, target) : def;
}

/// The error of the OpenCL checker on `text` as one kernel (its E0647 and
/// rule-7 violations thrown as found), or nothing.
std::optional<CompileError> openclError(const std::string& text, Stage stage = Stage::Lowered) {
  try {
    codegen::opencl::checkMappingLegality(typed(text, stage, lower::LowerTarget::OpenCL))
        .rejectFirst();
  } catch (const CompileError& e) {
    return e;
  }
  return std::nullopt;
}

std::optional<CompileError> openmpError(const std::string& text) {
  try {
    codegen::openmp::checkLegality(typed(text, Stage::Lowered, lower::LowerTarget::OpenMP));
  } catch (const CompileError& e) {
    return e;
  }
  return std::nullopt;
}

/// Asserts the code, the position and that the message names `rule` and
/// says how to fix it (`fix`).
void expectError(const std::optional<CompileError>& e, const std::string& code, int line,
                 int column, const std::string& rule, const std::string& fix) {
  ASSERT_TRUE(e) << "the program was accepted; expected " << code;
  EXPECT_EQ(e->code(), code) << e->message();
  EXPECT_EQ(e->location().line, line) << e->message();
  EXPECT_EQ(e->location().column, column) << e->message();
  EXPECT_NE(e->message().find(rule), std::string::npos) << e->message();
  EXPECT_NE(e->message().find(fix), std::string::npos) << e->message();
}

void expectLegal(const std::optional<CompileError>& e) {
  EXPECT_FALSE(e) << e->code() << " at " << e->location().str() << ": " << e->message();
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string corpus(const std::string& dir, const std::string& file) {
  return readFile(fs::path(RISEC_TEST_DATA) / dir / file);
}

// ---- the map nesting tree (Figure 3 of the paper) ----------------------------------

TEST(MapNesting, Listing3HasTheChainsOfFigure3) {
  // join o mapA(mapB(_ + z) o join o mapC(mapD(_ * y)) o split(s1)) o split(s0)
  rise::TypedDef def =
      typed("def f = depFun(n: Nat => fun(x: (n*4).f32 => fun(y: f32 => fun(z: f32 =>\n"
            "  x |> split(4) |> map(fun(t =>\n"
            "    t |> split(2) |> map(fun(u => u |> map(fun(v => v * y)))) |> join\n"
            "      |> map(fun(w => w + z)))) |> join))))\n",
            Stage::Written, lower::LowerTarget::C);
  codegen::MapNesting n = codegen::MapNesting::build(def.expr, codegen::MemorySpace::Private);
  auto chains = n.chains();
  ASSERT_EQ(chains.size(), 2u);
  auto where = [](const codegen::MapNode* m) {
    return std::to_string(m->prim->loc().line) + ":" + std::to_string(m->prim->loc().column);
  };
  // (mapA, mapC, mapD) and (mapA, mapB), in source order
  ASSERT_EQ(chains[0].size(), 3u);
  EXPECT_EQ(where(chains[0][0]), "2:20");
  EXPECT_EQ(where(chains[0][1]), "3:22");
  EXPECT_EQ(where(chains[0][2]), "3:40");
  ASSERT_EQ(chains[1].size(), 2u);
  EXPECT_EQ(where(chains[1][1]), "4:10");
  EXPECT_EQ(codegen::MapNesting::nestedMaps(*chains[0][0]).size(), 3u);
  EXPECT_EQ(codegen::MapNesting::outerMaps(*chains[0][2]).size(), 2u);
}

TEST(MapNesting, FindsTheWritersAndReadersOfTemporaries) {
  rise::TypedDef def =
      typed("def f = depFun(n: Nat => fun(x: n.4.f32 =>\n"
            "  x |> mapWorkGroup(0)(fun(r => r |> mapLocal(0)(fun(v => v * 2.0f)) |> toLocal\n"
            "    |> mapLocal(0)(fun(v => v + 1.0f))))))\n",
            Stage::Written, lower::LowerTarget::OpenCL);
  codegen::MapNesting n = codegen::MapNesting::build(def.expr, codegen::MemorySpace::Private);
  auto stores = n.stores();
  ASSERT_EQ(stores.size(), 1u);
  EXPECT_EQ(stores[0]->space, codegen::MemorySpace::Local);
  ASSERT_EQ(stores[0]->writers.size(), 1u);
  EXPECT_EQ(stores[0]->writers[0]->label(), "mapLocal(0)");
  EXPECT_EQ(stores[0]->enclosing->label(), "mapWorkGroup(0)");
  auto maps = n.maps();
  ASSERT_EQ(maps.size(), 3u);
  EXPECT_TRUE(maps[1]->inputs.empty());
  ASSERT_EQ(maps[2]->inputs.size(), 1u);
  EXPECT_EQ(maps[2]->inputs[0], stores[0]);
}

// ---- OpenCL: legal mappings --------------------------------------------------------

TEST(OpenCLMappingLegality, MvOfListing4IsLegal) {
  expectLegal(openclError(corpus("rise", "mv_ocl.rise")));
}

TEST(OpenCLMappingLegality, TwoDimensionalGlobalMapsAreLegal) {
  expectLegal(openclError(corpus("rise", "matrix_add_ocl.rise")));
  expectLegal(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.f32 =>\n"
                          "  x |> mapGlobal(1)(mapGlobal(0)(fun(v => v * 2.0f)))))\n"));
}

TEST(OpenCLMappingLegality, TwoDimensionalWorkGroupsAreLegal) {
  expectLegal(openclError(
      "def f = depFun((n: Nat, m: Nat) => fun(x: n.m.4.4.f32 =>\n"
      "  x |> mapWorkGroup(1)(mapWorkGroup(0)(mapLocal(1)(mapLocal(0)(fun(v => v * 2.0f)))))))\n"));
}

TEST(OpenCLMappingLegality, TheOpenCLTestProgramsAreLegal) {
  for (const char* f : {"ocl_private_tile.rise", "ocl_row_sums.rise", "ocl_scal.rise"})
    expectLegal(openclError(corpus("e2e", f)));
}

TEST(OpenCLMappingLegality, LocalMemoryInsideAWorkGroupIsLegal) {
  expectLegal(openclError(corpus("rise", "listing5_to_local.rise"), Stage::Written));
  expectLegal(openclError(corpus("rise", "sum_squares_ocl.rise"), Stage::Written));
}

TEST(OpenCLMappingLegality, ConsecutiveGlobalPhasesAreLegal) {
  expectLegal(openclError("def f = depFun(n: Nat => fun(x: n.f32 =>\n"
                          "  x |> mapGlobal(0)(fun(v => v * 2.0f)) |> toGlobal\n"
                          "    |> mapGlobal(0)(fun(v => v + 1.0f))))\n",
                          Stage::Written));
}

TEST(OpenCLMappingLegality, PrivateTemporariesInsideAnIterationAreLegal) {
  expectLegal(openclError("def f = depFun(n: Nat => fun(x: n.4.f32 =>\n"
                          "  x |> mapGlobal(0)(fun(r => r |> mapSeq(fun(v => v * v)) |> toPrivate\n"
                          "    |> reduceSeq(add)(0.0f)))))\n"));
}

TEST(OpenCLMappingLegality, ViewMapsBesideA2DGlobalNestAreLegal) {
  // the padding and window maps of a 2-D stencil's input stay views after
  // lowerToC (no loops), so they need no global dimension (rule 7)
  expectLegal(openclError(
      "def f = depFun((h: Nat, w: Nat) => fun(x: h.w.f32 =>\n"
      "  x |> map(padCst(1, 1, 0.0f)) |> transpose |> map(padCst(1, 1, 0.0f)) |> transpose\n"
      "    |> slide(3, 1) |> map(fun(rows => rows |> map(slide(3, 1)) |> transpose))\n"
      "    |> mapGlobal(1)(mapGlobal(0)(fun(nbh => nbh |> join |> reduceSeq(add)(0.0f))))))\n"));
  // (a sequential loop beside a global nest is still E0646: the Rule7 tests below)
}

// ---- OpenCL: one illegal program per rule ------------------------------------------

TEST(OpenCLMappingLegality, Rule1ParallelMapWritingPrivateMemory) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.f32 =>\n"
                          "  x |> mapGlobal(0)(fun(r =>\n"
                          "    r |> mapGlobal(1)(fun(v => v * 2.0f)) |> toPrivate\n"
                          "      |> reduceSeq(add)(0.0f)))))\n"),
              "E0640", 3, 10, "rule 1 of the mapping constraints: private memory stays sequential",
              "make the map sequential (mapSeq)");
}

TEST(OpenCLMappingLegality, Rule1ParallelMapNestedInTheProducerOfPrivateMemory) {
  // the mapLocal writes the elements of the rows the mapSeq stores privately
  expectError(openclError("def f = depFun(n: Nat => fun(x: n.4.4.f32 =>\n"
                          "  x |> mapWorkGroup(0)(fun(t => t |> mapSeq(fun(r =>\n"
                          "    r |> mapLocal(0)(fun(v => v * 2.0f)))) |> toPrivate\n"
                          "      |> mapSeq(fun(r => r |> reduceSeq(add)(0.0f)))))))\n"),
              "E0640", 3, 10,
              "writes its result into private memory (`toPrivate` at "
              "f.rise:3:47)",
              "rule 1 of the mapping constraints");
}

TEST(OpenCLMappingLegality, Rule1ParallelMapWritingALoweredTemporary) {
  // lowerToC stores the mapLocal's result (read by mapSeq) in a private temporary
  auto e = openclError("def f = depFun(n: Nat => fun(x: n.4.f32 =>\n"
                       "  x |> mapWorkGroup(0)(fun(r => r |> mapLocal(0)(fun(v => v * 2.0f))\n"
                       "    |> mapSeq(fun(v => v + 1.0f))))))\n");
  expectError(e, "E0640", 2, 38, "rule 1", "store its result in local or global memory");
  EXPECT_NE(e->message().find("a temporary that lowerToC inserted because the result is read"),
            std::string::npos);
}

TEST(OpenCLMappingLegality, Rule1LeavesAPrivateArrayOfOneMappingToTheIndexCheck) {
  // written and iterated over by mapLocal(0) alone, element by element: each
  // work-item reads back the elements it wrote (issue 13, item 3); the exact
  // indices are checked on the generated loops (E0648, PrivateMemory.h)
  expectLegal(openclError("def f = depFun(n: Nat => fun(x: n.4.f32 =>\n"
                          "  x |> mapWorkGroup(0)(fun(r => r |> mapLocal(0)(fun(v => v * 2.0f))\n"
                          "    |> mapLocal(0)(fun(v => v + 1.0f))))))\n"));
  // read through a view (split) by the second map: rule 1 as before
  expectError(
      openclError("def f = depFun(n: Nat => fun(x: n.4.f32 =>\n"
                  "  x |> mapWorkGroup(0)(fun(r => r |> mapLocal(0)(fun(v => v * 2.0f))\n"
                  "    |> toPrivate |> split(2) |> mapLocal(0)(reduceSeq(add)(0.0f))))))\n"),
      "E0640", 2, 38, "rule 1", "store its result in local or global memory");
}

TEST(OpenCLMappingLegality, Rule1LeavesAPrivateArrayOfNestedMappingsToTheIndexCheck) {
  // Shine's nbodyNVIDIA: the accumulator written by mapLocal(1)(mapLocal(0))
  // and read through zip by the same nest, the chunk written by mapLocal(0)
  // and read inside mapLocal(1)(mapLocal(0)) (issue 13, item 3)
  expectLegal(openclError(corpus("e2e", "ocl_private_nbody.rise")));
  // read through transpose by the nest that wrote it: rule 1 as before
  expectError(openclError("def f = fun(xs: 4.4.f32 =>\n"
                          "  xs |> mapGlobal(1)(mapGlobal(0)(fun(x => x * 2.0f))) |> toPrivate\n"
                          "    |> transpose |> mapGlobal(1)(mapGlobal(0)(fun(x => x + 1.0f))))\n"),
              "E0640", 2, 9, "rule 1", "store its result in local or global memory");
  // maps of two levels (mapWorkGroup and mapLocal): rule 1 as before
  expectError(openclError("def f = depFun(n: Nat => fun(x: n.4.f32 =>\n"
                          "  x |> mapWorkGroup(0)(mapLocal(0)(fun(v => v * 2.0f))) |> toPrivate\n"
                          "    |> mapWorkGroup(0)(mapLocal(0)(fun(v => v + 1.0f)))))\n"),
              "E0640", 2, 8, "rule 1", "store its result in local or global memory");
}

TEST(OpenCLMappingLegality, Rule1IterateBuffersArePrivate) {
  // issue 13: the steps of iterate map with mapLocal over buffers private to
  // each work-item
  auto e = openclError("def f = depFun(n: Nat => fun(xs: (8*n).f32 =>\n"
                       "  xs |> split(8) |> mapWorkGroup(0)(fun(c => c |> toLocal\n"
                       "    |> iterate(3)(depFun(l: Nat => fun(ys =>\n"
                       "         ys |> split(2) |> mapLocal(0)(reduceSeq(add)(0.0f)))))\n"
                       "    |> toLocal |> mapLocal(0)(fun(x => x)))) |> join))\n");
  expectError(e, "E0640", 4, 28, "rule 1", "oclIterate(Local)");
  EXPECT_NE(e->message().find("the double buffers of `iterate` at f.rise:3:8"), std::string::npos)
      << e->message();
  // with oclIterate(Local) the buffers are the work-group's
  expectLegal(
      openclError("def f = depFun(n: Nat => fun(xs: (8*n).f32 =>\n"
                  "  xs |> split(8) |> mapWorkGroup(0)(fun(c => c |> mapLocal(0)(fun(x => x))\n"
                  "    |> toLocal |> oclIterate(Local)(3)(depFun(l: Nat => fun(ys =>\n"
                  "         ys |> split(2) |> mapLocal(0)(reduceSeq(add)(0.0f)))))\n"
                  "    |> toLocal |> mapLocal(0)(fun(x => x)))) |> join))\n"));
  // private buffers stepped through sequentially by one work-item are fine
  expectLegal(
      openclError("def f = depFun(n: Nat => fun(xs: (8*n).f32 =>\n"
                  "  xs |> split(8) |> mapGlobal(0)(fun(c => c\n"
                  "    |> iterate(3)(depFun(l: Nat => fun(ys =>\n"
                  "         ys |> split(2) |> mapSeq(reduceSeq(add)(0.0f))))))) |> join))\n"));
}

TEST(OpenCLMappingLegality, Rule2OclIterateLocalOutsideAWorkGroup) {
  expectError(
      openclError("def f = depFun(n: Nat => fun(xs: (8*n).f32 =>\n"
                  "  xs |> split(8) |> mapGlobal(0)(fun(c => c\n"
                  "    |> oclIterate(Local)(3)(depFun(l: Nat => fun(ys =>\n"
                  "         ys |> split(2) |> mapSeq(reduceSeq(add)(0.0f))))))) |> join))\n"),
      "E0641", 3, 8, "rule 2", "mapWorkGroup");
}

TEST(OpenCLMappingLegality, Rule1ParallelMapReadingPrivateMemory) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.f32 =>\n"
                          "  x |> mapGlobal(0)(fun(r =>\n"
                          "    r |> toPrivate |> mapGlobal(1)(fun(v => v * 2.0f))))))\n"),
              "E0640", 3, 23, "iterates over private memory (`toPrivate` at f.rise:3:10)",
              "store its input in local or global memory");
}

TEST(OpenCLMappingLegality, Rule1PrivateMemoryReachesAMapThroughParameters) {
  // the rows of a private array, through the parameter of a sequential map
  expectError(openclError("def f = depFun(n: Nat => fun(x: 4.n.f32 =>\n"
                          "  x |> toPrivate |> mapSeq(fun(r =>\n"
                          "    r |> mapGlobal(0)(fun(v => v * 2.0f))))))\n",
                          Stage::Written),
              "E0640", 3, 10, "iterates over private memory (`toPrivate` at f.rise:2:8)", "rule 1");
  // a value bound by let
  expectError(openclError("def f = depFun(n: Nat => fun(x: n.f32 =>\n"
                          "  let(x |> toPrivate)(fun(t =>\n"
                          "    t |> mapGlobal(0)(fun(v => v * 2.0f))))))\n",
                          Stage::Written),
              "E0640", 3, 10, "iterates over private memory", "rule 1");
  // shadowed: the inner `r` is an element of the input, not of the temporary
  expectLegal(openclError("def f = depFun(n: Nat => fun(x: 4.n.f32 => fun(y: 4.n.f32 =>\n"
                          "  x |> toPrivate |> mapSeq(fun(r =>\n"
                          "    y |> mapGlobal(0)(fun(r => r |> mapSeq(fun(v => v * 2.0f)))))))))\n",
                          Stage::Written));
}

TEST(OpenCLMappingLegality, Rule1ParallelMapWritingAnAccumulator) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.4.f32 =>\n"
                          "  x |> mapSeq(fun(r => r)) |> toGlobal |> reduceSeq(fun(acc, r =>\n"
                          "    r |> mapGlobal(0)(fun(v => v * 2.0f))))\n"
                          "      (generate(fun(i => 0.0f)))))\n",
                          Stage::Written),
              "E0640", 3, 10, "the accumulator of `reduceSeq` at f.rise:2:43", "rule 1");
  // an accumulator that mapGlobal(0) both writes and reads element by
  // element is left to the index check on the generated loops (E0648):
  // CodegenOpenCLTemporariesTest
}

TEST(OpenCLMappingLegality, Rule2LocalMemoryOutsideAWorkGroup) {
  expectError(openclError("def f = depFun(n: Nat => fun(x: n.f32 =>\n"
                          "  x |> mapSeq(fun(v => v * 2.0f)) |> toLocal\n"
                          "    |> mapSeq(fun(v => v + 1.0f))))\n",
                          Stage::Written),
              "E0641", 2, 38,
              "rule 2 of the mapping constraints: local memory belongs to a "
              "work-group",
              "move it into the function of a mapWorkGroup");
}

TEST(OpenCLMappingLegality, Rule2LocalMemoryInsideAMapLocal) {
  expectError(openclError("def f = depFun(n: Nat => fun(x: n.4.f32 =>\n"
                          "  x |> mapWorkGroup(0)(fun(r =>\n"
                          "    r |> mapLocal(0)(fun(v => toLocal(v * 2.0f) + 1.0f))))))\n",
                          Stage::Written),
              "E0641", 3, 31, "rule 2", "store the whole result of the mapLocal instead");
}

TEST(OpenCLMappingLegality, Rule2WorkGroupMapWritingLocalMemory) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.4.f32 =>\n"
                          "  x |> mapWorkGroup(0)(fun(r =>\n"
                          "    r |> mapWorkGroup(1)(mapLocal(0)(fun(v => v * 2.0f))) |> toLocal\n"
                          "      |> mapLocal(1)(mapSeq(fun(v => v + 1.0f)))))))\n",
                          Stage::Written),
              "E0641", 3, 10, "writes its result into local memory (`toLocal` at f.rise:3:62)",
              "use mapLocal or mapSeq for a map that produces local memory");
}

TEST(OpenCLMappingLegality, Rule2GlobalMapReadingLocalMemory) {
  expectError(openclError("def f = depFun(n: Nat => fun(x: n.4.f32 =>\n"
                          "  x |> mapWorkGroup(0)(fun(r =>\n"
                          "    r |> mapLocal(0)(fun(v => v * 2.0f)) |> toLocal\n"
                          "      |> mapWorkGroup(1)(fun(v => v + 1.0f))))))\n",
                          Stage::Written),
              "E0641", 4, 10, "iterates over local memory", "use mapLocal or mapSeq");
}

TEST(OpenCLMappingLegality, Rule3SameDimensionTwice) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.f32 =>\n"
                          "  x |> mapGlobal(0)(fun(r =>\n"
                          "    r |> mapGlobal(0)(fun(v => v * 2.0f))))))\n"),
              "E0642", 3, 10,
              "`mapGlobal(0)` inside `mapGlobal(0)` at f.rise:2:8 schedules dimension 0 twice "
              "(rule 3 of the mapping constraints: no duplicate scheduling)",
              "use another dimension or make the inner map sequential (mapSeq)");
}

TEST(OpenCLMappingLegality, Rule3SameLocalDimensionTwice) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.4.4.f32 =>\n"
                          "  x |> mapWorkGroup(1)(mapWorkGroup(0)(\n"
                          "    mapLocal(1)(mapLocal(1)(fun(v => v * 2.0f)))))))\n"),
              "E0642", 3, 17, "schedules dimension 1 twice", "rule 3");
}

TEST(OpenCLMappingLegality, Rule4LocalDimensionWithoutItsWorkGroup) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.f32 =>\n"
                          "  x |> mapWorkGroup(0)(fun(r =>\n"
                          "    r |> mapLocal(1)(fun(v => v * 2.0f))))))\n"),
              "E0643", 3, 10,
              "is inside `mapWorkGroup(0)` at f.rise:2:8 but its nest has no `mapWorkGroup(1)` "
              "(rule 4 of the mapping constraints: local dimensions match work-group dimensions)",
              "use mapLocal(0), or add a mapWorkGroup(1) around it");
}

TEST(OpenCLMappingLegality, Rule4MapLocalWithoutAnyWorkGroup) {
  expectError(openclError("def f = depFun(n: Nat => fun(x: n.f32 =>\n"
                          "  x |> mapLocal(0)(fun(v => v * 2.0f))))\n"),
              "E0643", 2, 8, "`mapLocal(0)` is not inside a `mapWorkGroup(0)` (rule 4",
              "wrap its nest in mapWorkGroup(0), or use mapGlobal(0)");
}

TEST(OpenCLMappingLegality, Rule5WorkGroupDimensionWithoutItsLocal) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.f32 =>\n"
                          "  x |> mapWorkGroup(0)(fun(r =>\n"
                          "    r |> mapSeq(fun(v => v * 2.0f))))))\n"),
              "E0644", 3, 10,
              "`mapSeq` is inside `mapWorkGroup(0)` at f.rise:2:8 but not inside a "
              "`mapLocal(0)`: every work-item of the group would run all its iterations (rule 5",
              "make it, or a map around it, mapLocal(0)");
}

TEST(OpenCLMappingLegality, Rule5WorkGroupMapWithNoMapInside) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.f32 =>\n"
                          "  x |> mapWorkGroup(0)(fun(r => r |> reduceSeq(add)(0.0f)))))\n"),
              "E0644", 2, 8, "has no `mapLocal(0)` inside", "make a map inside it mapLocal(0)");
}

TEST(OpenCLMappingLegality, Rule6WorkGroupInsideLocal) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.4.4.f32 =>\n"
                          "  x |> mapWorkGroup(0)(mapLocal(0)(\n"
                          "    mapWorkGroup(1)(mapLocal(1)(fun(v => v * 2.0f)))))))\n"),
              "E0645", 3, 5,
              "`mapWorkGroup(1)` inside `mapLocal(0)` at f.rise:2:24: work-groups contain "
              "work-items, not the reverse (rule 6 of the mapping constraints: local/work-group "
              "hierarchy)",
              "swap the two maps");
}

TEST(OpenCLMappingLegality, Rule7SequentialPhaseBesideAGlobalOne) {
  expectError(openclError("def f = depFun(n: Nat => fun(x: n.f32 => fun(y: n.f32 =>\n"
                          "  makePair(x |> mapGlobal(0)(fun(v => v * 2.0f)),\n"
                          "           y |> mapSeq(fun(v => v + 1.0f))))))\n"),
              "E0646", 3, 17,
              "`mapSeq` does not use global dimension 0, but `mapGlobal(0)` at f.rise:2:17 does: "
              "every work-item would run all its iterations (rule 7 of the mapping constraints: "
              "exhaustive thread indexing)",
              "make a map of its nest mapGlobal(0)");
}

TEST(OpenCLMappingLegality, Rule7NestWithoutASecondDimension) {
  expectError(openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.f32 => fun(y: n.m.f32 =>\n"
                          "  makePair(x |> mapGlobal(0)(fun(v => v * 2.0f)),\n"
                          "           y |> mapGlobal(0)(mapGlobal(1)(fun(v => v + 1.0f)))))))\n"),
              "E0646", 2, 17, "does not use global dimension 1, but `mapGlobal(1)` at f.rise:3:30",
              "rule 7");
}

TEST(OpenCLMappingLegality, Rule7SequentialPhaseBesideWorkGroups) {
  expectError(openclError("def f = depFun(n: Nat => fun(x: n.4.f32 => fun(y: n.f32 =>\n"
                          "  makePair(x |> mapWorkGroup(0)(mapLocal(0)(fun(v => v * 2.0f))),\n"
                          "           y |> mapSeq(fun(v => v + 1.0f))))))\n"),
              "E0646", 3, 17, "does not use work-group dimension 0", "rule 7");
}

TEST(OpenCLMappingLegality, GlobalAndWorkGroupMapsInOneKernel) {
  expectError(
      openclError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.4.f32 =>\n"
                  "  x |> mapGlobal(1)(mapWorkGroup(0)(mapLocal(0)(fun(v => v * 2.0f))))))\n"),
      "E0647", 2, 21, "`mapWorkGroup(0)` and `mapGlobal(1)` at f.rise:2:8 in one kernel",
      "use mapGlobal only, or mapWorkGroup and mapLocal only");
}

// ---- OpenMP --------------------------------------------------------------------------

TEST(OpenMPLegality, NestedMapParIsE0620) {
  expectError(openmpError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.f32 =>\n"
                          "  x |> mapPar(fun(r => r |> mapPar(fun(v => v * 2.0f))))))\n"),
              "E0620", 2, 29, "nested parallel loops", "make the inner one sequential");
}

TEST(OpenMPLegality, ParallelLoopInAReduceParOperatorIsE0622) {
  expectError(openmpError("def f = depFun(n: Nat => fun(x: n.f32 => fun(y: n.f32 =>\n"
                          "  x |> reducePar(fun(a, b =>\n"
                          "    a + b * (y |> reducePar(add)(0.0f))))(0.0f))))\n"),
              "E0622", 3, 19, "inside the operator of the `reducePar` at f.rise:2:8",
              "make it sequential (mapSeq, reduceSeq)");
}

TEST(OpenMPLegality, MapParReadingTheAccumulatorElsewhereWritesATemporary) {
  // Updated in place, the iterations would race (E0623); lowerToC computes
  // such a new accumulator into a temporary and copies it (docs/dpia.md,
  // "Array accumulators"), so the program is legal, for reduceSeq and scanSeq.
  for (std::string reduce : {"reduceSeq", "scanSeq"})
    expectLegal(openmpError("def f = depFun((n: Nat, m: Nat) => fun(x: n.(m+1).f32 =>\n"
                            "  x |> " +
                            reduce +
                            "(fun(acc, r =>\n"
                            "    zip(concat(drop(1)(acc))(take(1)(acc)), r)\n"
                            "      |> mapPar(fun(p => fst(p) + snd(p)))))(generate(fun(i => "
                            "0.0f)))))\n"));
}

TEST(OpenMPLegality, MapParReadingItsOwnElementOfTheAccumulatorIsLegal) {
  expectLegal(
      openmpError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.f32 =>\n"
                  "  x |> reduceSeq(fun(acc, r => zip(acc, r)\n"
                  "    |> mapPar(fun(p => fst(p) + snd(p)))))(generate(fun(i => 0.0f)))))\n"));
}

TEST(OpenMPLegality, MapParReadingACopyOfTheAccumulatorIsLegal) {
  expectLegal(openmpError("def f = depFun((n: Nat, m: Nat) => fun(x: n.(m+1).f32 =>\n"
                          "  x |> reduceSeq(fun(acc, r =>\n"
                          "    zip(acc |> mapSeq(fun(a => a)) |> toMem |> drop(1), take(m)(r))\n"
                          "      |> mapPar(fun(p => fst(p) + snd(p))) |> concat(take(1)(r))))\n"
                          "    (generate(fun(i => 0.0f)))))\n"));
}

TEST(OpenMPLegality, TheOpenMPTestProgramsAreLegal) {
  for (const char* f :
       {"omp_max.rise", "omp_mv.rise", "omp_nest.rise", "omp_scal.rise", "omp_sum.rise"})
    expectLegal(openmpError(corpus("e2e", f)));
  expectLegal(openmpError(corpus("rise", "asum_openmp.rise")));
  // a temporary inside a parallel iteration is private to it (a per-thread slice)
  expectLegal(openmpError("def f = depFun((n: Nat, m: Nat) => fun(x: n.m.f32 =>\n"
                          "  x |> mapPar(fun(r => r |> mapSeq(fun(v => v * 2.0f)) |> toMem\n"
                          "    |> reduceSeq(add)(0.0f)))))\n"));
}

} // namespace
