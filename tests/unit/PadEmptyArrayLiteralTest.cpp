// Shine's padEmpty and array literals (`larr`), issue 17: the literal syntax
// printed and parsed back, the types (and the errors of both), the
// interpreter, the refusal of a read of padEmpty's padding, and the
// generated C, OpenMP and OpenCL run against the interpreter, including an
// output whose padding the generated code must leave untouched. The
// tests/e2e/*.rise files of both run through CodegenCEndToEndTest as well.
#include "CKernelRunner.h"
#include "codegen/Compile.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"
#include "support/Diagnostic.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

using namespace risec;
using namespace risec::rise;
using namespace risec::testsupport;
namespace fs = std::filesystem;

namespace {

Program parse(const std::string& text) {
  return parseProgram(makeSourceFile("test.rise", text));
}

TypedDef typed(const std::string& text) {
  Program p = parse(text);
  return inferDef(p, p.defs.back().name);
}

/// The CompileError of checking `text`: "LINE:COL CODE".
std::string errorOf(const std::string& text) {
  try {
    typed(text);
  } catch (const CompileError& e) {
    return std::to_string(e.location().line) + ":" + std::to_string(e.location().column) + " " +
           e.code();
  }
  return "no error";
}

interp::Value eval(const std::string& text, const interp::SizeEnv& sizes,
                   const std::string& inputs) {
  TypedDef def = typed(text);
  return interp::evaluate(def, sizes, interp::parseInputList(def, sizes, inputs, "inputs"));
}

std::string json(const interp::Value& v) {
  return interp::valueToJson(v);
}

// ---- syntax -----------------------------------------------------------------------

TEST(ArrayLiteral, PrintsAsWrittenAndParsesBack) {
  std::string text = "def w = [[1.0f, -2.5f, 0.0f], [3.0f, 4.0f, -0.0f]]\n";
  Program p = parse(text);
  std::string printed = printProgram(p);
  EXPECT_NE(printed.find("[[1.0f, -2.5f, 0.0f], [3.0f, 4.0f, -0.0f]]"), std::string::npos)
      << printed;
  Program again = parse(printed);
  EXPECT_TRUE(alphaEquivalent(p.defs[0].body, again.defs[0].body)) << printed;
  // Another literal is another program.
  Program other = parse("def w = [[1.0f, -2.5f, 0.0f], [3.0f, 4.0f, 1.0f]]\n");
  EXPECT_FALSE(alphaEquivalent(p.defs[0].body, other.defs[0].body));
}

TEST(ArrayLiteral, NegativeLiteralsKeepTheirRange) {
  EXPECT_EQ(json(eval("def w = [-128i8, 127i8]", {}, "[]")), "[-128, 127]");
  EXPECT_EQ(json(eval("def w = [-2147483648, 2147483647]", {}, "[]")), "[-2147483648, 2147483647]");
  EXPECT_EQ(errorOf("def w = [-129i8]"), "1:11 E0105");
}

TEST(ArrayLiteral, ElementsAreConstants) {
  EXPECT_EQ(errorOf("def f = fun(x: f32 => [1.0f, x])"), "1:30 E0124");
  EXPECT_EQ(errorOf("def f = [1.0f + 2.0f]"), "1:15 E0124");
  EXPECT_EQ(errorOf("def f = [-3u8]"), "1:10 E0124");
  EXPECT_EQ(errorOf("def f = []"), "1:9 E0125");
}

// ---- types ------------------------------------------------------------------------

TEST(ArrayLiteral, HasTheTypeOfItsElements) {
  EXPECT_EQ(typeToString(typed("def w = [1, 2, -3]").type), "3.i32");
  EXPECT_EQ(typeToString(typed("def w = [[1.0f, 2.0f], [3.0f, 4.0f], [5.0f, 6.0f]]").type),
            "3.2.f32");
  EXPECT_EQ(typeToString(typed("def w = [true]").type), "1.bool");
}

TEST(ArrayLiteral, ElementsOfAnotherTypeAreLocatedErrors) {
  EXPECT_EQ(errorOf("def w = [1.0f, 2.0f, 3]"), "1:22 E0315");
  EXPECT_EQ(errorOf("def w = [1.0f, 2.0]"), "1:16 E0315");
  EXPECT_EQ(errorOf("def w = [[1.0f], [2.0f, 3.0f]]"), "1:18 E0315");
  EXPECT_EQ(errorOf("def w = [[1.0f], 2.0f]"), "1:18 E0315");
}

TEST(ArrayLiteral, IsNotASize) {
  // `split([4])` must not read the literal as the size 0 (or anything else).
  EXPECT_NE(errorOf("def f = fun(xs: 8.f32 => xs |> split([4]))"), "no error");
}

// ---- the interpreter --------------------------------------------------------------

TEST(ArrayLiteral, EvaluatesToItsElements) {
  EXPECT_EQ(json(eval("def w = [[1.0f, -2.5f], [3.0f, 4.0f]]", {}, "[]")),
            "[[1.0, -2.5], [3.0, 4.0]]");
  EXPECT_EQ(json(eval("def w = fun(i: idx[3] => [7, -8, 9] |> idx(i))", {}, "[1]")), "-8");
}

TEST(PadEmpty, AppendsElementsTheInterpreterShowsAsZeros) {
  const char* f = "def f = depFun(n: Nat => fun(xs: n.f32 => xs |> padEmpty(2)))";
  EXPECT_EQ(json(eval(f, {{"n", 3}}, "[[1, 2, 3]]")), "[1.0, 2.0, 3.0, 0.0, 0.0]");
  EXPECT_EQ(json(eval(f, {{"n", 0}}, "[[]]")), "[0.0, 0.0]");
  const char* rows = "def f = depFun((n: Nat, m: Nat) => fun(xs: n.m.(f32, i32) =>\n"
                     "  xs |> map(padEmpty(1))))";
  EXPECT_EQ(json(eval(rows, {{"n", 1}, {"m", 1}}, "[[[[1.5, 2]]]]")), "[[[1.5, 2], [0.0, 0]]]");
  EXPECT_EQ(json(eval(rows, {{"n", 1}, {"m", 0}}, "[[[]]]")), "[[[0.0, 0]]]");
  EXPECT_EQ(typeToString(typed(f).type), "(n: Nat) -> n.f32 -> (n + 2).f32");
}

// ---- padEmpty's padding is never read --------------------------------------------------

TEST(PadEmpty, AReadOfThePaddingIsRefusedAtThePadEmpty) {
  // reduced, mapped over, stored and read, passed to a function, slid over
  EXPECT_EQ(errorOf("def f = fun(xs: 4.f32 =>\n  xs |> padEmpty(2) |> reduce(add, 0.0f))"),
            "2:9 E0314");
  EXPECT_EQ(errorOf("def f = fun(xs: 4.f32 =>\n  xs |> padEmpty(2) |> map(fun(x => x + 1.0f)))"),
            "2:9 E0314");
  EXPECT_EQ(errorOf("def f = fun(xs: 4.f32 =>\n  xs |> padEmpty(2) |> toMem |> take(4))"),
            "2:9 E0314");
  EXPECT_EQ(errorOf("def g = fun(ys: 6.f32 => ys)\n"
                    "def f = fun(xs: 4.f32 => g(xs |> padEmpty(2)))"),
            "2:34 E0314");
  EXPECT_EQ(errorOf("def f = fun(xs: 4.f32 =>\n  xs |> padEmpty(2) |> slide(3, 1))"), "2:9 E0314");
  EXPECT_EQ(errorOf("def f = fun(xs: 4.f32 =>\n  (xs |> padEmpty(2), 1.0f) |> fst)"), "2:10 E0314");
}

TEST(PadEmpty, WrittenPositionsAreAccepted) {
  // the result; under maps, `let`, applied lambdas and writable views
  for (const char* ok : {
           "def f = fun(xs: 4.f32 => xs |> padEmpty(2))",
           "def f = fun(xs: 3.4.f32 => xs |> map(padEmpty(2)))",
           "def f = fun(xs: 3.4.f32 => xs |> mapSeq(fun(r => r |> padEmpty(1) |> padEmpty(1))))",
           "def f = fun(xs: 4.f32 => xs |> padEmpty(2) |> take(4))",
           "def f = fun(xs: 4.f32 => xs |> padEmpty(2) |> split(3))",
           "def f = fun(xs: 4.f32 => zip(xs |> padEmpty(2), xs |> padEmpty(2)))",
           "def f = fun(xs: 4.f32 => xs |> fun(ys => ys |> padEmpty(2)))",
           "def f = fun(xs: 4.f32 => let(xs, fun(ys => (ys |> padEmpty(1), ys))))",
           "def f = fun(xs: 3.4.f32 => xs |> map(padEmpty(1) >> take(4)))",
       })
    EXPECT_EQ(errorOf(ok), "no error") << ok;
}

// ---- generated code against the interpreter ---------------------------------------

/// Compiles the last def of `text` for `target`, runs it on `inputs` at
/// `sizes` with the test driver (outputs filled with 0xAB bytes first) and
/// returns the output and the interpreter's value.
struct GeneratedRun {
  interp::Value actual, expected;
};

GeneratedRun runGenerated(const std::string& name, const std::string& text, codegen::Target target,
                          const interp::SizeEnv& sizes, std::uint64_t seed) {
  Program program = parseProgram(makeSourceFile(name, text));
  std::string entry = program.defs.back().name;
  TypedDef def = inferDef(program, entry);
  std::string symbol = "k_" + entry;
  codegen::c::COptions opts{symbol, name, "test", ""};
  opts.target = target;
  codegen::CompileResult result = codegen::compileToC(program, def, opts);
  fs::path dir =
      fs::temp_directory_path() / ("risec-padempty-" + std::to_string(::getpid()) + "-" + entry +
                                   "-" + std::to_string(static_cast<int>(target)));
  std::vector<std::string> sizeNames = interp::sizeParameters(def);
  std::string log;
  std::string flags = defaultCFlags() + (target == codegen::Target::OpenMP ? " -fopenmp" : "");
  int st = buildKernel(dir, symbol, result.files, driverSource(symbol, def, sizeNames.size()),
                       "gcc", flags, log);
  EXPECT_EQ(st, 0) << log << "\n" << result.files.source;
  interp::EntryInterface iface = interp::instantiateEntry(def, sizes);
  std::mt19937_64 rng(seed);
  std::vector<interp::Value> inputs;
  for (const Type& t : iface.inputTypes)
    inputs.push_back(interp::randomValue(t, rng));
  GeneratedRun r;
  r.expected = interp::evaluate(def, sizes, inputs);
  std::string out;
  st = runDriver(dir, (dir / "gcc").string(), inputRecord(def, sizeNames, sizes, inputs), out);
  EXPECT_EQ(st, 0) << out;
  std::vector<std::string> tok = tokens(out);
  EXPECT_GE(tok.size(), 2u);
  if (tok.size() < 2 || tok[0] + " " + tok[1] != "rc 0") {
    ADD_FAILURE() << out;
    return r;
  }
  std::size_t pos = 2;
  r.actual = unflatten(iface.outputType, tok, pos);
  fs::remove_all(dir);
  return r;
}

std::string e2eFile(const std::string& f) {
  return test::readFile(fs::path(RISEC_TEST_DATA) / "e2e" / f);
}

void expectMatches(const std::string& file, codegen::Target target,
                   const std::vector<interp::SizeEnv>& sizeSets) {
  std::uint64_t seed = 1;
  for (const interp::SizeEnv& s : sizeSets) {
    GeneratedRun r = runGenerated(file, e2eFile(file), target, s, ++seed);
    std::string why;
    EXPECT_TRUE(interp::valuesClose(r.actual, r.expected, 1e-5, 1e-6, &why))
        << file << ": " << why << "\n  generated: " << json(r.actual)
        << "\n  expected:  " << json(r.expected);
  }
}

TEST(ArrayLiteral, OpenMPMatchesTheInterpreter) {
  expectMatches("omp_array_literal.rise", codegen::Target::OpenMP,
                {{{"n", 0}}, {{"n", 1}}, {{"n", 7}}, {{"n", 64}}});
  expectMatches("array_literal_lut.rise", codegen::Target::OpenMP, {{{"n", 5}}});
}

TEST(ArrayLiteral, OpenCLMatchesTheInterpreter) {
  expectMatches("ocl_array_literal.rise", codegen::Target::OpenCL,
                {{{"n", 1}}, {{"n", 7}}, {{"n", 64}}});
}

TEST(PadEmpty, OpenMPMatchesTheInterpreter) {
  expectMatches("omp_pad_empty.rise", codegen::Target::OpenMP,
                {{{"n", 0}, {"m", 3}}, {{"n", 1}, {"m", 1}}, {{"n", 5}, {"m", 3}}});
}

TEST(PadEmpty, OpenCLMatchesTheInterpreter) {
  expectMatches("ocl_pad_empty.rise", codegen::Target::OpenCL, {{{"n", 1}}, {{"n", 9}}});
}

TEST(ArrayLiteral, IsAConstantArrayInTheGeneratedCode) {
  Program program = parse(e2eFile("array_literal_lut.rise"));
  TypedDef def = inferDef(program, "lookup");
  for (codegen::Target t : {codegen::Target::C, codegen::Target::OpenMP, codegen::Target::OpenCL}) {
    codegen::c::COptions opts{"lookup", "lut.rise", "test", ""};
    opts.target = t;
    std::string s = codegen::compileToC(program, def, opts).files.source;
    EXPECT_NE(s.find("(const int32_t[4]){10, 20, -30, 40}["), std::string::npos) << s;
  }
}

/// The float whose bytes are all 0xAB: what the driver fills outputs with.
float untouchedFloat() {
  float f;
  unsigned char bytes[sizeof f];
  std::memset(bytes, 0xAB, sizeof bytes);
  std::memcpy(&f, bytes, sizeof f);
  return f;
}

// Shine's use of padEmpty (harrisCornerDetectionHalide.scala): rows of w - 4
// computed values stored in rows of w; the last 4 of each row are never
// written.
const char* kPaddedRows = R"(
def paddedRows = depFun((h: Nat, w: Nat) => fun(xs: h.(w + 4).f32 =>
  xs |> map(fun(row => row |> slide(5, 1) |> map(reduce(add, 0.0f)))) |> map(padEmpty(4))))
)";

TEST(PadEmpty, TheGeneratedCodeLeavesThePaddingOfAnOutputUntouched) {
  for (codegen::Target t : {codegen::Target::C, codegen::Target::OpenMP}) {
    for (interp::SizeEnv s : std::vector<interp::SizeEnv>{
             {{"h", 0}, {"w", 1}}, {{"h", 1}, {"w", 1}}, {{"h", 3}, {"w", 5}}}) {
      GeneratedRun r = runGenerated("padded_rows.rise", kPaddedRows, t, s, 7);
      ASSERT_TRUE(r.actual.isArray());
      ASSERT_EQ(r.actual.size(), r.expected.size());
      std::size_t w = static_cast<std::size_t>(s.at("w"));
      for (std::size_t i = 0; i < r.actual.size(); ++i) {
        const interp::Value &a = r.actual[i], &e = r.expected[i];
        ASSERT_EQ(a.size(), w + 4);
        for (std::size_t j = 0; j < w + 4; ++j) {
          float got = static_cast<float>(a[j].asScalar().asDouble());
          if (j < w) {
            EXPECT_NEAR(got, e[j].asScalar().asDouble(), 1e-4) << i << "," << j;
          } else {
            float u = untouchedFloat();
            EXPECT_EQ(std::memcmp(&got, &u, sizeof got), 0) << "padding " << i << "," << j;
            EXPECT_EQ(e[j].asScalar().asDouble(), 0.0); // the interpreter's zeros
          }
        }
      }
    }
  }
}

} // namespace
