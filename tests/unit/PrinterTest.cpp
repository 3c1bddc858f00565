// Tests of the RISE printer: parse(print(parse(s))) is alpha-equivalent to
// parse(s), exact output for typical programs, and robustness of the parser
// and printer on random and truncated input.
#include "rise/print/Printer.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <random>

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

/// Prints `e`, re-parses the text and checks the result is alpha-equivalent.
void expectExprRoundTrip(const Expr& e, const PrintOptions& opts = {}) {
  std::string printed = printExpr(e, opts);
  Expr again;
  try {
    again = expr(printed);
  } catch (const CompileError& err) {
    FAIL() << "printed text does not parse: " << headline(err) << "\n" << printed;
  }
  EXPECT_TRUE(alphaEquivalent(e, again)) << printed << "\nre-printed as\n" << printExpr(again);
}

void expectProgramRoundTrip(const std::string& text, int width = 100) {
  SCOPED_TRACE(text);
  Program p = program(text);
  PrintOptions opts;
  opts.width = width;
  std::string printed = printProgram(p, opts);
  Program q;
  try {
    q = program(printed);
  } catch (const CompileError& err) {
    FAIL() << "printed text does not parse: " << headline(err) << "\n" << printed;
  }
  ASSERT_EQ(p.order, q.order) << printed;
  ASSERT_EQ(p.defs.size(), q.defs.size());
  for (std::size_t i = 0; i < p.defs.size(); ++i) {
    EXPECT_EQ(p.defs[i].name, q.defs[i].name);
    EXPECT_TRUE(alphaEquivalent(p.defs[i].body, q.defs[i].body)) << printed;
    EXPECT_EQ(static_cast<bool>(p.defs[i].annotation), static_cast<bool>(q.defs[i].annotation));
    if (p.defs[i].annotation) {
      EXPECT_TRUE(typeEqual(p.defs[i].annotation, q.defs[i].annotation)) << printed;
    }
  }
  for (std::size_t i = 0; i < p.foreigns.size(); ++i) {
    EXPECT_EQ(p.foreigns[i]->body, q.foreigns[i]->body);
    EXPECT_EQ(p.foreigns[i]->params.size(), q.foreigns[i]->params.size());
  }
  // Printing is a fixed point after one round.
  EXPECT_EQ(printProgram(q, opts), printed);
}

const char* kRoundTripPrograms[] = {
    // the paper's matrix-vector multiplication
    R"(def mv = depFun((n: Nat, m: Nat) =>
  fun(M: n.m.f32 => fun(x: m.f32 =>
    M |> map(fun(row =>
      zip(row)(x) |> map(fun(ax => fst(ax) * snd(ax))) |> reduce(add)(0.0f))))))
)",
    "def dot = fun(a, b => zip(a)(b) |> map(fun(p => fst(p) * snd(p))) |> reduce(add)(0.0f))",
    "def scal = depFun(n: Nat => fun(alpha: f32, xs: n.f32 => xs |> map(fun(x => alpha * x))))",
    "def asum = fun(xs => xs |> map(fabs) |> reduceSeq(add)(0.0f))",
    "def tiled = fun(xs => xs |> split(32) |> mapGlobal(0)(mapSeq(fun(x => x + 1.0f))) |> join)",
    "def conv = fun(xs => xs |> padClamp(1, 1) |> slide(3, 1) |> map(reduceSeq(add)(0.0f)))",
    "def pad = fun(xs => xs |> padCst(1, 1, 0.0f))",
    "def ops = fun(a, b => (a + b) * (a - b) / (a % b) - -a)",
    "def assoc = fun(a, b, c => a - (b - c) + (a - b - c) * (a * (b * c)))",
    "def cmp = fun(a, b => a < b && b <= a || a == b && !(a != b) || a > b == (b >= a))",
    "def neg = fun(x => -x * -1.0f + -(x + 1.5) - -2147483648 + -9223372036854775808i64)",
    "def lits = (1i8, (2u16, (3u64, (4i64, (5n, (true, (false, (1.0e-3f, 2e30))))))))",
    "def pairs = fun(p => (snd(p), fst(p)))",
    "def comp = map(fabs >> sqrt >> fun(x => x * 2.0f))",
    "def pipe = fun(x => x |> (f >> g))",
    "def casts = fun(x => x |> cast(f64) |> fun(y => y + 1.0))",
    "def typed = depFun((n: Nat, t: Data) => fun(x: n.t, f: t -> t => x |> map(f)))",
    "def dep = depFun((n: Nat, d: Data, a: AddrSpace) => fun(x: (n+1).d => x |> oclToMem(a)))",
    "def refined = depFun((s: Scalar, v: Numeric, w: Float) => fun(x: s, y: vec[v, 4] => x))",
    "def idx2 = depFun(n: Nat => generate(fun(i: idx[n] => i |> indexAsNat)))",
    "def nested = fun(x => fun(y => fun(z: f32 => x(y)(z))))",
    "def shadow = fun(x => fun(x => x + 1) (x))",
    "def arrays = depFun(n: Nat => fun(x: Array[n, (n/2).2.f32], y: 4.4.f32 => (x, y)))",
    "def typeargs = depFun(t: Data => f(t, Array[4, t], (t, i32), 8.8.t, idx[4], f32 -> t))",
    "def higher = fun(f: (f32 -> f32) -> f32 => f(fun(x => x)))",
    "def calls = f(a, b)(c)(fun(x => x)(y))",
    "def callee = (a + b)(c)",
    R"(foreign clampf(x: f32, lo: f32, hi: f32): f32 = "return x < lo ? lo :
  (x > hi ? hi : x);"
foreign weird(p: (f32, i32)): f32 = "\t\"quoted\" \\ \x01"
def useClamp: f32 -> f32 = fun(x => clampf(x, 0.0f, 1.0f))
def ann: (n: Nat) -> n.f32 -> n.f32 = depFun(n: Nat => fun(x => x))
)",
    "def iter = iterate(2)(depFun(l: Nat => fun(xs => xs |> split(2) |> map(reduce(add)(0.0f)))))",
    "def vec = fun(xs => xs |> asVector(4) |> mapSeq(fun(v => v * v)) |> asScalar)",
    "def lets = fun(x => let(x * x)(fun(y => y + y)))",
    "def toMems = fun(xs => xs |> mapLocal(0)(fun(x => x)) |> toLocal |> "
    "oclReduceSeq(Private)(add)(0.0f))",
};

} // namespace

TEST(Printer, RoundTripPrograms) {
  for (const char* text : kRoundTripPrograms)
    expectProgramRoundTrip(text);
}

TEST(Printer, RoundTripNarrowWidth) {
  // Forcing every pipeline and lambda to break must still re-parse.
  for (const char* text : kRoundTripPrograms)
    expectProgramRoundTrip(text, 10);
}

// ---- exact output -----------------------------------------------------------

TEST(Printer, InfixWithMinimalParentheses) {
  EXPECT_EQ(printExpr(expr("(a + b) * c - (d - e) - f")), "(a + b) * c - (d - e) - f");
  EXPECT_EQ(printExpr(expr("((a * b)) + (c * d)")), "a * b + c * d");
  EXPECT_EQ(printExpr(expr("a || (b && c)")), "a || b && c");
  EXPECT_EQ(printExpr(expr("(a || b) && c")), "(a || b) && c");
  EXPECT_EQ(printExpr(expr("-(a + b) * !c")), "-(a + b) * !c");
}

TEST(Printer, NegativeLiterals) {
  EXPECT_EQ(printExpr(expr("-1.0f")), "-1.0f");
  EXPECT_EQ(printExpr(expr("f(-2147483648)")), "f(-2147483648)");
  EXPECT_EQ(printExpr(expr("a - -1")), "a - -1");
  // Values that come from rewriting rather than parsing.
  EXPECT_EQ(printExpr(makeLiteral(ScalarValue::makeInt(ScalarKind::I32, -5), {})), "-5");
  Expr half = makeLiteral(ScalarValue::makeFloat(ScalarKind::F32, 0.5), {});
  Expr minus = makeLiteral(ScalarValue::makeFloat(ScalarKind::F32, -0.5), {});
  EXPECT_EQ(printExpr(makeApp(makeApp(makePrimitive(Prim::Mul, {}), half, {}), minus, {})),
            "0.5f * -0.5f");
  Expr nan = makeLiteral(ScalarValue::makeFloat(ScalarKind::F32, std::nan("")), {});
  EXPECT_EQ(printExpr(makeApp(makeVar("f", {}), nan, {})), "f(0.0f / 0.0f)");
}

TEST(Printer, PairsAndCalls) {
  EXPECT_EQ(printExpr(expr("(a, (b, c))")), "(a, (b, c))");
  EXPECT_EQ(printExpr(expr("makePair(a)(b)")), "makePair(a, b)");
  EXPECT_EQ(printExpr(expr("zip(a)(b)")), "zip(a, b)");
  EXPECT_EQ(printExpr(expr("fst(ax) * snd(ax)")), "fst(ax) * snd(ax)");
  EXPECT_EQ(printExpr(expr("cast(f64)(x)")), "cast(f64, x)");
}

TEST(Printer, Pipelines) {
  EXPECT_EQ(printExpr(expr("reduce(add)(0.0f)(map(f)(xs))")), "xs |> map(f) |> reduce(add, 0.0f)");
  EXPECT_EQ(printExpr(expr("join(split(32)(xs))")), "xs |> split(32) |> join");
  EXPECT_EQ(printExpr(expr("g(f(x))")), "f(x) |> g");
  // Other primitives stay calls; user functions applied to a call pipeline.
  EXPECT_EQ(printExpr(expr("zip(f(a))(g(b))")), "zip(f(a), g(b))");
  EXPECT_EQ(printExpr(expr("fst(zip(a)(b))")), "fst(zip(a, b))");
  EXPECT_EQ(printExpr(expr("map(f)(xs) |> toMem")), "xs |> map(f) |> toMem");
  EXPECT_EQ(printExpr(expr("map(map(f))")), "map(map(f))");
  EXPECT_EQ(printExpr(expr("(xs |> map(f)) + 1")), "(xs |> map(f)) + 1");
}

TEST(Printer, Lambdas) {
  EXPECT_EQ(printExpr(expr("fun(x => fun(y: f32 => x))")), "fun(x, y: f32 => x)");
  EXPECT_EQ(printExpr(expr("depFun(n: Nat => depFun(d: Data => x))")),
            "depFun((n: Nat, d: Data) => x)");
  EXPECT_EQ(printExpr(expr("depFun(n: Nat => fun(x: n.f32 => x))")),
            "depFun(n: Nat => fun(x: n.f32 => x))");
  EXPECT_EQ(printExpr(expr("f >> g >> h")), "f >> g >> h");
  EXPECT_EQ(printExpr(expr("fun(x => g(f(x)))")), "f >> g");
  EXPECT_EQ(printExpr(expr("fun(x => x(f(x)))")), "fun(x => f(x) |> x)");
}

TEST(Printer, MatrixVectorLayout) {
  Program p = program(kRoundTripPrograms[0]);
  EXPECT_EQ(printProgram(p),
            "def mv = depFun((n: Nat, m: Nat) =>\n"
            "  fun(M: n.m.f32, x: m.f32 =>\n"
            "    M |> map(fun(row => zip(row, x) |> map(fun(ax => fst(ax) * snd(ax))) |> "
            "reduce(add, 0.0f)))))\n");
}

TEST(Printer, LongPipelinesBreakOneStagePerLine) {
  PrintOptions narrow;
  narrow.width = 40;
  EXPECT_EQ(printExpr(expr("xs |> split(32) |> map(map(fun(x => x * 2.0f))) |> join"), narrow),
            "xs\n"
            "  |> split(32)\n"
            "  |> map(map(fun(x => x * 2.0f)))\n"
            "  |> join");
  EXPECT_EQ(
      printExpr(expr("fun(xs => xs |> split(32) |> map(map(fun(x => x * 2.0f))) |> join)"), narrow),
      "fun(xs =>\n"
      "  xs\n"
      "    |> split(32)\n"
      "    |> map(map(fun(x => x * 2.0f)))\n"
      "    |> join)");
}

TEST(Printer, Programs) {
  Program p = program("foreign sq(x: f32): f32 = \"return x * x;\"\n"
                      "def f: f32 -> f32 = fun(x => sq(x) + 1.0f)\n"
                      "def g = f");
  EXPECT_EQ(printProgram(p), "foreign sq(x: f32): f32 = \"return x * x;\"\n"
                             "\n"
                             "def f: f32 -> f32 = fun(x => sq(x) + 1.0f)\n"
                             "\n"
                             "def g = f\n");
}

TEST(Printer, ImplicitTypeArgumentsAreOmitted) {
  Expr map = makeDepApp(makePrimitive(Prim::Map, {}), natConst(4), true, {});
  Expr e = makeApp(makeApp(map, makeVar("f", {}), {}), makeVar("xs", {}), {});
  EXPECT_EQ(printExpr(e), "xs |> map(f)");
  Expr cast = makeDepApp(makeVar("cast", {}), scalarType(ScalarKind::F64), false, {});
  EXPECT_EQ(printExpr(makeApp(cast, makeVar("x", {}), {})), "cast(f64, x)");
  Expr mem = makeDepApp(makeVar("oclToMem", {}), AddrSpace::local(), false, {});
  EXPECT_EQ(printExpr(mem), "oclToMem(Local)");
  Expr split = makeDepApp(makeVar("split", {}), natConst(32), false, {});
  EXPECT_EQ(printExpr(split), "split(32)");
}

TEST(Printer, ShowTypesUsesInferredParameterType) {
  Type f32 = scalarType(ScalarKind::F32);
  Expr lambda = makeLambda("x", nullptr, makeVar("x", {}), {}, funType(f32, f32));
  EXPECT_EQ(printExpr(lambda), "fun(x => x)");
  PrintOptions opts;
  opts.showTypes = true;
  EXPECT_EQ(printExpr(lambda, opts), "fun(x: f32 => x)");
}

// ---- robustness ---------------------------------------------------------------

namespace {

/// Parses `text` every way the API allows; anything but success or a
/// CompileError (a crash, another exception) fails the test. Whatever parses
/// as an expression must also survive a print round trip.
void parseAnyway(const std::string& text) {
  auto file = src(text);
  try {
    Expr e = parseExpr(file);
    expectExprRoundTrip(e);
    expectExprRoundTrip(e, PrintOptions{8, false});
  } catch (const CompileError&) {
  }
  try {
    Program p = parseProgram(file);
    Program q = parseProgram(src(printProgram(p)));
    EXPECT_EQ(p.order, q.order) << text;
  } catch (const CompileError&) {
  }
  for (bool free : {false, true}) {
    try {
      Type t = parseType(file, free);
      EXPECT_TRUE(typeEqual(t, parseType(src(typeToString(t)), true)) || free) << text;
    } catch (const CompileError&) {
    }
  }
}

const char* kVocabulary[] = {
    "def",   "foreign", "fun", "depFun", "true", "false", "x",      "y",   "n",   "m",
    "t",     "map",     "f",   "_x1",    "Nat",  "Data",  "Scalar", "f32", "i32", "natType",
    "Array", "vec",     "idx", "1",      "32",   "2.5f",  "4.4",    "1e3", "7u8", "300u8",
    "\"s\"", "\"",      "|>",  ">>",     "=>",   "->",    "==",     "!=",  "<=",  ">=",
    "<",     ">",       "&&",  "||",     "+",    "-",     "*",      "/",   "%",   "^",
    "!",     ".",       ",",   ":",      "(",    ")",     "[",      "]",   "{",   "}",
    "=",     "/*",      "*/",  "//",     "\n",   "$",     "|",      "(",   ")",   "fun(x =>",
};

} // namespace

/// Generates random but well-formed RISE expressions from the v1 grammar, so
/// that every one must parse and round-trip through the printer.
class RandomProgram {
public:
  explicit RandomProgram(unsigned seed) : rng_(seed) {}

  std::string expr(int depth) {
    if (depth <= 0)
      return atom();
    switch (below(14)) {
    case 0:
      return expr(depth - 1) + " " +
             pick({"+", "-", "*", "/", "%", "<", "<=", "==", "!=", ">", ">=", "&&", "||"}) + " " +
             expr(depth - 1);
    case 1:
      return pick({"-", "!"}) + expr(depth - 1);
    case 2:
      return expr(depth - 1) + " |> " + callee(depth - 1);
    case 3:
      return callee(depth - 1) + " >> " + callee(depth - 1);
    case 4:
      return "(" + expr(depth - 1) + ", " + expr(depth - 1) + ")";
    case 5:
      return "(" + expr(depth - 1) + ")";
    case 6:
      return lambda(depth);
    case 7:
      return depLambda(depth);
    case 8:
      return callee(depth - 1) + "(" + type(2) + ")";
    default:
      return callee(depth - 1) + "(" + args(depth - 1) + ")";
    }
  }

private:
  std::size_t below(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }
  std::string pick(std::initializer_list<const char*> options) {
    return *(options.begin() + below(options.size()));
  }

  std::string atom() {
    switch (below(6)) {
    case 0:
      return pick({"1", "0", "42i8", "7u8", "65535u16", "3i64", "9n", "2147483647", "true", "false",
                   "-2147483648", "-128i8"});
    case 1:
      return pick({"0.5f", "1.5", "1.0e-3f", "2e3", "0.1", "3.25f", "1e-7f"});
    case 2:
      if (!nats_.empty())
        return nats_[below(nats_.size())];
      [[fallthrough]];
    default:
      if (!values_.empty() && below(2) == 0)
        return values_[below(values_.size())];
      return pick({"x", "y", "map", "reduce", "split", "join", "zip", "fst", "add", "Local"});
    }
  }

  std::string callee(int depth) {
    if (depth > 0 && below(4) == 0)
      return lambda(depth);
    return pick({"f", "g", "map", "mapSeq", "reduce", "split", "join", "zip", "fst", "snd",
                 "transpose", "slide", "padCst", "mapGlobal", "oclToMem", "cast", "sqrt"});
  }

  std::string args(int depth) {
    std::string out = expr(depth);
    for (std::size_t n = below(3); n > 0; --n)
      out += ", " + expr(depth);
    return out;
  }

  std::string binderName() {
    std::string name = pick({"a", "b", "c", "x", "y", "acc", "row", "_x1"});
    return name;
  }

  std::string lambda(int depth) {
    std::size_t mark = values_.size();
    std::string params;
    bool grouped = below(4) == 0;
    for (std::size_t n = 1 + below(2); n > 0; --n) {
      std::string name = binderName();
      params += (params.empty() ? "" : ", ") + name + (below(2) ? ": " + type(2) : "");
      values_.push_back(name);
    }
    std::string body = expr(depth - 1);
    values_.resize(mark);
    return "fun(" + (grouped ? "(" + params + ")" : params) + " => " + body + ")";
  }

  std::string depLambda(int depth) {
    std::size_t natMark = nats_.size(), dataMark = datas_.size();
    std::string params;
    for (std::size_t n = 1 + below(2); n > 0; --n) {
      std::string kind = pick({"Nat", "Nat", "Data", "AddrSpace", "Scalar", "Float"});
      std::string name = kind == "Nat"         ? pick({"n", "m", "k"})
                         : kind == "AddrSpace" ? "as" + std::to_string(below(2))
                                               : pick({"d", "t", "s"});
      params += (params.empty() ? "" : ", ") + name + ": " + kind;
      if (kind == "Nat")
        nats_.push_back(name);
      else if (kind != "AddrSpace")
        datas_.push_back(name);
    }
    // A Data name may only be used in types: drop value binders it would
    // shadow from the pool used for atoms.
    std::string body = expr(depth - 1);
    nats_.resize(natMark);
    datas_.resize(dataMark);
    bool grouped = params.find(',') != std::string::npos && below(2) == 0;
    return "depFun(" + (grouped ? "(" + params + ")" : params) + " => " + body + ")";
  }

  std::string nat(int depth) {
    if (depth <= 0 || below(2) == 0) {
      if (!nats_.empty() && below(2) == 0)
        return nats_[below(nats_.size())];
      return std::to_string(below(64) + 1);
    }
    return "(" + nat(depth - 1) + " " + pick({"+", "-", "*", "/", "%", "^"}) + " " +
           nat(depth - 1) + ")";
  }

  std::string type(int depth) {
    std::size_t choice = depth <= 0 ? below(2) : below(9);
    switch (choice) {
    case 0:
      return pick({"f32", "f64", "i32", "bool", "u8", "natType"});
    case 1:
      if (!datas_.empty())
        return datas_[below(datas_.size())];
      return "i64";
    case 2:
    case 3:
      return nat(1) + "." + dataType(depth - 1);
    case 4:
      return "Array[" + nat(2) + ", " + dataType(depth - 1) + "]";
    case 5:
      return "(" + dataType(depth - 1) + ", " + dataType(depth - 1) + ")";
    case 6:
      return "vec[f32, " + nat(1) + "]";
    case 7:
      return "idx[" + nat(1) + "]";
    default:
      return "(" + type(depth - 1) + " -> " + type(depth - 1) + ")";
    }
  }

  std::string dataType(int depth) {
    std::string t = type(depth);
    return t.find("->") == std::string::npos ? t : "f32";
  }

  std::mt19937 rng_;
  std::vector<std::string> values_, nats_, datas_;
};

TEST(Robustness, RandomWellFormedProgramsRoundTrip) {
  RandomProgram gen(2024);
  for (int i = 0; i < 2000; ++i) {
    std::string text = gen.expr(1 + i % 6);
    SCOPED_TRACE(text);
    Expr e;
    try {
      e = expr(text);
    } catch (const CompileError& err) {
      ADD_FAILURE() << "generated program does not parse: " << headline(err);
      continue;
    }
    expectExprRoundTrip(e);
    expectExprRoundTrip(e, PrintOptions{20, false});
  }
}

TEST(Robustness, RandomTokenSoup) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kVocabulary) - 1);
  std::uniform_int_distribution<int> length(1, 30);
  for (int i = 0; i < 2000; ++i) {
    std::string text;
    for (int n = length(rng); n > 0; --n) {
      text += kVocabulary[pick(rng)];
      text += ' ';
    }
    SCOPED_TRACE(text);
    parseAnyway(text);
  }
}

TEST(Robustness, MutatedValidPrograms) {
  // Replace, delete or duplicate one character: near-valid input reaches
  // deeper into the parser than random soup.
  std::mt19937 rng(777);
  const std::string chars = "()[]{},.:=>-|+*xn0f \n\"";
  for (int i = 0; i < 2000; ++i) {
    std::string text = kRoundTripPrograms[i % std::size(kRoundTripPrograms)];
    std::uniform_int_distribution<std::size_t> where(0, text.size() - 1);
    std::size_t pos = where(rng);
    switch (i % 3) {
    case 0:
      text[pos] = chars[rng() % chars.size()];
      break;
    case 1:
      text.erase(pos, 1);
      break;
    default:
      text.insert(pos, 1, text[pos]);
      break;
    }
    SCOPED_TRACE(text);
    parseAnyway(text);
  }
}

TEST(Robustness, TruncatedPrograms) {
  for (const char* program : kRoundTripPrograms) {
    std::string text = program;
    for (std::size_t len = 0; len <= text.size(); ++len) {
      SCOPED_TRACE(text.substr(0, len));
      parseAnyway(text.substr(0, len));
    }
  }
}
