// Tests of `#pragma omp simd` on the innermost loops of parallel loops
// (codegen/openmp/SimdLoops): which loops are marked, which are left alone.
#include "codegen/openmp/SimdLoops.h"
#include "codegen/c/CPrinter.h"
#include "codegen/openmp/Pragmas.h"

#include <gtest/gtest.h>

using namespace risec::codegen::c;
namespace omp = risec::codegen::openmp;

namespace {

CStmt loop(const std::string& var, std::vector<CStmt> body) {
  return countingLoop(namedType("int"), var, intLit(0), ident("n"), intLit(1), std::move(body));
}

/// `#pragma omp parallel for` over i, around `inner`.
std::vector<CStmt> parallel(std::vector<CStmt> inner) {
  return {pragma(omp::parallelFor()), loop("i", std::move(inner))};
}

CExpr at(const std::string& array, CExpr idx) {
  return index(ident(array), std::move(idx));
}
CExpr ij() {
  return binary(COp::Add, ident("j"), binary(COp::Mul, ident("n"), ident("i")));
}

int simdCount(const std::vector<CStmt>& body) {
  std::string s = printStmts(omp::markSimdLoops(body));
  int count = 0;
  for (std::size_t p = s.find("#pragma omp simd"); p != std::string::npos;
       p = s.find("#pragma omp simd", p + 1))
    ++count;
  return count;
}

} // namespace

TEST(SimdLoops, MarksTheInnermostMapLoopOfAParallelLoop) {
  auto body = parallel({loop("j", {assign(at("out", ij()), at("in", ij()))})});
  EXPECT_EQ(printStmts(omp::markSimdLoops(body)), "#pragma omp parallel for\n"
                                                  "for (int i = 0; i < n; i += 1) {\n"
                                                  "#pragma omp simd\n"
                                                  "  for (int j = 0; j < n; j += 1) {\n"
                                                  "    out[j + n * i] = in[j + n * i];\n"
                                                  "  }\n"
                                                  "}\n");
}

TEST(SimdLoops, LeavesLoopsOutsideParallelLoopsAlone) {
  std::vector<CStmt> body = {loop("i", {loop("j", {assign(at("out", ij()), at("in", ij()))})})};
  EXPECT_EQ(simdCount(body), 0);
}

TEST(SimdLoops, LeavesAReductionIntoAnOuterAccumulatorAlone) {
  auto body =
      parallel({declStmt(namedType("float"), "acc", literal("0.0f")),
                loop("j", {assign(ident("acc"), binary(COp::Add, ident("acc"), at("in", ij())))}),
                assign(at("out", ident("i")), ident("acc"))});
  EXPECT_EQ(simdCount(body), 0);
}

TEST(SimdLoops, AcceptsVariablesDeclaredInTheBody) {
  auto body =
      parallel({loop("j", {declStmt(namedType("float"), "acc", literal("0.0f")),
                           assign(ident("acc"), binary(COp::Add, ident("acc"), at("in", ij()))),
                           assign(at("out", ij()), ident("acc"))})});
  EXPECT_EQ(simdCount(body), 1);
}

TEST(SimdLoops, LeavesAStoreNotIndexedByTheLoopAlone) {
  auto body = parallel({loop("j", {assign(at("out", ident("i")), at("in", ij()))})});
  EXPECT_EQ(simdCount(body), 0);
}

TEST(SimdLoops, LeavesAReadOfAnotherIterationsStoreAlone) {
  // tmp[j] = ...; out[j] = tmp[j + 1]: iteration j reads what j + 1 writes.
  auto body = parallel(
      {loop("j", {assign(at("tmp", ident("j")), at("in", ij())),
                  assign(at("out", ij()), at("tmp", binary(COp::Add, ident("j"), intLit(1))))})});
  EXPECT_EQ(simdCount(body), 0);
  // ... while reading back the element just stored is fine.
  auto same = parallel({loop("j", {assign(at("tmp", ident("j")), at("in", ij())),
                                   assign(at("out", ij()), at("tmp", ident("j")))})});
  EXPECT_EQ(simdCount(same), 1);
}

TEST(SimdLoops, MarksOnlyInnermostLoops) {
  auto body = parallel({loop(
      "j", {loop("k", {assign(at("out", binary(COp::Add, ij(), ident("k"))), literal("1.0f"))})})});
  std::string s = printStmts(omp::markSimdLoops(body));
  EXPECT_EQ(simdCount(body), 1) << s;
  EXPECT_LT(s.find("for (int j"), s.find("#pragma omp simd")) << s;
}

TEST(SimdLoops, LeavesLoopsWithBreakAlone) {
  auto body = parallel({loop("j", {assign(at("out", ij()), literal("1.0f")), breakStmt()})});
  EXPECT_EQ(simdCount(body), 0);
}

TEST(SimdLoops, LeavesReductionClausesAlone) {
  std::vector<CStmt> body = {pragma(omp::reductionFor("+", "acc")),
                             loop("i", {loop("j", {assign(at("out", ij()), at("in", ij()))})})};
  EXPECT_EQ(simdCount(body), 0);
}

TEST(SimdLoops, LeavesLoopsWithAFewConstantIterationsAlone) {
  auto counted = [](std::int64_t count) {
    return parallel({countingLoop(namedType("int"), "j", intLit(0), intLit(count), intLit(1),
                                  {assign(at("out", ij()), at("in", ij()))})});
  };
  EXPECT_EQ(simdCount(counted(5)), 0);
  EXPECT_EQ(simdCount(counted(omp::kShortLoop - 1)), 0);
  EXPECT_EQ(simdCount(counted(omp::kShortLoop)), 1);
  EXPECT_EQ(simdCount(counted(64)), 1);
}
