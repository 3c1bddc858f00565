// Tests of loop unswitching on the C syntax tree (codegen/c/Unswitch).
#include "codegen/c/Unswitch.h"
#include "codegen/c/CPrinter.h"

#include <gtest/gtest.h>

using namespace risec::codegen::c;

namespace {

CExpr id(const std::string& name) {
  return ident(name);
}

/// for (int q = 0; q < 4; q += 1) { acc[q] = acc[q] + (guard ? x[q] : 0.0f); }
CStmt guardedLoop(CExpr guard, std::vector<CStmt> before = {}) {
  CExpr read = ternary(std::move(guard), index(id("x"), id("q")), literal("0.0f"));
  before.push_back(
      assign(index(id("acc"), id("q")), binary(COp::Add, index(id("acc"), id("q")), read)));
  return countingLoop(namedType("int"), "q", intLit(0), intLit(4), intLit(1), std::move(before),
                      "mapSeq");
}

CExpr padGuard() { // p + 4 * l < k
  return binary(COp::Lt, binary(COp::Add, id("p"), binary(COp::Mul, intLit(4), id("l"))), id("k"));
}

} // namespace

TEST(Unswitch, ALoopGetsACopyWithoutTheGuardThatDoesNotChangeInIt) {
  EXPECT_EQ(printStmts(unswitchLoops({guardedLoop(padGuard())})),
            "if (p + 4 * l < k) {\n"
            "  // mapSeq\n"
            "  for (int q = 0; q < 4; q += 1) {\n"
            "    acc[q] = acc[q] + x[q];\n"
            "  }\n"
            "} else {\n"
            "  // mapSeq\n"
            "  for (int q = 0; q < 4; q += 1) {\n"
            "    acc[q] = acc[q] + 0.0f;\n"
            "  }\n"
            "}\n");
}

TEST(Unswitch, TheGuardIsHoistedOutOfTheOutermostLoopItDoesNotChangeIn) {
  // the guard reads l, the outer loop's index: only the inner loop is unswitched
  CStmt outer = countingLoop(namedType("int"), "l", intLit(0), id("n"), intLit(1),
                             {guardedLoop(padGuard())}, "reduceSeq");
  std::string c = printStmts(unswitchLoops({outer}));
  EXPECT_EQ(c.rfind("// reduceSeq\nfor (int l = 0; l < n; l += 1) {\n  if (p + 4 * l < k) {", 0),
            0u)
      << c;
}

TEST(Unswitch, LeavesGuardsThatChangeReadMemoryOrMayTrap) {
  std::vector<CExpr> kept = {
      binary(COp::Lt, id("q"), id("k")),                              // the loop's own index
      binary(COp::Lt, index(id("len"), intLit(0)), id("k")),          // a read of memory
      binary(COp::Lt, binary(COp::Div, id("k"), id("s")), intLit(3)), // k / s may trap
      binary(COp::Lt, id("t"), id("k")),                              // t is assigned below
  };
  for (const CExpr& g : kept) {
    CStmt loop = guardedLoop(g, {assign(id("t"), id("q"))});
    std::string c = printStmts(unswitchLoops({loop}));
    EXPECT_EQ(c.rfind("// mapSeq\nfor", 0), 0u) << c;
    EXPECT_NE(c.find(" ? x[q] : 0.0f"), std::string::npos) << c;
  }
}

TEST(Unswitch, LeavesTheLoopsACollapsePragmaNeedsPerfectlyNested) {
  // rewrite fuzz finding R10: `collapse(2)` before a loop whose body had
  // become an `if` ("expected 2 for loops")
  CStmt outer = countingLoop(namedType("int"), "l", intLit(0), id("n"), intLit(1),
                             {guardedLoop(padGuard())}, "mapPar");
  std::vector<CStmt> body = {pragma("omp parallel for collapse(2)"), outer};
  std::string c = printStmts(unswitchLoops(body));
  EXPECT_EQ(c.find("if ("), std::string::npos) << c;
  // a loop inside the collapsed two is versioned as usual
  CStmt deeper = countingLoop(namedType("int"), "r", intLit(0), id("n"), intLit(1),
                              {guardedLoop(padGuard())}, "mapSeq");
  CStmt nest =
      countingLoop(namedType("int"), "l", intLit(0), id("n"), intLit(1), {deeper}, "mapPar");
  std::string d = printStmts(unswitchLoops({pragma("omp parallel for collapse(2)"), nest}));
  EXPECT_NE(d.find("    if (p + 4 * l < k) {"), std::string::npos) << d;
}

TEST(Unswitch, LeavesALoopBehindAPragma) {
  std::vector<CStmt> body = {pragma("omp parallel for"), guardedLoop(padGuard())};
  std::string c = printStmts(unswitchLoops(body));
  EXPECT_EQ(c.rfind("#pragma omp parallel for\n// mapSeq\nfor", 0), 0u) << c;
}

TEST(Unswitch, EveryInvariantGuardIsTakenAndTheCopyIsMadeOnlyIfNoGuardIsLeft) {
  // two guards that change in neither loop: one copy with both taken
  CExpr second = binary(COp::Lt, id("j"), id("h"));
  CStmt inner = countingLoop(
      namedType("int"), "r", intLit(0), intLit(2), intLit(1),
      {assign(index(id("y"), id("r")), ternary(second, index(id("x"), id("r")), literal("1.0f")))},
      "mapSeq");
  std::string c = printStmts(unswitchLoops({guardedLoop(padGuard(), {inner})}));
  EXPECT_EQ(c.rfind("if (j < h && p + 4 * l < k) {", 0), 0u) << c;
  // one copy with neither guard (the inner loop of the original copy is
  // then versioned on its own)
  EXPECT_EQ(c.substr(0, c.find("} else {")).find(" ? "), std::string::npos) << c;
  // a guard that changes with the loop (q < k) is left in the copy: no copy
  CExpr changing = binary(COp::Lt, id("q"), id("k"));
  CStmt both = guardedLoop(padGuard(),
                           {assign(index(id("y"), id("q")),
                                   ternary(changing, index(id("z"), id("q")), literal("1.0f")))});
  std::string d = printStmts(unswitchLoops({both}));
  EXPECT_EQ(d.find("if ("), std::string::npos) << d;
}

TEST(Unswitch, AGuardLeftInTheCopyIsTakenByTheLoopInside) {
  // the pad guard does not change in the outer loop: it is versioned on it;
  // the guard q < k left in its copy changes with q but not with r, so the
  // copy's inner loop is versioned on it in turn (as the original's is on
  // both: the clamp of a vector load of mm's loop permutation, invariant
  // over the k chunk, around padReduce's guard, invariant in the loop
  // inside it)
  CExpr sum =
      binary(COp::Add, ternary(padGuard(), index(id("x"), id("r")), literal("0.0f")),
             ternary(binary(COp::Lt, id("q"), id("k")), index(id("z"), id("r")), literal("1.0f")));
  CStmt inner = countingLoop(namedType("int"), "r", intLit(0), intLit(2), intLit(1),
                             {assign(index(id("y"), id("r")), sum)}, "mapSeq");
  CStmt outer =
      countingLoop(namedType("int"), "q", intLit(0), intLit(4), intLit(1), {inner}, "mapSeq");
  std::string c = printStmts(unswitchLoops({outer}));
  EXPECT_EQ(c.rfind("if (p + 4 * l < k) {\n", 0), 0u) << c;
  std::string fast = c.substr(0, c.find("\n} else {"));
  EXPECT_NE(fast.find("    if (q < k) {\n"), std::string::npos) << c;
  EXPECT_NE(fast.find("y[r] = x[r] + z[r];"), std::string::npos) << c;
  // the copy run when the pad guard fails takes it as false, and its inner
  // loop is versioned on q < k alone (not again on the failed guard)
  std::string other = c.substr(c.find("\n} else {"));
  EXPECT_NE(other.find("    if (q < k) {\n"), std::string::npos) << c;
  EXPECT_NE(other.find("y[r] = 0.0f + z[r];"), std::string::npos) << c;
  EXPECT_EQ(other.find("p + 4 * l < k"), std::string::npos) << c;
}

TEST(Unswitch, NoCopyWhereAGuardLeftChangesInTheInnermostLoop) {
  // the pad guard does not change in the outer loop, but r < k, left in its
  // copy, changes in the loop around its read: nothing to gain, no copy
  CExpr sum =
      binary(COp::Add, ternary(padGuard(), index(id("x"), id("r")), literal("0.0f")),
             ternary(binary(COp::Lt, id("r"), id("k")), index(id("z"), id("r")), literal("1.0f")));
  CStmt inner = countingLoop(namedType("int"), "r", intLit(0), intLit(2), intLit(1),
                             {assign(index(id("y"), id("r")), sum)}, "mapSeq");
  CStmt outer =
      countingLoop(namedType("int"), "q", intLit(0), intLit(4), intLit(1), {inner}, "mapSeq");
  std::string c = printStmts(unswitchLoops({outer}));
  EXPECT_EQ(c.rfind("// mapSeq\nfor (int q = 0; q < 4; q += 1) {\n", 0), 0u) << c;
}

namespace {

/// for (int l = 0; l < end; l += 1) { out[l] = xs[row + risec_min(n - 1, l + 32 * j)]; }
/// with the sizes pre-rendered as EmitNat renders them (literals).
CStmt clampedCopy(CExpr end, CExpr stride = nullptr) {
  CExpr clamp = call("risec_min", {literal("n - 1"), literal("l + 32 * j")});
  CExpr at = stride ? binary(COp::Mul, stride, clamp) : binary(COp::Add, literal("n * i"), clamp);
  return countingLoop(namedType("int"), "l", intLit(0), std::move(end), intLit(1),
                      {assign(index(id("out"), id("l")), index(id("xs"), at))}, "mapSeq");
}

} // namespace

TEST(Unswitch, ALoopOverAClampedRowGetsACopyWhereTheClampDoesNotBite) {
  EXPECT_EQ(printStmts(unswitchLoops({clampedCopy(intLit(32))})),
            "if (32 * j + 31 < n) {\n"
            "  // mapSeq\n"
            "  for (int l = 0; l < 32; l += 1) {\n"
            "    out[l] = xs[n * i + l + 32 * j];\n"
            "  }\n"
            "} else {\n"
            "  // mapSeq\n"
            "  for (int l = 0; l < 32; l += 1) {\n"
            "    out[l] = xs[n * i + risec_min(n - 1, l + 32 * j)];\n"
            "  }\n"
            "}\n");
}

TEST(Unswitch, AClampThatCannotBiteInItsLoopIsTakenOffWithoutACopy) {
  // the loop over a partial tile stops before the clamp would bite
  CExpr partial = call("risec_min", {intLit(32), literal("n - 32 * j")});
  EXPECT_EQ(printStmts(unswitchLoops({clampedCopy(partial)})),
            "// mapSeq\n"
            "for (int l = 0; l < risec_min(32, n - 32 * j); l += 1) {\n"
            "  out[l] = xs[n * i + l + 32 * j];\n"
            "}\n");
}

TEST(Unswitch, AClampThatAlwaysBitesOrStridedReadsAreLeftAsTheyAre) {
  // a row with its own padding: `risec_max(0, l - 2)` bites at l = 0 whatever
  // the sizes (-2 >= 0 never holds)
  CExpr padded = call("risec_max", {intLit(0), literal("l - 2")});
  CStmt row = countingLoop(namedType("int"), "l", intLit(0), literal("w + 4"), intLit(1),
                           {assign(index(id("out"), id("l")), index(id("xs"), padded))}, "mapSeq");
  EXPECT_EQ(printStmts(unswitchLoops({row})), printStmts({row}));
  // a column read (stride n): an unclamped copy would not load vectors either
  CStmt column = clampedCopy(intLit(32), id("n"));
  EXPECT_EQ(printStmts(unswitchLoops({column})), printStmts({column}));
}

TEST(Unswitch, AMaxClampIsTestedAtTheStartOfTheLoop) {
  CExpr clamp = call("risec_max", {intLit(0), literal("l + 32 * j - 2")});
  CStmt loop = countingLoop(namedType("int"), "l", intLit(0), intLit(32), intLit(1),
                            {assign(index(id("out"), id("l")), index(id("xs"), clamp))}, "mapSeq");
  std::string c = printStmts(unswitchLoops({loop}));
  EXPECT_EQ(c.rfind("if (32 * j - 2 >= 0) {\n  // mapSeq\n  for (int l = 0; l < 32; l += 1) {\n"
                    "    out[l] = xs[l + 32 * j - 2];\n",
                    0),
            0u)
      << c;
}

TEST(Unswitch, TheConversionsOfAResolvedTernaryDoNotNest) {
  // VectorTypes::exactly converts both branches of a ternary that mixes a
  // load with a vector built from lanes, and the ternary itself: in each
  // copy one conversion to the value type is left (none around the literal)
  CType v = namedType("risec_f32x4");
  auto convert = [&](CExpr e) { return call("__builtin_convertvector", {e, id("risec_f32x4")}); };
  CExpr load = index(id("x"), id("q")); // stands for the unaligned load
  CExpr lanes =
      compoundLiteral(v, {literal("0.0f"), literal("0.0f"), literal("0.0f"), literal("0.0f")});
  CExpr read = convert(ternary(padGuard(), convert(load), convert(lanes)));
  CStmt loop = countingLoop(namedType("int"), "q", intLit(0), intLit(4), intLit(1),
                            {assign(index(id("acc"), id("q")), read)}, "mapSeq");
  std::string c = printStmts(unswitchLoops({loop}));
  EXPECT_NE(c.find("acc[q] = __builtin_convertvector(x[q], risec_f32x4);"), std::string::npos) << c;
  EXPECT_NE(c.find("acc[q] = (risec_f32x4){0.0f, 0.0f, 0.0f, 0.0f};"), std::string::npos) << c;
}

TEST(Unswitch, ALoopOfOneIterationBecomesItsBodyAfterTheVersioning) {
  // for (int k = 0; k < 1; k += 1) { y[k + 32 * j] = x[k]; }: the index 0,
  // folded in the pre-rendered subscript
  auto once = [&](CExpr subscript) {
    return countingLoop(namedType("int"), "k", intLit(0), intLit(1), intLit(1),
                        {assign(index(id("y"), std::move(subscript)), index(id("x"), id("k")))},
                        "mapSeq");
  };
  EXPECT_EQ(printStmts(inlineSingleIterations({once(literal("k + 32 * j"))})),
            "y[32 * j] = x[0];\n");
  // a size the substitution cannot read (a division) keeps its loop, as does
  // a loop behind a pragma
  std::string kept = printStmts(inlineSingleIterations({once(literal("(k + j) / 4"))}));
  EXPECT_NE(kept.find("for (int k = 0; k < 1; k += 1)"), std::string::npos) << kept;
  std::string pragmaLoop =
      printStmts(inlineSingleIterations({pragma("omp simd"), once(literal("k + 32 * j"))}));
  EXPECT_NE(pragmaLoop.find("for (int k = 0; k < 1; k += 1)"), std::string::npos) << pragmaLoop;
  // the loops a collapse(2) pragma needs stay loops (rewrite fuzz: "expected
  // 2 for loops after '#pragma omp parallel for'")
  CStmt outer = countingLoop(namedType("int"), "i", intLit(0), id("n"), intLit(1),
                             {once(literal("k + 32 * i"))}, "mapPar");
  std::string collapsedNest =
      printStmts(inlineSingleIterations({pragma("omp parallel for collapse(2)"), outer}));
  EXPECT_NE(collapsedNest.find("for (int k = 0; k < 1; k += 1)"), std::string::npos)
      << collapsedNest;
  // a body that declares a variable keeps its scope
  CStmt declaring = countingLoop(namedType("int"), "k", intLit(0), intLit(1), intLit(1),
                                 {declStmt(namedType("float"), "t", index(id("x"), id("k"))),
                                  assign(index(id("y"), id("k")), id("t"))},
                                 "mapSeq");
  EXPECT_EQ(printStmts(inlineSingleIterations({declaring})), "float t = x[0];\ny[0] = t;\n");
  // a body whose declaration another statement of the same list names keeps
  // its scope
  EXPECT_EQ(printStmts(inlineSingleIterations({declaring, assign(id("t"), literal("1.0f"))})),
            "{\n  float t = x[0];\n  y[0] = t;\n}\nt = 1.0f;\n");
  EXPECT_EQ(printStmts(inlineSingleIterations({declStmt(namedType("int"), "t"), declaring})),
            "int t;\n{\n  float t = x[0];\n  y[0] = t;\n}\n");
}
