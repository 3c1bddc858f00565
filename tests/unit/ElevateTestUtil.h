// Helpers shared by the strategy-language and rule tests: parse and type a
// program, run a strategy on it, compare results with the interpreter.
#pragma once

#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"
#include "rules/RiseUtil.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace risec::testutil {

struct Typed {
  rise::Program program;
  rise::TypedDef def;
};

inline Typed typed(const std::string& text, const std::string& name = "<program>") {
  Typed t;
  t.program = rise::parseProgram(rise::makeSourceFile(name, text));
  t.def = rise::inferDef(t.program, t.program.defs.back().name);
  return t;
}

inline elevate::StrategyPtr strategy(const std::string& text,
                                     const std::string& name = "test.elevate") {
  return elevate::loadStrategy(rise::makeSourceFile(name, text));
}

/// Rewrites; nullopt with the CompileError message when the strategy fails.
inline rise::TypedDef rewrite(const Typed& t, const std::string& strat) {
  return elevate::rewriteDef(t.program, t.def, *strategy(strat));
}

inline std::string printed(const rise::TypedDef& d) {
  return rise::printExpr(rules::stripImplicit(d.expr));
}

/// Body of a `def` in `text` (the last), typed and stripped, for comparisons.
inline rise::Expr expected(const std::string& text) {
  return rules::stripImplicit(typed(text).def.expr);
}

/// Evaluates both defs on the same random inputs (sizes given) and compares.
inline ::testing::AssertionResult sameResults(const rise::TypedDef& a, const rise::TypedDef& b,
                                              const rise::interp::SizeEnv& sizes,
                                              std::uint64_t seed) {
  using namespace rise::interp;
  EntryInterface iface = instantiateEntry(a, sizes);
  std::mt19937_64 rng(seed);
  std::vector<Value> inputs;
  for (const rise::Type& t : iface.inputTypes)
    inputs.push_back(randomValue(t, rng));
  Value va = evaluate(a, sizes, inputs);
  Value vb = evaluate(b, sizes, inputs);
  std::string why;
  if (valuesClose(vb, va, 1e-4, 1e-5, &why))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "results differ " << why;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace risec::testutil
