#include "elevate/StrategyParams.h"

#include "elevate/Registry.h"
#include "elevate/StrategyParser.h"
#include "rules/Rule.h"
#include "support/Diagnostic.h"

#include <algorithm>
#include <set>

namespace risec::elevate {

const StrategyParameter* StrategyInterface::find(const std::string& name) const {
  for (const StrategyParameter& p : params)
    if (p.name == name)
      return &p;
  return nullptr;
}

ParamValues StrategyInterface::bind(const ParamValues& bindings) const {
  ParamValues out;
  for (const StrategyParameter& p : params) {
    auto it = bindings.find(p.name);
    out[p.name] = it == bindings.end() ? p.defaultValue : it->second;
  }
  return out;
}

const std::vector<std::string>& machineFactNames() {
  static const std::vector<std::string> names = {"vector_lanes", "vector_registers"};
  return names;
}

StrategyInterface strategyInterface(const StrategyFileAst& ast) {
  StrategyInterface iface;
  std::set<std::string> defs;
  for (const SDef& d : ast.defs)
    defs.insert(d.name);
  for (const SParam& p : ast.params) {
    if (iface.find(p.name))
      throw CompileError("E0706", p.loc, "the parameter `" + p.name + "` is declared twice");
    const auto& facts = machineFactNames();
    if (defs.count(p.name) || StrategyRegistry::instance().find(p.name) ||
        ruleRegistry().find(p.name) || std::find(facts.begin(), facts.end(), p.name) != facts.end())
      throw CompileError("E0706", p.loc,
                         "`" + p.name +
                             "` is already the name of a def, rule, strategy or machine fact; "
                             "choose another parameter name");
    for (std::int64_t c : p.candidates)
      if (c < 0)
        throw CompileError("E0712", p.loc,
                           "the candidates of `" + p.name + "` must be at least 0, but " +
                               std::to_string(c) + " is listed");
    if (p.defaultValue < 0)
      throw CompileError("E0712", p.loc,
                         "the default of `" + p.name + "` must be at least 0, but it is " +
                             std::to_string(p.defaultValue));
    if (!p.candidates.empty() &&
        std::find(p.candidates.begin(), p.candidates.end(), p.defaultValue) == p.candidates.end())
      throw CompileError("E0712", p.loc,
                         "the default " + std::to_string(p.defaultValue) + " of `" + p.name +
                             "` is not one of its candidates (`in [...]`); add it to the list");
    iface.params.push_back(p);
  }
  iface.requirements = ast.requirements;
  return iface;
}

StrategyInterface strategyInterface(const std::shared_ptr<const SourceFile>& file) {
  return strategyInterface(parseStrategyFile(file));
}

std::optional<std::int64_t> evaluate(const SExpr& e, const ParamValues& values, bool* divByZero) {
  switch (e.kind) {
  case SExpr::Kind::Int:
    return e.value;
  case SExpr::Kind::Name: {
    auto it = values.find(e.name);
    if (it == values.end())
      return std::nullopt;
    return it->second;
  }
  case SExpr::Kind::Binary:
    break;
  }
  std::optional<std::int64_t> a = evaluate(*e.lhs, values, divByZero);
  std::optional<std::int64_t> b = evaluate(*e.rhs, values, divByZero);
  if (!a || !b)
    return std::nullopt;
  const std::string& op = e.name;
  if ((op == "/" || op == "%") && *b == 0) {
    if (divByZero)
      *divByZero = true;
    return std::nullopt;
  }
  if (op == "+")
    return *a + *b;
  if (op == "-")
    return *a - *b;
  if (op == "*")
    return *a * *b;
  if (op == "/")
    return *a / *b;
  if (op == "%")
    return *a % *b;
  if (op == "==")
    return *a == *b;
  if (op == "!=")
    return *a != *b;
  if (op == "<")
    return *a < *b;
  if (op == "<=")
    return *a <= *b;
  if (op == ">")
    return *a > *b;
  if (op == ">=")
    return *a >= *b;
  if (op == "&&")
    return *a != 0 && *b != 0;
  throw InternalError("unknown operator `" + op + "` in a strategy requirement");
}

namespace {

int precedence(const SExpr& e) {
  if (e.kind != SExpr::Kind::Binary)
    return 5;
  const std::string& op = e.name;
  if (op == "&&")
    return 1;
  if (op == "+" || op == "-")
    return 3;
  if (op == "*" || op == "/" || op == "%")
    return 4;
  return 2;
}

} // namespace

std::string render(const SExpr& e) {
  switch (e.kind) {
  case SExpr::Kind::Int:
    return std::to_string(e.value);
  case SExpr::Kind::Name:
    return e.name;
  case SExpr::Kind::Binary:
    break;
  }
  // Left-associative: the right operand needs parentheses at equal strength.
  std::string l = render(*e.lhs), r = render(*e.rhs);
  if (precedence(*e.lhs) < precedence(e))
    l = "(" + l + ")";
  if (precedence(*e.rhs) <= precedence(e))
    r = "(" + r + ")";
  return l + " " + e.name + " " + r;
}

void namesIn(const SExpr& e, std::vector<std::string>& out) {
  if (e.kind == SExpr::Kind::Name) {
    if (std::find(out.begin(), out.end(), e.name) == out.end())
      out.push_back(e.name);
    return;
  }
  if (e.kind == SExpr::Kind::Binary) {
    namesIn(*e.lhs, out);
    namesIn(*e.rhs, out);
  }
}

void checkRequirements(const StrategyInterface& iface, const ParamValues& values) {
  for (const StrategyRequirement& r : iface.requirements) {
    bool divByZero = false;
    std::optional<std::int64_t> v = evaluate(*r.cond, values, &divByZero);
    if (v && *v != 0)
      continue;
    if (!v && !divByZero)
      continue; // names a size or an absent machine fact
    std::vector<std::string> names;
    namesIn(*r.cond, names);
    std::string with;
    for (const std::string& n : names)
      with += (with.empty() ? "" : ", ") + n + " = " + std::to_string(values.at(n));
    throw CompileError("E0713", r.loc,
                       "the strategy's requirement `" + render(*r.cond) + "` does not hold" +
                           (divByZero ? " (it divides by zero)" : "") + " for " + with +
                           "; bind other values in the spec's `params:`");
  }
}

} // namespace risec::elevate
