// Tests of the RISE lexer and parser: every syntax form of the v1 grammar
// (docs/language.md), source locations, types, primitive signatures and
// syntax errors.
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <functional>

using namespace risec;
using namespace risec::rise;

namespace {

std::shared_ptr<const SourceFile> src(const std::string& text) {
  return makeSourceFile("t.rise", text);
}
Expr expr(const std::string& text) {
  return parseExpr(src(text));
}
Program program(const std::string& text) {
  return parseProgram(src(text));
}
Type type(const std::string& text, bool free = false) {
  return parseType(src(text), free);
}

/// An s-expression view of the AST: `(f a)` for App, `#add` for Primitive,
/// `(fun x:T body)`, `(depFun n:Nat body)`, `(f @T)` for DepApp.
std::string dump(const Expr& e) {
  switch (e->kind()) {
  case ExprKind::Var:
    return e->name();
  case ExprKind::Primitive:
    return "#" + std::string(primName(e->prim()));
  case ExprKind::Literal:
    return literalText(e->value());
  case ExprKind::App:
    return "(" + dump(e->fn()) + " " + dump(e->arg()) + ")";
  case ExprKind::DepApp:
    return "(" + dump(e->fn()) + " @" + typeArgToString(e->typeArg()) + ")";
  case ExprKind::Lambda:
    return "(fun " + e->name() + (e->paramType() ? ":" + typeToString(e->paramType()) : "") + " " +
           dump(e->body()) + ")";
  case ExprKind::DepLambda:
    return "(depFun " + e->binder().name() + ":" + std::string(kindName(e->binder().kind)) + " " +
           dump(e->body()) + ")";
  case ExprKind::Foreign:
    return "foreign:" + e->foreign()->name;
  }
  return "?";
}

std::string shape(const std::string& text) {
  return dump(expr(text));
}

std::string at(const SourceLocation& loc) {
  return std::to_string(loc.line) + ":" + std::to_string(loc.column);
}

/// Runs `f`, which must throw a CompileError, and returns it.
CompileError errorFrom(const std::function<void()>& f) {
  try {
    f();
  } catch (const CompileError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a CompileError";
  return CompileError("none", {}, "none");
}

CompileError exprError(const std::string& text) {
  return errorFrom([&] { expr(text); });
}
CompileError programError(const std::string& text) {
  return errorFrom([&] { program(text); });
}

const char* kMatrixVector = R"(// matrix-vector multiplication (RISE & Shine, Listing 1)
def mv = depFun((n: Nat, m: Nat) =>
  fun(M: n.m.f32 => fun(x: m.f32 =>
    M |> map(fun(row =>
      zip(row)(x) |> map(fun(ax => fst(ax) * snd(ax))) |> reduce(add)(0.0f))))))
)";

} // namespace

// ---- literals ---------------------------------------------------------------

TEST(Lexer, IntegerLiteralsAndSuffixes) {
  EXPECT_EQ(expr("42")->value(), ScalarValue::makeInt(ScalarKind::I32, 42));
  EXPECT_EQ(expr("42i8")->value(), ScalarValue::makeInt(ScalarKind::I8, 42));
  EXPECT_EQ(expr("42i16")->value(), ScalarValue::makeInt(ScalarKind::I16, 42));
  EXPECT_EQ(expr("42i32")->value(), ScalarValue::makeInt(ScalarKind::I32, 42));
  EXPECT_EQ(expr("42i64")->value(), ScalarValue::makeInt(ScalarKind::I64, 42));
  EXPECT_EQ(expr("42u8")->value(), ScalarValue::makeUInt(ScalarKind::U8, 42));
  EXPECT_EQ(expr("42u16")->value(), ScalarValue::makeUInt(ScalarKind::U16, 42));
  EXPECT_EQ(expr("42u32")->value(), ScalarValue::makeUInt(ScalarKind::U32, 42));
  EXPECT_EQ(expr("18446744073709551615u64")->value(),
            ScalarValue::makeUInt(ScalarKind::U64, 18446744073709551615ull));
  EXPECT_EQ(expr("7n")->value(), ScalarValue::makeInt(ScalarKind::NatType, 7));
  EXPECT_EQ(expr("255u8")->value(), ScalarValue::makeUInt(ScalarKind::U8, 255));
  EXPECT_EQ(expr("true")->value(), ScalarValue::makeBool(true));
  EXPECT_EQ(expr("false")->value(), ScalarValue::makeBool(false));
}

TEST(Lexer, FloatLiterals) {
  EXPECT_EQ(expr("1.5f")->value(), ScalarValue::makeFloat(ScalarKind::F32, 1.5));
  EXPECT_EQ(expr("1.5")->value(), ScalarValue::makeFloat(ScalarKind::F64, 1.5));
  EXPECT_EQ(expr("1.0e-3f")->value(), ScalarValue::makeFloat(ScalarKind::F32, 1.0e-3));
  EXPECT_EQ(expr("2e3")->value(), ScalarValue::makeFloat(ScalarKind::F64, 2000.0));
  EXPECT_EQ(expr("2E+3f")->value(), ScalarValue::makeFloat(ScalarKind::F32, 2000.0));
  EXPECT_EQ(expr("0.1f")->value().f, static_cast<double>(0.1f));
}

TEST(Lexer, NegativeLiteralsAreNegApplications) {
  EXPECT_EQ(shape("-1.0f"), "(#neg 1.0f)");
  EXPECT_EQ(shape("-2147483648"), "(#neg -2147483648)");
  EXPECT_EQ(shape("-128i8"), "(#neg -128i8)");
  EXPECT_EQ(shape("-9223372036854775808i64"), "(#neg -9223372036854775808i64)");
}

TEST(Lexer, CommentsAndWhitespace) {
  EXPECT_EQ(shape("// line\n a /* block\n comment */ + /**/ b // end"), "((#add a) b)");
  EXPECT_EQ(shape("_a1 + a_b"), "((#add _a1) a_b)");
}

TEST(Lexer, ByteOrderMarkIsSkipped) {
  Expr e = expr("\xEF\xBB\xBFx");
  EXPECT_EQ(e->name(), "x");
  EXPECT_EQ(at(e->loc()), "1:1");
}

TEST(Lexer, ArraySizeBeforeDotIsNotAFloat) {
  // `1024.f32` is the size 1024, a dot and f32.
  EXPECT_EQ(typeToString(type("1024.f32")), "1024.f32");
  // `4.4.f32` lexes as the float 4.4 and `.f32`; in a type it is two sizes.
  EXPECT_EQ(typeToString(type("4.4.f32")), "4.4.f32");
  EXPECT_EQ(typeToString(type("2.3.4.f32")), "2.3.4.f32");
}

// ---- operators --------------------------------------------------------------

TEST(Parser, BinaryOperatorPrecedence) {
  EXPECT_EQ(shape("a + b * c"), "((#add a) ((#mul b) c))");
  EXPECT_EQ(shape("a * b + c"), "((#add ((#mul a) b)) c)");
  EXPECT_EQ(shape("a - b - c"), "((#sub ((#sub a) b)) c)");
  EXPECT_EQ(shape("a / b % c"), "((#mod ((#div a) b)) c)");
  EXPECT_EQ(shape("a < b == c >= d"), "((#equal ((#lt a) b)) ((#ge c) d))");
  EXPECT_EQ(shape("a || b && c != d"), "((#or a) ((#and b) ((#notEqual c) d)))");
  EXPECT_EQ(shape("a <= b || c > d"), "((#or ((#le a) b)) ((#gt c) d))");
  EXPECT_EQ(shape("(a + b) * c"), "((#mul ((#add a) b)) c)");
}

TEST(Parser, UnaryOperators) {
  EXPECT_EQ(shape("-a * b"), "((#mul (#neg a)) b)");
  EXPECT_EQ(shape("!a && b"), "((#and (#not a)) b)");
  EXPECT_EQ(shape("-f(x)"), "(#neg (f x))");
  EXPECT_EQ(shape("- -a"), "(#neg (#neg a))");
  EXPECT_EQ(shape("a - -1"), "((#sub a) (#neg 1))");
}

TEST(Parser, EveryOperatorOfThePrimitiveTableParses) {
  // the parser's operators are the table's: each infix spelling is its
  // primitive, at its precedence, and each scalar operator without one whose
  // C operator is a token (`-`, `!`) is a prefix operator
  int binary = 0, prefix = 0;
  for (Prim p : allPrims()) {
    const PrimTraits& t = primInfo(p).traits;
    std::string name(primName(p));
    if (!t.infix.empty()) {
      ++binary;
      std::string op(t.infix);
      EXPECT_EQ(shape("a " + op + " b"), "((#" + name + " a) b)") << op;
      // binds tighter than `||` (1) and no tighter than `*` (6)
      if (t.infixPrecedence > 1) {
        EXPECT_EQ(shape("a || b " + op + " c"), "((#or a) ((#" + name + " b) c))") << op;
      }
      if (t.infixPrecedence < 6) {
        EXPECT_EQ(shape("a * b " + op + " c"), "((#" + name + " ((#mul a) b)) c)") << op;
      }
    } else if (primFamily(p) == PrimFamily::ScalarOperator) {
      ++prefix;
      ASSERT_FALSE(t.cOperator.empty()) << name;
      EXPECT_EQ(shape(std::string(t.cOperator) + "a"), "(#" + name + " a)") << name;
    }
  }
  EXPECT_EQ(binary, 13);
  EXPECT_EQ(prefix, 2);
  // punctuation that spells no operator ends the expression
  EXPECT_THROW(expr("a ^ b"), CompileError);
}

TEST(Parser, OperatorsArePrimitivesNotVars) {
  // A binder named `add` cannot capture `+`.
  Expr e = expr("fun(add => add + 1)");
  const Expr& plus = e->body()->fn()->fn();
  EXPECT_EQ(plus->kind(), ExprKind::Primitive);
  EXPECT_EQ(plus->prim(), Prim::Add);
  EXPECT_EQ(e->body()->fn()->arg()->kind(), ExprKind::Var);
  // Primitive names used as values stay Vars (resolved by inference).
  EXPECT_EQ(expr("add")->kind(), ExprKind::Var);
  EXPECT_EQ(expr("map")->kind(), ExprKind::Var);
}

TEST(Parser, PipelineIsReversedApplication) {
  EXPECT_EQ(shape("x |> f"), "(f x)");
  EXPECT_EQ(shape("x |> f |> g"), "(g (f x))");
  EXPECT_EQ(shape("x |> map(f) |> reduce(add)(0.0f)"), "(((reduce add) 0.0f) ((map f) x))");
  EXPECT_EQ(shape("a + b |> f"), "(f ((#add a) b))");
}

TEST(Parser, CompositionIntroducesFreshBinders) {
  EXPECT_EQ(shape("f >> g"), "(fun _x1 (g (f _x1)))");
  EXPECT_EQ(shape("f >> g >> h"), "(fun _x2 (h ((fun _x1 (g (f _x1))) _x2)))");
  EXPECT_EQ(shape("x |> f >> g"), "((fun _x1 (g (f _x1))) x)");
  // A name the user wrote is never reused.
  EXPECT_EQ(shape("fun(_x1 => _x1 |> f >> g)"), "(fun _x1 ((fun _x2 (g (f _x2))) _x1))");
}

// ---- calls, type arguments, pairs ------------------------------------------

TEST(Parser, CallsAreCurried) {
  EXPECT_EQ(shape("f(a, b)"), "((f a) b)");
  EXPECT_EQ(shape("f(a)(b)"), "((f a) b)");
  EXPECT_EQ(shape("f(a, b)(c)"), "(((f a) b) c)");
  EXPECT_EQ(shape("f(x |> g, a + b)"), "((f (g x)) ((#add a) b))");
}

TEST(Parser, SizeAndAddressArgumentsStayExpressions) {
  EXPECT_EQ(shape("split(32)"), "(split 32)");
  EXPECT_EQ(shape("slide(3, 1)"), "((slide 3) 1)");
  EXPECT_EQ(shape("padCst(1, 1, 0.0f)"), "(((padCst 1) 1) 0.0f)");
  EXPECT_EQ(shape("oclToMem(Local)"), "(oclToMem Local)");
  EXPECT_EQ(shape("mapGlobal(0)"), "(mapGlobal 0)");
}

TEST(Parser, TypeArgumentsBecomeDepApps) {
  EXPECT_EQ(shape("cast(f64)"), "(cast @f64)");
  EXPECT_EQ(shape("cast(natType)(x)"), "((cast @natType) x)");
  EXPECT_EQ(shape("f(Array[4, f32])"), "(f @4.f32)");
  EXPECT_EQ(shape("f(vec[f32, 4])"), "(f @vec[f32, 4])");
  EXPECT_EQ(shape("f(idx[8])"), "(f @idx[8])");
  EXPECT_EQ(shape("f(8.f32, x)"), "((f @8.f32) x)");
  EXPECT_EQ(shape("f(4.4.f32)"), "(f @4.4.f32)");
  EXPECT_EQ(shape("f((f32, i32))"), "(f @(f32, i32))");
  EXPECT_EQ(shape("f(f32 -> bool)"), "(f @f32 -> bool)");
  EXPECT_EQ(shape("depFun(n: Nat => f(n.f32))"), "(depFun n:Nat (f @n.f32))");
  EXPECT_EQ(shape("depFun(n: Nat => f((n + 1).f32))"), "(depFun n:Nat (f @(n + 1).f32))");
  // A Data parameter in argument position is a type, unless a fun binder shadows it.
  EXPECT_EQ(shape("depFun(t: Data => f(t))"), "(depFun t:Data (f @t))");
  EXPECT_EQ(shape("depFun(t: Data => fun(t => f(t)))"), "(depFun t:Data (fun t (f t)))");
  // A size parameter is an expression argument, like a literal size.
  EXPECT_EQ(shape("depFun(n: Nat => split(n))"), "(depFun n:Nat (split n))");
}

TEST(Parser, PairsAndParentheses) {
  EXPECT_EQ(shape("(a, b)"), "((#makePair a) b)");
  EXPECT_EQ(shape("((a))"), "a");
  EXPECT_EQ(shape("fst((a, (b, c)))"), "(fst ((#makePair a) ((#makePair b) c)))");
  EXPECT_EQ(shape("(x |> f, 1)"), "((#makePair (f x)) 1)");
}

// ---- binders ----------------------------------------------------------------

TEST(Parser, LambdaForms) {
  EXPECT_EQ(shape("fun(x => x)"), "(fun x x)");
  EXPECT_EQ(shape("fun(x: f32 => x)"), "(fun x:f32 x)");
  EXPECT_EQ(shape("fun(x, y => x + y)"), "(fun x (fun y ((#add x) y)))");
  EXPECT_EQ(shape("fun((x: f32, y: i32) => x)"), "(fun x:f32 (fun y:i32 x))");
  EXPECT_EQ(shape("fun(x: f32, y: (f32, i32) => y)"), "(fun x:f32 (fun y:(f32, i32) y))");
  EXPECT_EQ(shape("fun(f: f32 -> f32 => f)"), "(fun f:f32 -> f32 f)");
  EXPECT_EQ(shape("fun((x, y) => x)"), "(fun x (fun y x))");
}

TEST(Parser, DepLambdaForms) {
  EXPECT_EQ(shape("depFun(n: Nat => n)"), "(depFun n:Nat n)");
  EXPECT_EQ(shape("depFun((n: Nat, d: Data, a: AddrSpace) => x)"),
            "(depFun n:Nat (depFun d:Data (depFun a:AddrSpace x)))");
  EXPECT_EQ(shape("depFun(n: Nat, m: Nat => x)"), "(depFun n:Nat (depFun m:Nat x))");
}

TEST(Parser, DepBindersResolveInTypes) {
  Expr e = expr("depFun((n: Nat, d: Data) => fun(x: n.d => fun(y: Array[n * 2, f32] => x)))");
  const DepBinder& n = e->binder();
  const DepBinder& d = e->body()->binder();
  const Type& xt = e->body()->body()->paramType();
  ASSERT_EQ(xt->kind(), TypeKind::Array);
  ASSERT_EQ(xt->size()->kind(), NatKind::Var);
  EXPECT_EQ(xt->size()->var().id, n.id());
  ASSERT_EQ(xt->elem()->kind(), TypeKind::Var);
  EXPECT_EQ(xt->elem()->var().id, d.id());
  EXPECT_EQ(d.data->sort, TypeSort::Data);
  const Type& yt = e->body()->body()->body()->paramType();
  EXPECT_TRUE(natEqual(yt->size(), natMul(natVarRef(n.nat), natConst(2))));
}

TEST(Parser, RefinedKindsInDepFun) {
  Expr e = expr("depFun((a: Scalar, b: Numeric, c: Float) => x)");
  EXPECT_EQ(e->binder().data->sort, TypeSort::Scalar);
  EXPECT_EQ(e->body()->binder().data->sort, TypeSort::Numeric);
  EXPECT_EQ(e->body()->body()->binder().data->sort, TypeSort::Float);
}

TEST(Parser, EachDepFunCreatesFreshVariables) {
  Expr e = expr("(depFun(n: Nat => fun(x: n.f32 => x)), depFun(n: Nat => fun(x: n.f32 => x)))");
  EXPECT_NE(e->fn()->arg()->binder().id(), e->arg()->binder().id());
  EXPECT_TRUE(alphaEquivalent(e->fn()->arg(), e->arg()));
}

// ---- locations --------------------------------------------------------------

TEST(Parser, Locations) {
  Expr e = expr("split(30)\n  |> map(fun(x =>\n    x + -1))");
  EXPECT_EQ(at(e->loc()), "2:6"); // App from `|>`: the start of `map(...)`
  const Expr& split = e->arg();
  EXPECT_EQ(at(split->loc()), "1:1"); // App from a call: the start of the callee
  EXPECT_EQ(at(split->arg()->loc()), "1:7");
  const Expr& lambda = e->fn()->arg();
  EXPECT_EQ(at(lambda->loc()), "2:10"); // the `fun` keyword
  const Expr& plus = lambda->body();
  EXPECT_EQ(at(plus->loc()), "3:7"); // the operator
  EXPECT_EQ(at(plus->fn()->fn()->loc()), "3:7");
  EXPECT_EQ(at(plus->fn()->arg()->loc()), "3:5"); // Var x
  EXPECT_EQ(at(plus->arg()->loc()), "3:9");       // `-`
  EXPECT_EQ(at(plus->arg()->arg()->loc()), "3:10");
  EXPECT_EQ(e->loc().file->name, "t.rise");
}

TEST(Parser, MoreLocations) {
  Expr pair = expr("  (a, b)");
  EXPECT_EQ(at(pair->loc()), "1:3");
  EXPECT_EQ(at(pair->fn()->fn()->loc()), "1:3");
  Expr comp = expr("f >> g");
  EXPECT_EQ(at(comp->loc()), "1:3");
  Expr dep = expr("x\n|> depFun(n: Nat => f)(cast(f64))");
  EXPECT_EQ(at(dep->loc()), "2:4");
  EXPECT_EQ(at(dep->fn()->loc()), "2:4");
  EXPECT_EQ(at(dep->fn()->arg()->loc()), "2:24"); // the start of `cast`
  Expr tabbed = expr("\t\tx");
  EXPECT_EQ(at(tabbed->loc()), "1:3"); // columns count bytes
}

// ---- programs ---------------------------------------------------------------

TEST(Parser, MatrixVectorProgram) {
  Program p = program(kMatrixVector);
  ASSERT_EQ(p.defs.size(), 1u);
  EXPECT_EQ(p.defs[0].name, "mv");
  EXPECT_EQ(at(p.defs[0].loc), "2:5");
  EXPECT_EQ(dump(p.defs[0].body),
            "(depFun n:Nat (depFun m:Nat (fun M:n.m.f32 (fun x:m.f32 ((map (fun row "
            "(((reduce add) 0.0f) ((map (fun ax ((#mul (fst ax)) (snd ax)))) ((zip row) x))))) "
            "M)))))");
}

TEST(Parser, DefsAndForeigns) {
  Program p = program(R"(
foreign clampf(x: f32, lo: f32, hi: f32): f32 = "return x < lo ? lo :\n  (x > hi ? hi : x);"
def inc: f32 -> f32 = fun(x => x + 1.0f)
foreign id2(p: (f32, i32)): (f32, i32) = "return p;"
def twice = fun(x => x |> inc |> inc)
)");
  ASSERT_EQ(p.defs.size(), 2u);
  ASSERT_EQ(p.foreigns.size(), 2u);
  EXPECT_EQ(p.order, (std::vector<int>{~0, 0, ~1, 1}));
  EXPECT_EQ(typeToString(p.defs[0].annotation), "f32 -> f32");
  EXPECT_EQ(p.defs[1].annotation, nullptr);
  const ForeignDecl& f = *p.foreigns[0];
  EXPECT_EQ(f.name, "clampf");
  ASSERT_EQ(f.params.size(), 3u);
  EXPECT_EQ(f.params[1].first, "lo");
  EXPECT_EQ(typeToString(f.result), "f32");
  EXPECT_EQ(f.body, "return x < lo ? lo :\n  (x > hi ? hi : x);");
  EXPECT_EQ(at(f.loc), "2:9");
  EXPECT_EQ(typeToString(p.foreigns[1]->params[0].second), "(f32, i32)");
  EXPECT_EQ(p.findDef("twice"), &p.defs[1]);
}

TEST(Parser, StringEscapesAndMultiLineStrings) {
  Program p = program("foreign f(x: f32): f32 = \"a\\tb\\\\c\\\"d\\x41\n  return x;\"");
  EXPECT_EQ(p.foreigns[0]->body, "a\tb\\c\"dA\n  return x;");
  Program empty = program("foreign g(): i32 = \"return 1;\"");
  EXPECT_TRUE(empty.foreigns[0]->params.empty());
}

TEST(Parser, EmptyProgram) {
  EXPECT_TRUE(program("").defs.empty());
  EXPECT_TRUE(program("// only a comment\n/* and another */").order.empty());
}

// ---- types ------------------------------------------------------------------

TEST(Types, ArraysAndSizes) {
  EXPECT_EQ(typeToString(type("(n/32).32.f32", true)), "(n/32).32.f32");
  EXPECT_TRUE(typeEqual(type("(n: Nat) -> (m: Nat) -> Array[n, Array[m, f32]]"),
                        type("(n: Nat) -> (m: Nat) -> n.m.f32")));
  EXPECT_EQ(typeToString(type("(n+1).f32", true)), "(n + 1).f32");
  EXPECT_EQ(typeToString(type("n*m.f32", true)), "(m*n).f32");
  EXPECT_EQ(typeToString(type("(2^k).f32", true)), "(2^k).f32");
  Type t = type("(n: Nat) -> (m: Nat) -> (n * (m + 1) - n).i32");
  EXPECT_TRUE(typeEqual(t, type("(a: Nat) -> (b: Nat) -> (a*b).i32")));
}

TEST(Types, NatPrecedence) {
  Type t = type("(n: Nat) -> (1 + 2 * 3 ^ 2 ^ 1 - 4 / 2 % 3).f32");
  EXPECT_EQ(typeToString(t->result()), "17.f32"); // 1 + 2*9 - (4/2)%3
  Type u = type("(n: Nat) -> (2 ^ n ^ 2).f32");
  EXPECT_EQ(u->result()->size()->kind(), NatKind::Pow);
  EXPECT_TRUE(
      natEqual(u->result()->size()->rhs(), natPow(natVarRef(u->binder().nat), natConst(2))));
}

TEST(Types, NegativeIntermediateSizesReadBack) {
  // Sizes are naturals, but the simplifier may print negative constants
  // (`-1 + n`); they must parse back.
  Type t = type("(n: Nat) -> (3 - 5).(0 - n + 1).f32");
  EXPECT_EQ(typeToString(t->result()->elem()), "(1 - n).f32");
  EXPECT_TRUE(typeEqual(t, type(typeToString(t)))) << typeToString(t);
  EXPECT_TRUE(typeEqual(type("(-2).f32"), type("(3 - 5).f32")));
  EXPECT_TRUE(typeEqual(type("(n: Nat) -> (-n + 2*n).f32"), type("(m: Nat) -> m.f32")));
}

TEST(Types, PairsFunctionsAndBinders) {
  EXPECT_EQ(type("(f32, i32)")->kind(), TypeKind::Pair);
  Type f = type("(f32 -> f32) -> f32");
  ASSERT_EQ(f->kind(), TypeKind::Fun);
  EXPECT_EQ(f->param()->kind(), TypeKind::Fun);
  Type r = type("f32 -> f32 -> f32");
  EXPECT_EQ(r->result()->kind(), TypeKind::Fun); // right-associative
  Type d = type("(n: Nat) -> n.f32");
  ASSERT_EQ(d->kind(), TypeKind::DepFun);
  EXPECT_FALSE(d->binder().implicit);
  EXPECT_EQ(d->result()->size()->var().id, d->binder().id());
  Type paren = type("((f32))");
  EXPECT_EQ(paren->kind(), TypeKind::Scalar);
  EXPECT_EQ(typeToString(type("vec[f32, 4]")), "vec[f32, 4]");
  EXPECT_EQ(typeToString(type("idx[16]")), "idx[16]");
  EXPECT_EQ(typeToString(type("(m: Nat) -> idx[m] -> natType")), "(m: Nat) -> idx[m] -> natType");
}

TEST(Types, ImplicitBindersAndRefinedKinds) {
  Type t = type("{n: Nat} -> {t: Numeric} -> n.t -> t");
  ASSERT_EQ(t->kind(), TypeKind::DepFun);
  EXPECT_TRUE(t->binder().implicit);
  const Type& inner = t->result();
  EXPECT_TRUE(inner->binder().implicit);
  EXPECT_EQ(inner->binder().kind, Kind::Data);
  EXPECT_EQ(inner->binder().data->sort, TypeSort::Numeric);
  EXPECT_EQ(type("{s: Scalar} -> s")->binder().data->sort, TypeSort::Scalar);
  EXPECT_EQ(type("{s: Float} -> s")->binder().data->sort, TypeSort::Float);
  EXPECT_EQ(type("{s: Data} -> s")->binder().data->sort, TypeSort::Data);
  EXPECT_EQ(type("(a: AddrSpace) -> f32")->binder().kind, Kind::AddrSpace);
}

TEST(Types, FreeVariablesOnlyWhenAllowed) {
  Type t = type("n.t -> (n + 1).t", true);
  // The same name is the same variable within one parse.
  EXPECT_EQ(t->param()->size()->var().id, t->result()->size()->operands()[1]->var().id);
  EXPECT_EQ(t->param()->elem()->var().id, t->result()->elem()->var().id);
  EXPECT_THROW(type("n.t"), CompileError);
}

TEST(Types, PrimitiveSignaturesParse) {
  // Every distinct signature string of rise/infer/Signatures.cpp.
  const char* signatures[] = {
      "{n: Nat} -> {s: Data} -> {t: Data} -> (s -> t) -> n.s -> n.t",
      "(d: Nat) -> {n: Nat} -> {s: Data} -> {t: Data} -> (s -> t) -> n.s -> n.t",
      "{n: Nat} -> {t: Data} -> (t -> t -> t) -> t -> n.t -> t",
      "{n: Nat} -> {s: Data} -> {t: Data} -> (t -> s -> t) -> t -> n.s -> t",
      "(a: AddrSpace) -> {n: Nat} -> {s: Data} -> {t: Data} -> (t -> s -> t) -> t -> n.s -> t",
      "{n: Nat} -> {s: Data} -> {t: Data} -> (t -> s -> t) -> t -> n.s -> n.t",
      "{n: Nat} -> {s: Data} -> {t: Data} -> n.s -> n.t -> n.(s, t)",
      "{n: Nat} -> {s: Data} -> {t: Data} -> n.(s, t) -> (n.s, n.t)",
      "(k: Nat) -> {m: Nat} -> {t: Data} -> (m*k).t -> m.k.t",
      "{n: Nat} -> {m: Nat} -> {t: Data} -> n.m.t -> (n*m).t",
      "{n: Nat} -> {m: Nat} -> {t: Data} -> n.m.t -> m.n.t",
      "(sz: Nat) -> (sp: Nat) -> {n: Nat} -> {t: Data} -> (sp*n + sz).t -> (n + 1).sz.t",
      "(l: Nat) -> (r: Nat) -> {n: Nat} -> {t: Data} -> t -> n.t -> (l + n + r).t",
      "(l: Nat) -> (r: Nat) -> {n: Nat} -> {t: Data} -> n.t -> (l + n + r).t",
      "{n: Nat} -> {t: Data} -> (idx[n] -> t) -> n.t",
      "{n: Nat} -> {t: Data} -> idx[n] -> n.t -> t",
      "(k: Nat) -> {m: Nat} -> {t: Data} -> (k + m).t -> k.t",
      "(k: Nat) -> {m: Nat} -> {t: Data} -> (k + m).t -> m.t",
      "{n: Nat} -> {m: Nat} -> {t: Data} -> n.t -> m.t -> (n + m).t",
      "{s: Data} -> {t: Data} -> (s, t) -> s",
      "{s: Data} -> {t: Data} -> s -> t -> (s, t)",
      "{s: Data} -> {t: Data} -> {u: Data} -> (s -> u) -> (s, t) -> (u, t)",
      "(k: Nat) -> {n: Nat} -> {m: Nat} -> {t: Data} -> ((l: Nat) -> (l*n).t -> l.t) -> "
      "(m*n^k).t -> m.t",
      "{s: Data} -> {t: Data} -> s -> (s -> t) -> t",
      "{t: Data} -> t -> t",
      "(a: AddrSpace) -> {t: Data} -> t -> t",
      "(t: Scalar) -> {s: Scalar} -> s -> t",
      "(k: Nat) -> {m: Nat} -> {s: Scalar} -> (m*k).s -> m.vec[s, k]",
      "{m: Nat} -> {k: Nat} -> {s: Scalar} -> m.vec[s, k] -> (m*k).s",
      "{k: Nat} -> {s: Scalar} -> s -> vec[s, k]",
      "{n: Nat} -> idx[n] -> natType",
      "(n: Nat) -> natType -> idx[n]",
      "(a: AddrSpace) -> (alloc: Nat) -> (sz: Nat) -> {n: Nat} -> {s: Data} -> {t: Data} -> "
      "(s -> t) -> (n + sz - 1).s -> n.sz.t",
      "(a: AddrSpace) -> (sz: Nat) -> {n: Nat} -> {s: Data} -> (s -> s) -> (n + sz - 1).s -> "
      "n.sz.s",
      "{t: Numeric} -> t -> t -> t",
      "{t: Numeric} -> t -> t",
      "bool -> bool",
      "bool -> bool -> bool",
      "{t: Scalar} -> t -> t -> bool",
      "{t: Float} -> t -> t",
      "{t: Float} -> t -> t -> t",
      "{t: Data} -> bool -> t -> t -> t",
  };
  for (const char* s : signatures) {
    SCOPED_TRACE(s);
    Type t;
    ASSERT_NO_THROW(t = type(s));
    // Printing and re-parsing gives the same type.
    EXPECT_TRUE(typeEqual(t, type(typeToString(t)))) << typeToString(t);
  }
}

// ---- syntax errors ----------------------------------------------------------

struct ErrorCase {
  const char* source;
  const char* code;
  const char* headline;
};

class SyntaxErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(SyntaxErrors, ReportCodeLocationAndMessage) {
  const ErrorCase& c = GetParam();
  CompileError e = programError(c.source);
  EXPECT_EQ(e.code(), c.code);
  EXPECT_EQ(headline(e), c.headline);
}

INSTANTIATE_TEST_SUITE_P(
    Parser, SyntaxErrors,
    ::testing::Values(
        ErrorCase{"def f = x $ y", "E0101", "t.rise:1:11: error: unexpected character `$`"},
        ErrorCase{"def f = a | b", "E0101",
                  "t.rise:1:11: error: unexpected character `|`; did you mean `|>` or `||`?"},
        ErrorCase{"foreign f(x: f32): f32 = \"return x;\n", "E0102",
                  "t.rise:1:26: error: unterminated string literal; close it with `\"`"},
        ErrorCase{"def f = 1 /* never closed", "E0103",
                  "t.rise:1:11: error: unterminated block comment; close it with `*/` (block "
                  "comments do not nest)"},
        ErrorCase{"def f = 12abc", "E0104",
                  "t.rise:1:9: error: malformed number literal `12abc`: unknown suffix `abc`; "
                  "integer suffixes are i8 i16 i32 i64 u8 u16 u32 u64 and n"},
        ErrorCase{"def f = 2f", "E0104",
                  "t.rise:1:9: error: malformed number literal `2f`: unknown suffix `f`; a float "
                  "literal needs a dot: write `2.0f` or `2.0`"},
        ErrorCase{"def f = 1.5u8", "E0104",
                  "t.rise:1:9: error: malformed number literal `1.5u8`: unknown suffix `u8`; "
                  "write `1.5f` for an f32 or `1.5` for an f64"},
        ErrorCase{"def f =\n  300u8", "E0105",
                  "t.rise:2:3: error: literal `300u8` is out of range for u8 (0..255)"},
        ErrorCase{"def f = 2147483648", "E0105",
                  "t.rise:1:9: error: literal `2147483648` is out of range for i32 "
                  "(-2147483648..2147483647); add a suffix for a wider type, e.g. "
                  "`2147483648i64`"},
        ErrorCase{"def f = -129i8", "E0105",
                  "t.rise:1:10: error: literal `-129i8` is out of range for i8 (-128..127)"},
        ErrorCase{"def f = 1e999", "E0105",
                  "t.rise:1:9: error: float literal `1e999` is out of range for f64"},
        ErrorCase{"foreign f(x: f32): f32 = \"a\\qb\"", "E0106",
                  "t.rise:1:28: error: invalid escape sequence `\\q` in string literal; use one of "
                  "\\n \\t \\r \\0 \\a \\b \\f \\v \\\\ \\\" \\' \\? \\xHH"},
        ErrorCase{"def f = g(x => y)", "E0107",
                  "t.rise:1:13: error: expected `)` to close the argument list of `g`, found `=>`"},
        ErrorCase{"def f = reduce(add)(0.0f", "E0107",
                  "t.rise:1:25: error: expected `)` to close the argument list of `reduce`, "
                  "found end of input"},
        ErrorCase{"def = 1", "E0107",
                  "t.rise:1:5: error: expected identifier naming the definition after `def`, "
                  "found `=`"},
        ErrorCase{"def f = depFun(n => n)", "E0107",
                  "t.rise:1:18: error: expected `:` and a kind after the parameter `n` of `depFun` "
                  "(as in `n: Nat`), found `=>`"},
        ErrorCase{"def f = fun(x x)", "E0107",
                  "t.rise:1:15: error: expected `=>` after the parameters of `fun`, found `x`"},
        ErrorCase{"def f = 1 +\n", "E0108",
                  "t.rise:2:1: error: expected an expression, found end of input"},
        ErrorCase{"def f = \"text\"", "E0108",
                  "t.rise:1:9: error: expected an expression, found a string literal; strings "
                  "are only allowed as the body of a `foreign` declaration"},
        ErrorCase{"def f = fun(x: => x)", "E0109",
                  "t.rise:1:16: error: expected a type, found `=>`; a type is a scalar such as "
                  "`f32`, an array `n.f32`, a pair `(f32, i32)` or a function `f32 -> f32`"},
        ErrorCase{"def f = depFun(n: Int => n)", "E0110",
                  "t.rise:1:19: error: unknown kind `Int`; the kinds are Nat, Data, AddrSpace and "
                  "the data refinements Scalar, Numeric and Float"},
        ErrorCase{"def f = fun(x: k.f32 => x)", "E0111",
                  "t.rise:1:16: error: unknown size variable `k`; sizes must be bound by an "
                  "enclosing depFun, e.g. `depFun(k: Nat => ...)`"},
        ErrorCase{"def f = fun(x: float => x)", "E0112",
                  "t.rise:1:16: error: unknown type `float`; a type is a scalar (bool, i8..i64, "
                  "u8..u64, f32, f64, natType), an array, a pair, `vec[T, n]`, `idx[n]` or a "
                  "`Data` parameter of an enclosing depFun"},
        ErrorCase{"def f = fun(n: Nat => n)", "E0112",
                  "t.rise:1:16: error: `Nat` is a kind, not a type; bind a type-level parameter "
                  "with `depFun(x: Nat => ...)` or `(x: Nat) -> ...`"},
        ErrorCase{"def f = 1\ndef g = 2\ndef f = 3", "E0113",
                  "t.rise:3:5: error: `f` is already defined; rename one of the definitions"},
        ErrorCase{"def f = g()", "E0114",
                  "t.rise:1:11: error: empty argument list of `g`; every RISE function takes at "
                  "least one argument, e.g. `f(x)`"},
        ErrorCase{"def f = 1\nlet g = 2", "E0115",
                  "t.rise:2:1: error: expected `def` or `foreign` at the top level, found `let`"},
        ErrorCase{"def f = 1 2", "E0115",
                  "t.rise:1:11: error: expected `def` or `foreign` at the top level, found `2`"},
        ErrorCase{"foreign g(h: f32 -> f32): f32 = \"\"", "E0116",
                  "t.rise:1:14: error: a parameter type must be a data type, but `f32 -> f32` is a "
                  "function type"},
        ErrorCase{"def f = depFun(n: Nat => fun(x: n => x))", "E0117",
                  "t.rise:1:33: error: `n` is a size, not a data type; an array of `n` elements is "
                  "written `n.f32`"},
        ErrorCase{"def f = depFun(t: Data => fun(x: t.f32 => x))", "E0117",
                  "t.rise:1:34: error: `t` is a data type, not a size"},
        ErrorCase{"def f = f32 |> g", "E0117",
                  "t.rise:1:9: error: `f32` is a type, not a value; a type argument is written as "
                  "a call argument, as in `cast(f32)`"},
        ErrorCase{"def f = depFun(t: Data => t)", "E0117",
                  "t.rise:1:27: error: `t` is a data type parameter, not a value; use it in a type "
                  "or as a type argument, as in `f(t)`"},
        ErrorCase{"def f = fun(i32 => 1)", "E0117",
                  "t.rise:1:13: error: `i32` is a type name and cannot name a parameter"},
        ErrorCase{"def f = fun(x: vec[2.f32, 4] => x)", "E0118",
                  "t.rise:1:20: error: the element of a vector type must be a scalar, found "
                  "`2.f32`; write `vec[f32, 4]`"},
        ErrorCase{"def f = fun(x: 4i32.f32 => x)", "E0120",
                  "t.rise:1:16: error: a size is a plain number; remove the type suffix from "
                  "`4i32`"},
        ErrorCase{"def f = (a, b, c)", "E0121",
                  "t.rise:1:14: error: a pair has exactly two components; nest pairs instead: "
                  "`(a, (b, c))`"},
        ErrorCase{"def f = a ^ 2", "E0122",
                  "t.rise:1:11: error: `^` is only defined on sizes in types; for values use "
                  "`pow(a)(b)`"},
        ErrorCase{"def f = fun(x: Array[=>, f32] => x)", "E0123",
                  "t.rise:1:22: error: expected a size (a number, a size variable or a "
                  "parenthesised size expression), found `=>`"}));

TEST(SyntaxErrors, DuplicateDefHasNoteAtFirstDefinition) {
  CompileError e = programError("def f = 1\nforeign f(x: f32): f32 = \"return x;\"");
  EXPECT_EQ(e.code(), "E0113");
  EXPECT_EQ(at(e.location()), "2:9");
  ASSERT_EQ(e.notes().size(), 1u);
  EXPECT_EQ(at(e.notes()[0].location), "1:5");
  EXPECT_EQ(e.notes()[0].message, "`f` was first defined here");
}

TEST(SyntaxErrors, UnclosedBracketsPointAtTheirOpening) {
  CompileError e = programError("def f = depFun(n: Nat =>\n  g(x)\ndef h = 1");
  EXPECT_EQ(headline(e), "t.rise:3:1: error: expected `)` to close `depFun(`, found `def`");
  ASSERT_EQ(e.notes().size(), 1u);
  EXPECT_EQ(at(e.notes()[0].location), "1:9");
  EXPECT_EQ(e.notes()[0].message, "`depFun(` starts here");
  CompileError call = exprError("f(a,\n  b");
  ASSERT_EQ(call.notes().size(), 1u);
  EXPECT_EQ(at(call.notes()[0].location), "1:2");
  EXPECT_EQ(call.notes()[0].message, "the argument list starts here");
}

TEST(SyntaxErrors, DeepNestingIsAnErrorNotACrash) {
  std::string deep = std::string(5000, '(') + "x" + std::string(5000, ')');
  CompileError e = exprError(deep);
  EXPECT_EQ(e.code(), "E0119");
  std::string negs = std::string(5000, '-') + "x";
  EXPECT_EQ(exprError(negs).code(), "E0119");
  std::string arrows;
  for (int i = 0; i < 5000; ++i)
    arrows += "f32 -> ";
  EXPECT_EQ(errorFrom([&] { type(arrows + "f32"); }).code(), "E0119");
  std::string sizes;
  for (int i = 0; i < 5000; ++i)
    sizes += "2.";
  EXPECT_EQ(errorFrom([&] { type(sizes + "f32"); }).code(), "E0119");
}

TEST(SyntaxErrors, TrailingInputAfterExpressionOrType) {
  CompileError e = exprError("f(x))");
  EXPECT_EQ(e.code(), "E0107");
  EXPECT_EQ(headline(e),
            "t.rise:1:5: error: expected end of input after the expression, found `)`");
  CompileError t = errorFrom([] { type("f32 f32"); });
  EXPECT_EQ(headline(t), "t.rise:1:5: error: expected end of input after the type, found `f32`");
}
