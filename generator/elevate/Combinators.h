// The strategy building blocks (docs/strategies.md): combinators, traversals,
// locations, predicates, normal forms, and rules as strategies. Each factory
// takes the display text and the location of the strategy in its file.
#pragma once

#include "elevate/Strategy.h"
#include "rules/Rule.h"

#include <functional>

namespace risec::elevate {

// ---- combinators (Combinators.cpp) -------------------------------------------
StrategyPtr idStrategy(SourceLocation loc);
StrategyPtr failStrategy(SourceLocation loc);
StrategyPtr seq(StrategyPtr a, StrategyPtr b, SourceLocation loc); ///< a ; b
/// a ; b as written in a strategy file: when a step fails, the diagnostic
/// names it and the steps before it (Session::stepFailure). `seq` is for the
/// sequences that the library builds (`p ; s` of `s @ outermost(p)`).
StrategyPtr stepSeq(StrategyPtr a, StrategyPtr b, SourceLocation loc);
/// `s` displayed as `text` (a step as the user wrote it).
StrategyPtr asWritten(StrategyPtr s, std::string text, SourceLocation loc);
StrategyPtr leftChoice(StrategyPtr a, StrategyPtr b, SourceLocation loc); ///< a <+ b
StrategyPtr tryStrategy(StrategyPtr s, SourceLocation loc);               ///< s <+ id
StrategyPtr repeat(StrategyPtr s, SourceLocation loc);                    ///< try(s ; repeat(s))
/// s ; s ; ... (n times; id when n is 0): Shine's repeatNTimes. Fails where an s fails.
StrategyPtr repeatNTimes(std::int64_t n, StrategyPtr s, SourceLocation loc);

// ---- traversals (Traversals.cpp) ---------------------------------------------
enum class Traversal {
  TopDown,
  BottomUp,
  AllTopdown,
  AllBottomup,
  TryAll,
  Normalize,
  One,
  All,
  Some,
  Body,
  Function,
  Argument,
  Fmap,
  TopDownArgumentFirst,  ///< topDown visiting an argument before its function
  BottomUpArgumentFirst, ///< bottomUp visiting an argument before its function
};
StrategyPtr traverse(Traversal t, StrategyPtr s, SourceLocation loc);
/// Shine's inLambda(s) = (isLambda ; body(inLambda(s))) <+ s: s under the
/// leading binders (here also dependent ones: the entry's sizes).
StrategyPtr inLambda(StrategyPtr s, SourceLocation loc);

// ---- Shine's storeInMemory(what, how) (StoreInMemory.cpp) ---------------------
StrategyPtr storeInMemory(StrategyPtr what, StrategyPtr how, SourceLocation loc);

// ---- locations (Locations.cpp) ------------------------------------------------
StrategyPtr outermost(StrategyPtr pred, StrategyPtr s, SourceLocation loc);
StrategyPtr innermost(StrategyPtr pred, StrategyPtr s, SourceLocation loc);
StrategyPtr everywhere(StrategyPtr s, SourceLocation loc);
/// outermost and innermost visiting an argument before its function (Shine's
/// alternative2 traversal, which tvmGemm's outermost and innermost use).
StrategyPtr outermostArgFirst(StrategyPtr pred, StrategyPtr s, SourceLocation loc);
StrategyPtr innermostArgFirst(StrategyPtr pred, StrategyPtr s, SourceLocation loc);

// ---- predicates (Predicates.cpp) ----------------------------------------------
/// A strategy that succeeds (unchanged) when `test` holds at the focus.
StrategyPtr predicate(std::string display, std::function<bool(const Expr&)> test,
                      SourceLocation loc);
bool isMapNode(const Expr& e);
bool isMapNest(const Expr& e, int depth);
/// isApplied(p): the focus is an application whose function satisfies p.
StrategyPtr isApplied(StrategyPtr p, SourceLocation loc);

// ---- normal forms (NormalForms.cpp) ---------------------------------------------
StrategyPtr normalForm(const std::string& name, SourceLocation loc); ///< BENF DFNF RNF CNF

// ---- rules (RuleStrategy.cpp) ---------------------------------------------------
StrategyPtr ruleStrategy(std::string display, rules::RuleFn fn, SourceLocation loc);
/// A rule of the registry with its arguments.
StrategyPtr namedRule(const std::string& name, const std::vector<rules::RuleArg>& args,
                      SourceLocation loc);

} // namespace risec::elevate
