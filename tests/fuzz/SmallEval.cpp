#include "SmallEval.h"

#include "FuzzSupport.h"

#include "rise/ast/Traverse.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <vector>

namespace risec::fuzz {

using namespace risec::rise;

namespace {

/// The value of `n` with the sizes of `env` (by name; an estimate, so a
/// shadowing inner binder of the same name is not told apart).
std::optional<std::int64_t> evaluateNat(const Nat& n, const interp::SizeEnv& env) {
  if (!n)
    return std::nullopt;
  return natEvaluate(n, [&](const NatVarInfo& v) -> std::optional<std::int64_t> {
    if (v.meta)
      return std::nullopt;
    auto it = env.find(v.name);
    return it == env.end() ? std::nullopt : std::optional<std::int64_t>(it->second);
  });
}

struct Shape {
  double largest = 1; ///< the most scalars of a node's type (unknown sizes left out)
  int depth = 0;      ///< the deepest nesting of `fun`s
  double nodes = 0;
  bool foreign = false;
};

void measure(const Expr& e, const interp::SizeEnv& env, int depth, Shape& s) {
  s.nodes += 1;
  if (e->kind() == ExprKind::Foreign)
    s.foreign = true;
  if (e->type() && e->type()->isData())
    if (Nat count = scalarCount(e->type()))
      if (auto v = evaluateNat(count, env))
        s.largest = std::max(s.largest, static_cast<double>(*v));
  int inner = depth + (e->kind() == ExprKind::Lambda ? 1 : 0);
  s.depth = std::max(s.depth, inner);
  forEachChild(e, [&](const Expr& c) { measure(c, env, inner, s); });
}

/// The work of an evaluation, over-estimated: every node runs once per call
/// of each enclosing `fun`, and a `fun` is called at most once per element of
/// an array (a map, a reduction, generate) of at most `largest` scalars.
double estimatedWork(const Shape& s) {
  return s.nodes * std::pow(std::max(2.0, s.largest), s.depth + 1);
}

/// An input the harness can make: concrete data, no `idx[0]` to pick from.
bool generatable(const Type& t) {
  switch (t->kind()) {
  case TypeKind::Scalar:
    return true;
  case TypeKind::Index: {
    auto n = evaluateNat(t->size(), {});
    return n && *n > 0;
  }
  case TypeKind::Vec:
    return evaluateNat(t->size(), {}).has_value() && t->elem()->kind() == TypeKind::Scalar;
  case TypeKind::Array: {
    auto n = evaluateNat(t->size(), {});
    return n && *n >= 0 && (*n == 0 || generatable(t->elem()));
  }
  case TypeKind::Pair:
    return generatable(t->first()) && generatable(t->second());
  default:
    return false;
  }
}

std::vector<interp::SizeEnv> candidateSizes(const std::vector<std::string>& names,
                                            std::uint64_t seed) {
  std::vector<interp::SizeEnv> out;
  for (std::int64_t v : {1, 2, 3, 4, 0, 6, 8}) {
    interp::SizeEnv env;
    for (const std::string& n : names)
      env[n] = v;
    out.push_back(env);
  }
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 4; ++i) {
    interp::SizeEnv env;
    for (const std::string& n : names)
      env[n] = static_cast<std::int64_t>(rng() % 9);
    out.push_back(env);
  }
  return out;
}

} // namespace

void evaluateOnSmallSizes(const TypedDef& def, std::uint64_t seed) {
  std::vector<std::string> names;
  if (!resultOrDiagnostic("interp sizes", [&] { names = interp::sizeParameters(def); }))
    return;
  if (names.empty())
    return;
  int evaluated = 0;
  for (const interp::SizeEnv& sizes : candidateSizes(names, seed)) {
    if (evaluated == 2)
      return;
    interp::EntryInterface iface;
    // A violated precondition is E0411: a user diagnostic, try other sizes.
    if (!resultOrDiagnostic("interp instantiate",
                            [&] { iface = interp::instantiateEntry(def, sizes); }))
      continue;
    bool ok = std::all_of(iface.inputTypes.begin(), iface.inputTypes.end(), generatable);
    if (!ok)
      return;
    Shape shape;
    measure(def.expr, sizes, 0, shape);
    if (shape.foreign)
      return; // the body of a foreign function is C that the harness does not run
    for (const Type& t : iface.inputTypes)
      if (auto v = evaluateNat(scalarCount(t), {}))
        shape.largest = std::max(shape.largest, static_cast<double>(*v));
    if (estimatedWork(shape) > kEvalBudget)
      continue;
    ++evaluated;
    std::mt19937_64 rng(seed + static_cast<std::uint64_t>(evaluated));
    std::vector<interp::Value> inputs;
    for (const Type& t : iface.inputTypes)
      inputs.push_back(interp::randomValue(t, rng));
    resultOrDiagnostic("interp evaluate", [&] {
      interp::Value v = interp::evaluate(def, sizes, inputs);
      if (auto m = interp::checkValueType(v, iface.outputType))
        finding("the interpreter's result does not have the def's type " +
                typeToString(iface.outputType) + ": " + m->str("the result"));
    });
  }
}

} // namespace risec::fuzz
