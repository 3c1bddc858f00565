// Strategy files: diagnostics (exact code, line:col, message) and the
// semantics of combinators and traversals.
#include "ElevateTestUtil.h"

#include <algorithm>

using namespace risec;
using namespace risec::testutil;

namespace {

void expectError(const std::string& text, const std::string& code, int line, int col,
                 const std::string& message) {
  try {
    strategy(text);
    FAIL() << "no error for: " << text;
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), code);
    EXPECT_EQ(e.location().line, line);
    EXPECT_EQ(e.location().column, col);
    EXPECT_EQ(e.message(), message);
  }
}

TEST(ElevateParser, Diagnostics) {
  expectError("splitJoin(32) @ outermost(isMpa)", "E0703", 1, 27,
              "unknown strategy `isMpa`; did you mean `isMap`?");
  // the same words in another order, never the opposite rule (fusion, fission)
  expectError("reduceMapFusion @ everywhere", "E0703", 1, 1,
              "unknown strategy `reduceMapFusion`; did you mean `fuseReduceMap`?");
  expectError("mapFusoin", "E0703", 1, 1,
              "unknown strategy `mapFusoin`; did you mean `mapFusion`?");
  expectError("splitJoin(32, 4)", "E0704", 1, 1,
              "`splitJoin` takes 1 argument, but 2 arguments were given");
  expectError("splitJoin(isMap)", "E0705", 1, 11,
              "argument 1 of `splitJoin` must be an integer, but this is a strategy");
  expectError("mapToSeq ;\n  ;", "E0702", 2, 3, "expected a strategy, found `;`");
  expectError("mapToSeq $", "E0701", 1, 10, "unexpected character `$` in a strategy file");
  expectError("splitJoin(0)", "E0712", 1, 11, "`splitJoin` needs a size of at least 1, but got 0");
  expectError("repeatNTimes(20001, id)", "E0712", 1, 14,
              "`repeatNTimes` repeats a strategy 0 to 20000 times, but got 20001");
  expectError("mapToGlobal(3)", "E0712", 1, 13,
              "`mapToGlobal` takes an OpenCL dimension 0, 1 or 2, but got 3");
  expectError("def a = id\ndef a = id\na", "E0706", 2, 1,
              "`a` is already defined; choose another name");
  expectError("def a = id\n", "E0702", 2, 1,
              "a strategy file must end with the strategy to apply, but it ends here");
  expectError("mapToSeq @ mapFusion", "E0705", 1, 12,
              "`mapFusion` is a rule, not a traversal or location");
}

TEST(ElevateParser, PrecedenceAndDefs) {
  Typed t = typed("def f = depFun((n: Nat) => fun(ys: n.f32 => ys |> map(neg) |> map(fabs)))");
  // `@` binds tighter than `<+`, which binds tighter than `;`.
  auto r =
      rewrite(t, "def seqAll(s) = s @ everywhere\nfail <+ mapToSeq @ topDown ; seqAll(mapToPar)");
  EXPECT_EQ(printed(r), "depFun(n: Nat => fun(ys: n.f32 => ys |> mapPar(neg) |> mapSeq(fabs)))");
}

TEST(ElevateSemantics, CombinatorsAndTraversals) {
  Typed t = typed("def f = depFun((n: Nat) => fun(ys: n.f32 => ys |> map(neg) |> map(fabs)))");
  EXPECT_THROW(rewrite(t, "fail"), CompileError);
  EXPECT_EQ(printed(rewrite(t, "id")), printed(t.def));
  EXPECT_EQ(printed(rewrite(t, "try(fail)")), printed(t.def));
  // topDown: the first (outermost) map only; bottomUp: the innermost
  EXPECT_NE(printed(rewrite(t, "mapToSeq @ topDown")).find("mapSeq(fabs)"), std::string::npos);
  EXPECT_NE(printed(rewrite(t, "mapToSeq @ bottomUp")).find("mapSeq"), std::string::npos);
  EXPECT_EQ(printed(rewrite(t, "normalize(mapToSeq)")).find("map("), std::string::npos);
  EXPECT_EQ(printed(rewrite(t, "tryAll(mapToSeq)")).find("map("), std::string::npos);
  EXPECT_THROW(rewrite(t, "allTopdown(mapToSeq)"), CompileError);
  EXPECT_EQ(printed(rewrite(t, "repeat(mapToSeq @ topDown)")).find("map("), std::string::npos);
  // one/some/all at the root (a depFun has one child, its body)
  EXPECT_THROW(rewrite(t, "one(mapToSeq)"), CompileError);
  EXPECT_NE(printed(rewrite(t, "body(body(mapToSeq @ topDown))")).find("mapSeq"),
            std::string::npos);
  EXPECT_NE(printed(rewrite(t, "(mapToSeq @ fmap) @ outermost(isMap) <+ id")).find("map(fabs)"),
            std::string::npos);
  EXPECT_THROW(rewrite(t, "repeat(createTransposePair @ topDown) @ everywhere"), std::exception);
  // repeatNTimes(n, s): s exactly n times in sequence; 0 times is id
  EXPECT_EQ(printed(rewrite(t, "repeatNTimes(0, mapToSeq @ topDown)")), printed(t.def));
  EXPECT_EQ(printed(rewrite(t, "repeatNTimes(1, mapToSeq @ topDown)")),
            "depFun(n: Nat => fun(ys: n.f32 => ys |> map(neg) |> mapSeq(fabs)))");
  EXPECT_EQ(printed(rewrite(t, "repeatNTimes(2, mapToSeq @ topDown)")).find("map("),
            std::string::npos);
  EXPECT_THROW(rewrite(t, "repeatNTimes(3, mapToSeq @ topDown)"), CompileError);
}

TEST(ElevateSemantics, NormalForms) {
  Typed t = typed(
      "def f = depFun((n: Nat) => fun(ys: n.f32 => fun(r => r |> map(fun(y => neg(y))))(ys) |> "
      "map(fabs)))");
  EXPECT_EQ(printed(rewrite(t, "BENF")),
            "depFun(n: Nat => fun(ys: n.f32 => ys |> map(neg) |> map(fabs)))");
  std::string dfnf = printed(rewrite(t, "DFNF"));
  EXPECT_EQ(dfnf.find("map(neg)"), std::string::npos) << dfnf;
  EXPECT_EQ(printed(rewrite(t, "CNF")),
            "depFun(n: Nat => fun(ys: n.f32 => ys |> map(fun(y1 => fabs(-y1)))))");
  Typed fused =
      typed("def f = depFun((n: Nat) => fun(ys: n.f32 => ys |> map(fun(y => fabs(neg(y))))))");
  std::string rnf = printed(rewrite(fused, "RNF"));
  EXPECT_NE(rnf.find("|> map(fun(x"), std::string::npos) << rnf;
}

TEST(ElevateDiagnostics, FailureNamesTheRuleItsPlaceAndTheFragment) {
  Typed t = typed("def f = depFun((n: Nat) => fun(ys: n.f32 => ys |> reduce(add)(0.0f)))");
  try {
    rewrite(t, "id ;\n  splitJoin(4) @ outermost(isReduce)");
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0710");
    EXPECT_EQ(e.location().line, 2);
    EXPECT_EQ(e.location().column, 3);
    EXPECT_EQ(e.message(), "the strategy failed at the step `splitJoin(4) @ outermost(isReduce)`: "
                           "`splitJoin(4)` does not apply to ys |> reduce(add, 0.0f)");
    ASSERT_EQ(e.notes().size(), 3u);
    EXPECT_EQ(e.notes()[0].message, "the rule `splitJoin(4)` rewrites map(f)"); // what it needs
    EXPECT_EQ(e.notes()[0].location.line, 2);
    EXPECT_EQ(e.notes()[1].message, "the term it was applied to comes from here");
    EXPECT_EQ(e.notes()[1].location.line, 1);
    EXPECT_EQ(e.notes()[1].location.column, 51); // the `reduce` of ys |> reduce(...)
    EXPECT_EQ(e.notes()[2].message, "the step before it succeeded: `id`");
    EXPECT_EQ(e.notes()[2].location.line, 1);
  }
}

// A rule whose shape matches but whose condition does not says which
// condition failed (RuleContext::refuse), after the term's origin.
TEST(ElevateDiagnostics, FailureSaysWhichConditionOfTheRuleFailed) {
  Typed t = typed("def f = depFun((n: Nat) => fun(ys: n.f32 => ys |> reduce(max)(0.0f)))");
  try {
    rewrite(t, "id ;\n  blockedReduce(4) @ outermost(isReduce)");
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0710");
    ASSERT_EQ(e.notes().size(), 3u);
    EXPECT_EQ(e.notes()[1].message,
              "the term it was applied to comes from here: its operator and initial value are not "
              "`add` with 0 or `mul` with 1 (every chunk's reduction starts from the initial "
              "value, which must be the operator's neutral element)");
  }
  try {
    rewrite(t, "reduceToWorkGroups(8, 32) @ outermost(isReduce)");
  } catch (const CompileError& e) {
    FAIL() << "max with any literal is splittable: " << e.message();
  }
  Typed sub = typed("def f = depFun((n: Nat) => fun(ys: n.f32 => ys |> reduce(fun(a, b => a - "
                    "b))(0.0f)))");
  try {
    rewrite(sub, "reduceToWorkGroups(8, 32) @ outermost(isReduce)");
    FAIL();
  } catch (const CompileError& e) {
    ASSERT_EQ(e.notes().size(), 2u);
    EXPECT_NE(e.notes()[1].message.find(": its operator is not `add`, `mul`, `max` or `min`"),
              std::string::npos)
        << e.notes()[1].message;
  }
}

// A traversal tries the rule at many terms. Where one of them has the rule's
// shape but fails a condition, that refusal is reported (the term and the
// reason), not the root of the traversal, which only lacks the shape
// (libFuzzer finding L3: vectorize(31) of rows of 32 named the whole input).
TEST(ElevateDiagnostics, ATraversalReportsTheRefusalWithItsReason) {
  Typed t = typed("def f = depFun((n: Nat) => fun(xs: n.32.f32 =>\n"
                  "  xs |> map(fun(row => row |> map(fun(v => v * 2.0f))))))");
  try {
    rewrite(t, "vectorize(31) @ topDown");
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0710");
    EXPECT_NE(e.message().find("`vectorize(31)` does not apply to row |> map("), std::string::npos)
        << e.message();
    ASSERT_EQ(e.notes().size(), 2u);
    EXPECT_NE(e.notes()[1].message.find(": its array has 32 elements, not a multiple of 31"),
              std::string::npos)
        << e.notes()[1].message;
  }
}

/// The E0710 that `strat` ends in on the program of `t`.
CompileError strategyFailure(const Typed& t, const std::string& strat) {
  try {
    rewrite(t, strat);
  } catch (const CompileError& e) {
    return e;
  }
  ADD_FAILURE() << "the strategy did not fail: " << strat;
  return CompileError("", {}, "");
}

TEST(ElevateDiagnostics, AStepWhoseLocationMatchesNothingIsReportedAsWritten) {
  // the third step fails: isReduce holds nowhere once reduceToSeq ran. The
  // last rule failure (mapToSeq at the end of its `everywhere`) is not it.
  Typed t = typed("def f = depFun((n: Nat) => fun(ys: n.f32 => ys |> reduce(add)(0.0f)))");
  CompileError e = strategyFailure(t, "reduceToSeq @ everywhere ;\n"
                                      "mapToSeq @ everywhere ;\n"
                                      "  splitJoin(4) @ outermost(isReduce) ;\n"
                                      "id");
  EXPECT_EQ(e.code(), "E0710");
  EXPECT_EQ(e.location().line, 3);
  EXPECT_EQ(e.location().column, 3);
  EXPECT_EQ(e.message(), "the strategy failed at the step `splitJoin(4) @ outermost(isReduce)`: "
                         "nothing in the program matches it; the program at this step is "
                         "depFun(n: Nat => fun(ys: n.f32 => ys |> reduceSeq(add, 0.0f)))");
  ASSERT_FALSE(e.notes().empty());
  EXPECT_EQ(e.notes().back().message, "the 2 steps before it succeeded, from `reduceToSeq @ "
                                      "everywhere` to `mapToSeq @ everywhere`");
}

TEST(ElevateDiagnostics, AFailureInsideADefIsReportedAtItsOwnStep) {
  Typed t = typed("def f = depFun((n: Nat) => fun(ys: n.f32 => ys |> map(fun(y => y * 2.0f))))");
  CompileError e = strategyFailure(t, "def twice = mapToSeq @ outermost(isMap) ;\n"
                                      "            mapToSeq @ outermost(isMap)\n"
                                      "id ;\n"
                                      "twice");
  EXPECT_EQ(e.location().line, 2);
  EXPECT_EQ(e.location().column, 13);
  EXPECT_NE(e.message().find("at the step `mapToSeq @ outermost(isMap)`"), std::string::npos)
      << e.message();
  ASSERT_FALSE(e.notes().empty());
  // the steps before it: `id` (the main sequence), then the def's first step
  EXPECT_EQ(e.notes().back().message,
            "the 2 steps before it succeeded, from `id` to `mapToSeq @ outermost(isMap)`");
  EXPECT_EQ(e.notes().back().location.line, 3);
}

TEST(ElevateDiagnostics, RecoveredFailuresAreNotReported) {
  Typed t = typed("def f = depFun((n: Nat) => fun(ys: n.f32 => ys |> map(fun(y => y * 2.0f))))");
  // the failure inside `try` (no reduce) is recovered from; the step after it fails
  CompileError e = strategyFailure(t, "try(id ; splitJoin(4) @ outermost(isReduce)) ;\n"
                                      "repeat(mapToSeq @ outermost(isMap)) ;\n"
                                      "vectorize(4) @ outermost(isMap)");
  EXPECT_EQ(e.location().line, 3);
  EXPECT_EQ(e.location().column, 1);
  EXPECT_NE(e.message().find("at the step `vectorize(4) @ outermost(isMap)`: nothing in the "
                             "program matches it"),
            std::string::npos)
      << e.message();
}

TEST(ElevateDiagnostics, ALongTermIsCutToItsFirstLines) {
  std::string body = "ys";
  for (int i = 0; i < 30; ++i)
    body += " |> map(fun(y => y * 2.0f))";
  Typed t = typed("def f = depFun((n: Nat) => fun(ys: n.f32 => " + body + "))");
  CompileError e = strategyFailure(t, "id ;\nsplitJoin(4) @ outermost(isReduce)");
  EXPECT_NE(e.message().find(" more lines)"), std::string::npos) << e.message();
  EXPECT_LE(std::count(e.message().begin(), e.message().end(), '\n'), 12) << e.message();
}

} // namespace

TEST(ElevateDiagnostics, NonTerminatingStrategyIsStoppedWithItsPlace) {
  Typed t = typed("def f = depFun((n: Nat) => fun(ys: n.f32 => ys |> map(fun(y => y))))");
  try {
    rewrite(t, "repeat(id)"); // `id` always succeeds, so repeat never stops
    FAIL();
  } catch (const CompileError& e) {
    EXPECT_EQ(e.code(), "E0711");
    EXPECT_EQ(e.location().line, 1);
    EXPECT_NE(e.message().find("did not terminate"), std::string::npos) << e.message();
  }
}
