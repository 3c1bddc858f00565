// Tests of dead-store elimination on the C syntax tree (codegen/c/DeadStores).
#include "codegen/c/DeadStores.h"
#include "codegen/c/CPrinter.h"

#include <gtest/gtest.h>

using namespace risec::codegen::c;

namespace {

CStmt fill(const std::string& array, CExpr value) {
  return countingLoop(namedType("int"), "i", intLit(0), intLit(4), intLit(1),
                      {assign(index(ident(array), ident("i")), std::move(value))}, "mapSeq");
}

} // namespace

TEST(DeadStores, RemovesAnArrayThatIsWrittenButNeverRead) {
  std::vector<CStmt> body = {declStmt(arrayType(namedType("float"), 4), "tmp"),
                             fill("tmp", index(ident("x"), ident("i"))),
                             fill("output", literal("1.0f"))};
  EXPECT_EQ(printStmts(eliminateDeadStores(body)), "// mapSeq\n"
                                                   "for (int i = 0; i < 4; i += 1) {\n"
                                                   "  output[i] = 1.0f;\n"
                                                   "}\n");
}

TEST(DeadStores, KeepsWhatIsReadAndFollowsChains) {
  // b is read only to compute a, which is never read: both go.
  std::vector<CStmt> body = {declStmt(arrayType(namedType("float"), 4), "a"),
                             declStmt(arrayType(namedType("float"), 4), "b"),
                             declStmt(arrayType(namedType("float"), 4), "c"),
                             fill("b", literal("2.0f")),
                             fill("a", index(ident("b"), ident("i"))),
                             fill("c", literal("3.0f")),
                             fill("output", index(ident("c"), ident("i")))};
  std::string out = printStmts(eliminateDeadStores(body));
  EXPECT_EQ(out.find("a["), std::string::npos) << out;
  EXPECT_EQ(out.find("b["), std::string::npos) << out;
  EXPECT_NE(out.find("float c[4];"), std::string::npos) << out;
  EXPECT_NE(out.find("output[i] = c[i];"), std::string::npos) << out;
}

TEST(DeadStores, IndicesOfAStoreAreReads) {
  std::vector<CStmt> body = {declStmt(namedType("int"), "k", literal("2")),
                             assign(index(ident("output"), ident("k")), literal("1.0f"))};
  EXPECT_EQ(printStmts(eliminateDeadStores(body)), "int k = 2;\noutput[k] = 1.0f;\n");
}

TEST(DeadStores, CompoundAssignmentsReadTheirTarget) {
  std::vector<CStmt> body = {declStmt(namedType("float"), "acc", literal("0.0f")),
                             exprStmt(binary(COp::AddAssign, ident("acc"), literal("1.0f"))),
                             assign(index(ident("output"), intLit(0)), ident("acc"))};
  EXPECT_EQ(eliminateDeadStores(body).size(), 3u);
}

TEST(DeadStores, NeverTouchesPointers) {
  std::vector<CStmt> body = {
      declStmt(pointerType(namedType("float")), "tmp", call("malloc", {intLit(16)})),
      fill("tmp", literal("0.0f")), exprStmt(call("free", {ident("tmp")}))};
  EXPECT_EQ(eliminateDeadStores(body).size(), 3u);
}

TEST(DeadStores, VectorStoresWriteTheirArray) {
  // `*(risec_f32x4u*)&tmp[k] = v;` (codegen/c/EmitVectors.h) writes tmp: the
  // store goes with tmp when tmp is never read; its index is a read.
  auto store = [](const std::string& array, CExpr value) {
    return assign(unary(COp::Deref, cast(pointerType(namedType("risec_f32x4u")),
                                         unary(COp::AddressOf, index(ident(array), ident("k"))))),
                  std::move(value));
  };
  std::vector<CStmt> body = {declStmt(namedType("int"), "k", literal("0")),
                             declStmt(arrayType(namedType("float"), 8), "tmp"),
                             store("tmp", ident("v")), store("output", ident("v"))};
  EXPECT_EQ(printStmts(eliminateDeadStores(body)), "int k = 0;\n*(risec_f32x4u*)&output[k] = v;\n");
}

TEST(DeadStores, RemovesAnUnreadScalarWithAPureInitialiser) {
  // A stored scalar whose only reader was dropped by a view: its initialiser
  // only reads, so the declaration goes; one with a call stays.
  std::vector<CStmt> body = {
      declStmt(namedType("float"), "tmp",
               binary(COp::Add, index(ident("x"), intLit(1)),
                      ternary(binary(COp::Le, intLit(2), ident("j")), index(ident("x"), intLit(0)),
                              literal("0.0f")))),
      declStmt(namedType("float"), "r", call("next", {})),
      assign(index(ident("output"), intLit(0)), literal("1.0f"))};
  std::string out = printStmts(eliminateDeadStores(body));
  EXPECT_EQ(out.find("tmp"), std::string::npos) << out;
  EXPECT_NE(out.find("float r = next();"), std::string::npos) << out;
}

TEST(DeadStores, MathFunctionsAndHelpersArePure) {
  // fuzz finding R12: `float tmp_2 = fabsf(...)`, never read, was kept (and
  // Clang's -Wunused-variable rejected the C); a foreign call still stays
  std::vector<CStmt> body = {
      declStmt(namedType("float"), "a", call("fabsf", {index(ident("x"), intLit(0))})),
      declStmt(namedType("int"), "b", call("risec_min", {intLit(3), ident("n")})),
      declStmt(namedType("float"), "c", call("user_fn", {index(ident("x"), intLit(1))})),
      assign(index(ident("output"), intLit(0)), literal("1.0f"))};
  std::string out = printStmts(eliminateDeadStores(body));
  EXPECT_EQ(out.find("fabsf"), std::string::npos) << out;
  EXPECT_EQ(out.find("risec_min"), std::string::npos) << out;
  EXPECT_NE(out.find("float c = user_fn(x[1]);"), std::string::npos) << out;
}

TEST(DeadStores, RemovesTemporariesDeclaredBeforeTheBody) {
  // The prologue declares the stack temporaries (stage 7); the statements
  // (stage 9) only use them. An unread one is reported for its declaration
  // to be dropped; a read one is kept and not reported.
  std::vector<CStmt> body = {fill("tmp_fst", index(ident("x"), ident("i"))),
                             fill("tmp_snd", index(ident("x"), ident("i"))),
                             fill("output", index(ident("tmp_fst"), ident("i")))};
  std::set<std::string> removed;
  std::vector<CStmt> live = eliminateDeadStores(body, {"tmp_fst", "tmp_snd"}, &removed);
  EXPECT_EQ(removed, std::set<std::string>{"tmp_snd"});
  EXPECT_EQ(printStmts(live).find("tmp_snd"), std::string::npos) << printStmts(live);
  EXPECT_EQ(live.size(), 2u);
}
