// Unit tests of the C syntax tree printer (codegen/c).
#include "codegen/c/CPrinter.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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
  CExpr e = binary(COp::Add, binary(COp::Add, id("i"), binary(COp::Mul, id("m"), id("lId"))),
                   binary(COp::Mul, binary(COp::Mul, id("m"), id("s")), id("wgId")));
  EXPECT_EQ(printExpr(e), "i + m * lId + m * s * wgId");
  EXPECT_EQ(printExpr(binary(COp::Mul, binary(COp::Add, id("a"), id("b")), id("c"))),
            "(a + b) * c");
  EXPECT_EQ(printExpr(binary(COp::Sub, id("a"), binary(COp::Sub, id("b"), id("c")))),
            "a - (b - c)");
  EXPECT_EQ(printExpr(binary(COp::Sub, binary(COp::Sub, id("a"), id("b")), id("c"))), "a - b - c");
  EXPECT_EQ(printExpr(binary(COp::Div, id("a"), binary(COp::Mul, id("b"), id("c")))),
            "a / (b * c)");
  EXPECT_EQ(printExpr(binary(COp::Assign, id("a"), binary(COp::Assign, id("b"), id("c")))),
            "a = b = c");
  EXPECT_EQ(printExpr(index(id("M"), binary(COp::Add, id("i"), intLit(1)))), "M[i + 1]");
  EXPECT_EQ(printExpr(unary(COp::Neg, binary(COp::Add, id("a"), id("b")))), "-(a + b)");
  EXPECT_EQ(printExpr(unary(COp::Neg, unary(COp::Neg, id("a")))), "-(-a)");
  EXPECT_EQ(printExpr(unary(COp::Neg, literal("-1"))), "-(-1)");
  EXPECT_EQ(printExpr(binary(COp::Sub, id("a"), literal("-1"))), "a - -1");
  EXPECT_EQ(printExpr(cast(namedType("double"), binary(COp::Add, id("a"), id("b")))),
            "(double)(a + b)");
  EXPECT_EQ(printExpr(ternary(binary(COp::Lt, id("i"), id("n")), index(id("x"), id("i")),
                              literal("0.0f"))),
            "i < n ? x[i] : 0.0f");
  EXPECT_EQ(printExpr(call("fmaxf", {binary(COp::Add, id("a"), id("b")), literal("0.0f")})),
            "fmaxf(a + b, 0.0f)");
  EXPECT_EQ(printExpr(member(index(id("p"), id("i")), "fst")), "p[i].fst");
}

// The operator table (CAst.cpp, opInfo) against C's own: every operator's
// spelling, and parentheses exactly where C's precedence and associativity
// need them.
TEST(CPrinter, OperatorTableSpellsEveryOperator) {
  const std::vector<std::pair<COp, std::string>> prefix = {
      {COp::Neg, "-"},       {COp::Not, "!"},     {COp::BitNot, "~"}, {COp::Deref, "*"},
      {COp::AddressOf, "&"}, {COp::PreInc, "++"}, {COp::PreDec, "--"}};
  for (const auto& [op, text] : prefix) {
    EXPECT_EQ(printExpr(unary(op, id("x"))), text + "x");
    EXPECT_THROW(binary(op, id("a"), id("b")), std::invalid_argument) << text;
  }
  const std::vector<std::pair<COp, std::string>> infix = {
      {COp::Mul, "*"},         {COp::Div, "/"},         {COp::Mod, "%"},
      {COp::Add, "+"},         {COp::Sub, "-"},         {COp::Shl, "<<"},
      {COp::Shr, ">>"},        {COp::Lt, "<"},          {COp::Le, "<="},
      {COp::Gt, ">"},          {COp::Ge, ">="},         {COp::Eq, "=="},
      {COp::Ne, "!="},         {COp::BitAnd, "&"},      {COp::BitXor, "^"},
      {COp::BitOr, "|"},       {COp::And, "&&"},        {COp::Or, "||"},
      {COp::Assign, "="},      {COp::AddAssign, "+="},  {COp::SubAssign, "-="},
      {COp::MulAssign, "*="},  {COp::DivAssign, "/="},  {COp::ModAssign, "%="},
      {COp::ShlAssign, "<<="}, {COp::ShrAssign, ">>="}, {COp::AndAssign, "&="},
      {COp::XorAssign, "^="},  {COp::OrAssign, "|="}};
  EXPECT_EQ(prefix.size() + infix.size(), static_cast<std::size_t>(COp::OrAssign) + 1);
  const std::set<std::string> assignments = {
      "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="};
  for (const auto& [op, text] : infix) {
    EXPECT_EQ(printExpr(binary(op, id("a"), id("b"))), "a " + text + " b");
    EXPECT_THROW(unary(op, id("x")), std::invalid_argument) << text;
    EXPECT_EQ(isAssignment(binary(op, id("a"), id("b"))), assignments.count(text) > 0) << text;
  }
}

TEST(CPrinter, PrecedenceAndAssociativityFromTheOperatorTable) {
  auto bin = [](COp op, CExpr l, CExpr r) { return printExpr(binary(op, l, r)); };
  CExpr a = id("a"), b = id("b"), c = id("c"), d = id("d");
  // left-associative: parentheses on the right only
  EXPECT_EQ(bin(COp::Sub, a, binary(COp::Sub, b, c)), "a - (b - c)");
  EXPECT_EQ(bin(COp::Sub, binary(COp::Sub, a, b), c), "a - b - c");
  EXPECT_EQ(bin(COp::Div, binary(COp::Div, a, b), c), "a / b / c");
  EXPECT_EQ(bin(COp::Mod, a, binary(COp::Mul, b, c)), "a % (b * c)");
  // a tighter operand needs none, a looser one does
  EXPECT_EQ(bin(COp::Add, binary(COp::Mul, a, b), c), "a * b + c");
  EXPECT_EQ(bin(COp::Add, a, binary(COp::Mul, b, c)), "a + b * c");
  EXPECT_EQ(bin(COp::Mul, a, binary(COp::Add, b, c)), "a * (b + c)");
  EXPECT_EQ(bin(COp::Lt, binary(COp::Add, a, b), c), "a + b < c");
  EXPECT_EQ(bin(COp::Eq, binary(COp::Lt, a, b), binary(COp::Ge, c, d)), "a < b == c >= d");
  EXPECT_EQ(bin(COp::Lt, binary(COp::Eq, a, b), c), "(a == b) < c");
  EXPECT_EQ(bin(COp::And, binary(COp::Ne, a, b), binary(COp::Le, c, d)), "a != b && c <= d");
  EXPECT_EQ(bin(COp::And, binary(COp::Or, a, b), c), "(a || b) && c");
  EXPECT_EQ(bin(COp::Or, binary(COp::Or, a, b), c), "a || b || c");
  // assignments are right-associative and bind loosest
  EXPECT_EQ(bin(COp::Assign, a, binary(COp::AddAssign, b, c)), "a = b += c");
  EXPECT_EQ(bin(COp::Add, binary(COp::Assign, a, b), c), "(a = b) + c");
  EXPECT_EQ(bin(COp::MulAssign, a, binary(COp::Add, b, c)), "a *= b + c");
  EXPECT_EQ(bin(COp::Assign, a, ternary(b, c, d)), "a = b ? c : d");
  // prefix operators bind tighter than any infix one
  EXPECT_EQ(bin(COp::Mul, unary(COp::Neg, a), b), "-a * b");
  EXPECT_EQ(printExpr(unary(COp::Not, binary(COp::And, a, b))), "!(a && b)");
  EXPECT_EQ(printExpr(unary(COp::Deref, binary(COp::Add, a, intLit(1)))), "*(a + 1)");
  EXPECT_EQ(printExpr(unary(COp::AddressOf, index(a, b))), "&a[b]");
  EXPECT_EQ(printExpr(unary(COp::Deref, unary(COp::AddressOf, a))), "*&a");
  EXPECT_EQ(printExpr(unary(COp::AddressOf, unary(COp::AddressOf, a))), "&(&a)");
}

TEST(CPrinter, ClarifyingParenthesesAsCompilersAskForThem) {
  EXPECT_EQ(printExpr(binary(COp::Or, id("a"), binary(COp::And, id("b"), id("c")))),
            "a || (b && c)");
  EXPECT_EQ(printExpr(binary(COp::Shl, binary(COp::Add, id("a"), id("b")), intLit(2))),
            "(a + b) << 2");
  EXPECT_EQ(printExpr(binary(COp::Eq, binary(COp::BitAnd, id("x"), id("m")), intLit(0))),
            "(x & m) == 0");
  EXPECT_EQ(printExpr(binary(COp::And, id("a"), binary(COp::And, id("b"), id("c")))),
            "a && (b && c)");
  // an operand that starts with a cast's parenthesis is not yet in parentheses
  CExpr masked = binary(COp::BitAnd, cast(namedType("risec_i32x8"), id("a")), id("m"));
  EXPECT_EQ(printExpr(binary(COp::BitOr, masked, binary(COp::BitAnd, id("b"), id("n")))),
            "((risec_i32x8)a & m) | (b & n)");
}

TEST(CPrinter, Statements) {
  CStmt loop = countingLoop(namedType("int"), "i", intLit(0), id("n"), intLit(1),
                            {assign(index(id("out"), id("i")),
                                    binary(COp::Mul, index(id("x"), id("i")), literal("2.0f")))},
                            "mapSeq");
  EXPECT_EQ(printStmt(loop, 1), "  // mapSeq\n"
                                "  for (int i = 0; i < n; i += 1) {\n"
                                "    out[i] = x[i] * 2.0f;\n"
                                "  }\n");
  CStmt cond = ifStmt(binary(COp::Ne, binary(COp::Mod, id("n"), intLit(32)), intLit(0)),
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
                                 binary(COp::Mul, id("a"), index(id("x"), id("i"))))},
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

// The traversal helpers of CAst.h: children in the documented order, and
// maps that keep a node when nothing in it changes.
TEST(CAstTraverse, ExpressionChildrenInOrder) {
  CExpr e = call("f", {id("a"), binary(COp::Add, id("b"), id("c")), id("d")});
  std::vector<std::string> seen;
  forEachChild(e, [&](const CExpr& c) { seen.push_back(printExpr(c)); });
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b + c", "d"}));
  int asked = 0;
  EXPECT_TRUE(anyChild(e, [&](const CExpr& c) {
    ++asked;
    return c->kind() == ExprNode::Kind::Binary;
  }));
  EXPECT_EQ(asked, 2); // stops at the first that holds
  EXPECT_FALSE(anyChild(id("x"), [](const CExpr&) { return true; }));
}

TEST(CAstTraverse, MapChildrenKeepsUnchangedNodes) {
  CExpr e = binary(COp::Lt, binary(COp::Add, id("i"), id("j")), id("n"));
  auto same = [](const CExpr& c) { return c; };
  EXPECT_EQ(mapChildren(e, same), e); // the same node, not a copy
  auto renameN = [](const CExpr& c) {
    return c->kind() == ExprNode::Kind::Ident && c->text() == "n" ? id("m") : c;
  };
  CExpr renamed = mapChildren(e, renameN);
  EXPECT_NE(renamed, e);
  EXPECT_EQ(printExpr(renamed), "i + j < m");
  EXPECT_EQ(renamed->op(), COp::Lt);                   // the operator is kept
  EXPECT_EQ(renamed->operands()[0], e->operands()[0]); // an unchanged child is shared
  CExpr c = cast(namedType("double"), id("n"));
  EXPECT_EQ(printExpr(mapChildren(c, renameN)), "(double)m"); // the type is kept
}

TEST(CAstTraverse, StatementChildrenInOrder) {
  CStmt loop = countingLoop(namedType("int"), "i", intLit(0), id("n"), intLit(1),
                            {declStmt(namedType("float"), "t"), exprStmt(call("g", {}))}, "mapSeq");
  std::vector<std::string> seen;
  forEachChild(
      loop, [&](const CExpr& e) { seen.push_back("e:" + printExpr(e)); },
      [&](const CStmt& s) { seen.push_back("s:" + printStmt(s, 0)); });
  EXPECT_EQ(seen, (std::vector<std::string>{"s:int i = 0;\n", "e:i < n", "e:i += 1", "s:float t;\n",
                                            "s:g();\n"}));
  seen.clear();
  CStmt branch = ifStmt(id("c"), {breakStmt()}, std::vector<CStmt>{returnStmt()});
  forEachChild(
      branch, [&](const CExpr& e) { seen.push_back("e:" + printExpr(e)); },
      [&](const CStmt& s) { seen.push_back("s:" + printStmt(s, 0)); });
  EXPECT_EQ(seen, (std::vector<std::string>{"e:c", "s:break;\n", "s:return;\n"}));
  // a declaration without initialiser and a bare return have no children
  int children = 0;
  auto count = [&](const auto&) { ++children; };
  forEachChild(declStmt(namedType("int"), "x"), count, count);
  forEachChild(returnStmt(), count, count);
  forEachChild(comment("x"), count, count);
  EXPECT_EQ(children, 0);
  EXPECT_TRUE(anyChildStatement(
      branch, [](const CStmt& s) { return s->kind() == StmtNode::Kind::Return; }));
  EXPECT_FALSE(
      anyChildStatement(loop, [](const CStmt& s) { return s->kind() == StmtNode::Kind::For; }));
}

TEST(CAstTraverse, MapBodiesKeepsUnchangedStatements) {
  CStmt loop = countingLoop(namedType("int"), "i", intLit(0), id("n"), intLit(1),
                            {comment("drop me"), exprStmt(call("g", {}))}, "mapSeq");
  auto same = [](const std::vector<CStmt>& b) { return b; };
  EXPECT_EQ(mapBodies(loop, same), loop);
  auto dropComments = [](const std::vector<CStmt>& b) {
    std::vector<CStmt> out;
    for (const CStmt& s : b)
      if (s->kind() != StmtNode::Kind::Comment)
        out.push_back(s);
    return out;
  };
  CStmt mapped = mapBodies(loop, dropComments);
  EXPECT_NE(mapped, loop);
  EXPECT_EQ(printStmt(mapped, 0), "// mapSeq\nfor (int i = 0; i < n; i += 1) {\n  g();\n}\n");
  EXPECT_EQ(mapped->forInit(), loop->forInit());
  CStmt branch =
      ifStmt(id("c"), {comment("a"), breakStmt()}, std::vector<CStmt>{comment("b"), returnStmt()});
  EXPECT_EQ(printStmt(mapBodies(branch, dropComments), 0),
            "if (c) {\n  break;\n} else {\n  return;\n}\n");
  CStmt noElse = ifStmt(id("c"), {comment("a")});
  EXPECT_EQ(printStmt(mapBodies(noElse, dropComments), 0), "if (c) {\n}\n");
  CStmt decl = declStmt(namedType("int"), "x");
  EXPECT_EQ(mapBodies(decl, dropComments), decl);
}
