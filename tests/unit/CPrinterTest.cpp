// Unit tests of the C syntax tree printer (codegen/c).
#include "codegen/c/CPrinter.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace risec::codegen::c;

namespace {
CExpr id(const char* n) {
  return ident(n);
}
} // namespace

TEST(CPrinter, Declarators) {
  CType f = namedType("float");
  EXPECT_EQ(printDeclarator(f, "x"), "float x");
  EXPECT_EQ(printDeclarator(pointerType(namedType("float", true), true), "M"),
            "const float* restrict M");
  EXPECT_EQ(printDeclarator(pointerType(f, true), "output"), "float* restrict output");
  EXPECT_EQ(printDeclarator(arrayType(arrayType(f, 8), 4), "tile"), "float tile[4][8]");
  EXPECT_EQ(printDeclarator(pointerType(namedType("float", true), true, false, "global"), "x"),
            "global const float* restrict x");
  EXPECT_EQ(printType(constOf(pointerType(f))), "const float*");
}

TEST(CPrinter, PrecedenceNeedsNoRedundantParentheses) {
  // i + m*lId + m*s*wgId, as the paper's Listing 11 writes it.
  CExpr e = binary("+", binary("+", id("i"), binary("*", id("m"), id("lId"))),
                   binary("*", binary("*", id("m"), id("s")), id("wgId")));
  EXPECT_EQ(printExpr(e), "i + m * lId + m * s * wgId");
  EXPECT_EQ(printExpr(binary("*", binary("+", id("a"), id("b")), id("c"))), "(a + b) * c");
  EXPECT_EQ(printExpr(binary("-", id("a"), binary("-", id("b"), id("c")))), "a - (b - c)");
  EXPECT_EQ(printExpr(binary("-", binary("-", id("a"), id("b")), id("c"))), "a - b - c");
  EXPECT_EQ(printExpr(binary("/", id("a"), binary("*", id("b"), id("c")))), "a / (b * c)");
  EXPECT_EQ(printExpr(binary("=", id("a"), binary("=", id("b"), id("c")))), "a = b = c");
  EXPECT_EQ(printExpr(index(id("M"), binary("+", id("i"), intLit(1)))), "M[i + 1]");
  EXPECT_EQ(printExpr(unary("-", binary("+", id("a"), id("b")))), "-(a + b)");
  EXPECT_EQ(printExpr(unary("-", unary("-", id("a")))), "-(-a)");
  EXPECT_EQ(printExpr(unary("-", literal("-1"))), "-(-1)");
  EXPECT_EQ(printExpr(binary("-", id("a"), literal("-1"))), "a - -1");
  EXPECT_EQ(printExpr(cast(namedType("double"), binary("+", id("a"), id("b")))), "(double)(a + b)");
  EXPECT_EQ(
      printExpr(ternary(binary("<", id("i"), id("n")), index(id("x"), id("i")), literal("0.0f"))),
      "i < n ? x[i] : 0.0f");
  EXPECT_EQ(printExpr(call("fmaxf", {binary("+", id("a"), id("b")), literal("0.0f")})),
            "fmaxf(a + b, 0.0f)");
  EXPECT_EQ(printExpr(member(index(id("p"), id("i")), "fst")), "p[i].fst");
}

TEST(CPrinter, ClarifyingParenthesesAsCompilersAskForThem) {
  EXPECT_EQ(printExpr(binary("||", id("a"), binary("&&", id("b"), id("c")))), "a || (b && c)");
  EXPECT_EQ(printExpr(binary("<<", binary("+", id("a"), id("b")), intLit(2))), "(a + b) << 2");
  EXPECT_EQ(printExpr(binary("==", binary("&", id("x"), id("m")), intLit(0))), "(x & m) == 0");
  EXPECT_EQ(printExpr(binary("&&", id("a"), binary("&&", id("b"), id("c")))), "a && (b && c)");
}

TEST(CPrinter, Statements) {
  CStmt loop = countingLoop(
      namedType("int"), "i", intLit(0), id("n"), intLit(1),
      {assign(index(id("out"), id("i")), binary("*", index(id("x"), id("i")), literal("2.0f")))},
      "mapSeq");
  EXPECT_EQ(printStmt(loop, 1), "  // mapSeq\n"
                                "  for (int i = 0; i < n; i += 1) {\n"
                                "    out[i] = x[i] * 2.0f;\n"
                                "  }\n");
  CStmt cond = ifStmt(binary("!=", binary("%", id("n"), intLit(32)), intLit(0)),
                      {returnStmt(intLit(1))}, std::vector<CStmt>{comment("never")});
  EXPECT_EQ(printStmt(cond), "if (n % 32 != 0) {\n  return 1;\n} else {\n  // never\n}\n");
  EXPECT_EQ(printStmt(declStmt(arrayType(namedType("float"), 16), "tmp")), "float tmp[16];\n");
  EXPECT_EQ(printStmt(block({breakStmt()}, "scope")), "// scope\n{\n  break;\n}\n");
  EXPECT_EQ(printStmt(pragma("omp parallel for"), 3), "#pragma omp parallel for\n");
}

namespace {

Function scale() {
  Function f;
  f.docComment = "Scales a vector.\n\nReturns 0.";
  f.returnType = namedType("int");
  f.name = "scal";
  f.params = {{pointerType(namedType("float"), true), "output"},
              {namedType("int"), "n"},
              {namedType("float"), "a"},
              {pointerType(namedType("float", true), true), "x"}};
  f.body = {countingLoop(namedType("int"), "i", intLit(0), id("n"), intLit(1),
                         {assign(index(id("output"), id("i")),
                                 binary("*", id("a"), index(id("x"), id("i"))))},
                         "mapSeq"),
            returnStmt(intLit(0))};
  return f;
}

} // namespace

TEST(CPrinter, Functions) {
  EXPECT_EQ(printFunction(scale()),
            "/*\n * Scales a vector.\n *\n * Returns 0.\n */\n"
            "int scal(float* restrict output, int n, float a, const float* restrict x) {\n"
            "  // mapSeq\n"
            "  for (int i = 0; i < n; i += 1) {\n"
            "    output[i] = a * x[i];\n"
            "  }\n"
            "  return 0;\n"
            "}\n");
  Function proto = scale();
  proto.declarationOnly = true;
  proto.docComment.clear();
  EXPECT_EQ(printFunction(proto),
            "int scal(float* restrict output, int n, float a, const float* restrict x);\n");
}

TEST(CPrinter, PrintedUnitCompilesWarningFree) {
  TranslationUnit u;
  u.comment("generated by a test").include("<stdint.h>").blank();
  u.add(StructDef{"pair_f32_i32", {{namedType("float"), "fst"}, {namedType("int32_t"), "snd"}}});
  u.blank().add(scale());
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("risec-cprinter-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "unit.c") << printUnit(u);
  std::string cmd = "cc -std=c11 -Wall -Wextra -Werror -pedantic -c -o " +
                    (dir / "unit.o").string() + " " + (dir / "unit.c").string();
  EXPECT_EQ(std::system(cmd.c_str()), 0) << printUnit(u);
  fs::remove_all(dir);
}

TEST(CAstQueries, IdentifiersUsedIncludeSizesInsideLiterals) {
  std::vector<CStmt> body = {
      declStmt(namedType("float"), "acc", literal("0.0f")),
      countingLoop(namedType("int"), "i", intLit(0), literal("n / s"), intLit(1),
                   {assign(index(ident("out"), ident("i")), call("sqrtf", {ident("x")}))})};
  std::set<std::string> used = identifiersUsed(body);
  EXPECT_EQ(used, (std::set<std::string>{"i", "n", "out", "s", "x"}));
}
