// Strategy parameters and requirements (elevate/StrategyParams.h,
// docs/strategies.md "Parameters"): parsing, evaluation, binding, the checks
// and their diagnostics, and a parameterised spec strategy preserving
// semantics at several bindings.
#include "elevate/StrategyParams.h"
#include "ElevateTestUtil.h"

using namespace risec;
using namespace risec::testutil;
using elevate::ParamValues;

namespace {

std::shared_ptr<const SourceFile> file(const std::string& text) {
  return rise::makeSourceFile("p.elevate", text);
}

/// The code of the error loading `text` with `bindings` raises, with its line.
std::string errorOf(const std::string& text, const ParamValues& bindings = {}, int* line = nullptr,
                    std::string* message = nullptr) {
  try {
    elevate::loadStrategy(file(text), bindings);
  } catch (const CompileError& e) {
    if (line)
      *line = e.location().line;
    if (message)
      *message = e.message();
    return e.code();
  }
  return "";
}

const char* kMv = R"(def mv = depFun((n: Nat, m: Nat) =>
  fun(M: n.m.f32 => fun(x: m.f32 =>
    M |> map(fun(row =>
      zip(row)(x) |> map(fun(ax => fst(ax) * snd(ax))) |> reduce(add)(0.0f))))))
)";

} // namespace

TEST(StrategyParams, DeclarationsRequirementsAndTheirText) {
  elevate::StrategyInterface i = elevate::strategyInterface(file(R"(
param mr = 8 in [2, 4, 8]
param vw = 16
require mr * (nr / vw) + nr / vw + 1 <= vector_registers
require a - (b - c) == a - b - c && (x + y) * z > 0;
id)"));
  ASSERT_EQ(i.params.size(), 2u);
  EXPECT_EQ(i.params[0].name, "mr");
  EXPECT_EQ(i.params[0].defaultValue, 8);
  EXPECT_EQ(i.params[0].candidates, (std::vector<std::int64_t>{2, 4, 8}));
  EXPECT_TRUE(i.params[1].candidates.empty());
  EXPECT_EQ(i.params[0].loc.line, 2);
  ASSERT_EQ(i.requirements.size(), 2u);
  // Rendering keeps exactly the parentheses the precedence needs.
  EXPECT_EQ(elevate::render(*i.requirements[0].cond),
            "mr * (nr / vw) + nr / vw + 1 <= vector_registers");
  EXPECT_EQ(elevate::render(*i.requirements[1].cond),
            "a - (b - c) == a - b - c && (x + y) * z > 0");
  std::vector<std::string> names;
  elevate::namesIn(*i.requirements[0].cond, names);
  EXPECT_EQ(names, (std::vector<std::string>{"mr", "nr", "vw", "vector_registers"}));
  EXPECT_EQ(i.bind({{"mr", 4}, {"other", 1}}), (ParamValues{{"mr", 4}, {"vw", 16}}));
}

TEST(StrategyParams, EvaluationIsIntegerArithmeticAndNeedsEveryName) {
  elevate::StrategyInterface i = elevate::strategyInterface(file(R"(
require mr * (nr / vw) + nr / vw + 1 <= vector_registers
require n % s
require 7 / 2 == 3 && 2 + 3 * 4 == 14 && 10 - 4 - 3 == 3 && 1 < 2 && 2 >= 2 && 1 != 2
id)"));
  const elevate::SExpr& regs = *i.requirements[0].cond;
  EXPECT_EQ(elevate::evaluate(regs, {{"mr", 4}, {"nr", 16}, {"vw", 8}, {"vector_registers", 16}}),
            1); // 4 * 2 + 2 + 1 = 11
  EXPECT_EQ(elevate::evaluate(regs, {{"mr", 8}, {"nr", 16}, {"vw", 8}, {"vector_registers", 16}}),
            0); // 19
  EXPECT_EQ(elevate::evaluate(regs, {{"mr", 4}, {"nr", 16}, {"vw", 8}}), std::nullopt);
  bool divByZero = false;
  EXPECT_EQ(elevate::evaluate(*i.requirements[1].cond, {{"n", 5}, {"s", 0}}, &divByZero),
            std::nullopt);
  EXPECT_TRUE(divByZero);
  EXPECT_EQ(elevate::evaluate(*i.requirements[2].cond, {}), 1);
}

TEST(StrategyParams, RequirementsAreCheckedWhenEveryNameHasAValue) {
  const std::string text = "param vw = 16 in [4, 8, 16]\n"
                           "require vw <= vector_lanes\n"
                           "require n % vw == 0\n"
                           "id\n";
  EXPECT_EQ(errorOf(text), "");                         // no machine facts: not checked
  EXPECT_EQ(errorOf(text, {{"vector_lanes", 16}}), ""); // holds
  EXPECT_EQ(errorOf(text, {{"vw", 8}, {"vector_lanes", 8}}), "");
  int line = 0;
  std::string message;
  EXPECT_EQ(errorOf(text, {{"vector_lanes", 8}}, &line, &message), "E0713");
  EXPECT_EQ(line, 2);
  EXPECT_NE(message.find("`vw <= vector_lanes` does not hold for vw = 16, vector_lanes = 8"),
            std::string::npos)
      << message;
  EXPECT_EQ(errorOf("param s = 2\nrequire 4 % (s - 2) == 0\nid\n", {}, nullptr, &message), "E0713");
  EXPECT_NE(message.find("divides by zero"), std::string::npos) << message;
}

TEST(StrategyParams, DeclarationErrorsAreLocated) {
  int line = 0;
  EXPECT_EQ(errorOf("param a = 1\nparam a = 2\nid\n", {}, &line), "E0706");
  EXPECT_EQ(line, 2);
  EXPECT_EQ(errorOf("param splitJoin = 4\nid\n"), "E0706");
  EXPECT_EQ(errorOf("param vector_lanes = 4\nid\n"), "E0706");
  EXPECT_EQ(errorOf("def f = id\nparam f = 4\nf\n"), "E0706");
  // 0 is a value: a strategy may switch a step off with it (`try(blockK(kc))`)
  EXPECT_EQ(errorOf("param a = 0\nid\n"), "");
  EXPECT_EQ(errorOf("param a = 2 in [0, 2]\nid\n"), "");
  EXPECT_EQ(errorOf("param a = -1\nid\n"), "E0702");
  EXPECT_EQ(errorOf("param a = 3 in [2, 4]\nid\n"), "E0712");
  EXPECT_EQ(errorOf("param a\nid\n"), "E0702");
  EXPECT_EQ(errorOf("param a = b\nid\n"), "E0702");
  EXPECT_EQ(errorOf("require a <\nid\n"), "E0702");
  EXPECT_EQ(errorOf("require a ! b\nid\n"), "E0701");
  // A parameter used as a strategy is a kind error, as for a def parameter.
  EXPECT_EQ(errorOf("param a = 2\na\n"), "E0705");
}

TEST(StrategyParams, BoundValuesReachTheRulesAndDefParametersShadowThem) {
  Typed t = typed(kMv);
  const std::string text = "param s = 4\n"
                           "def chunk(s) = splitJoin(s) @ outermost(isMap)\n"
                           "def chunkByParam = splitJoin(s) @ outermost(isMap)\n"
                           "chunkByParam ; chunk(2)\n";
  auto rewriteWith = [&](const ParamValues& b) {
    return elevate::rewriteDef(t.program, t.def, *elevate::loadStrategy(file(text), b));
  };
  rise::TypedDef byDefault = rewriteWith({});
  EXPECT_NE(printed(byDefault).find("split(4)"), std::string::npos) << printed(byDefault);
  EXPECT_NE(printed(byDefault).find("split(2)"), std::string::npos) << printed(byDefault);
  rise::TypedDef bound = rewriteWith({{"s", 8}});
  EXPECT_NE(printed(bound).find("split(8)"), std::string::npos) << printed(bound);
  EXPECT_EQ(printed(bound).find("split(4)"), std::string::npos) << printed(bound);
  EXPECT_TRUE(sameResults(t.def, bound, {{"n", 64}, {"m", 5}}, 3));
}

TEST(StrategyParams, RegisterTilesPreserveSemanticsAtEveryLevelsBinding) {
  Typed mm = typed(readFile(std::string(RISEC_TEST_DATA) + "/../specs/mm.rise"), "mm.rise");
  auto s = [](const ParamValues& b) {
    const std::string path = std::string(RISEC_TEST_DATA) + "/../specs/mm.register-tiles.elevate";
    return elevate::loadStrategy(rise::makeSourceFile(path, readFile(path)), b);
  };
  // The bindings of specs/mm.yaml's levels (SSE, AVX2, AVX-512 defaults).
  const std::vector<ParamValues> levels = {
      {{"mr", 2}, {"nr", 16}, {"vw", 4}, {"vector_lanes", 4}, {"vector_registers", 16}},
      {{"mr", 4}, {"nr", 16}, {"vw", 8}, {"vector_lanes", 8}, {"vector_registers", 16}},
      {{"mb", 48}, {"mr", 6}, {"nr", 16}, {"vw", 8}, {"vector_lanes", 8}, {"vector_registers", 16}},
      {{"vector_lanes", 16}, {"vector_registers", 32}}};
  for (const ParamValues& b : levels) {
    rise::TypedDef r = elevate::rewriteDef(mm.program, mm.def, *s(b));
    // whole tiles, and sizes that the strategy pads (padTile)
    EXPECT_TRUE(sameResults(mm.def, r, {{"m", 64}, {"n", 32}, {"k", 5}}, 11));
    EXPECT_TRUE(sameResults(mm.def, r, {{"m", 37}, {"n", 19}, {"k", 3}}, 12));
    EXPECT_TRUE(sameResults(mm.def, r, {{"m", 1}, {"n", 1}, {"k", 1}}, 13));
  }
  // The AVX-512 tile does not fit AVX2's 16 registers: refused, not spilled.
  EXPECT_THROW(s({{"vector_lanes", 16}, {"vector_registers", 16}}), CompileError);
}
