#include "tune/Constraints.h"

#include "support/Diagnostic.h"

#include <z3++.h>

#include <algorithm>
#include <functional>

namespace risec::tune {

using elevate::ParamValues;
using elevate::SExpr;

std::vector<std::int64_t> domainOf(const TuneProblem& p, const elevate::StrategyParameter& param) {
  if (!param.candidates.empty())
    return param.candidates;
  auto it = p.fixed.find(param.name);
  return {it == p.fixed.end() ? param.defaultValue : it->second};
}

namespace {

/// The names of every requirement must be parameters or constants (E0833).
void checkNames(const TuneProblem& p) {
  for (const elevate::StrategyRequirement& r : p.iface.requirements) {
    std::vector<std::string> names;
    elevate::namesIn(*r.cond, names);
    for (const std::string& n : names)
      if (!p.iface.find(n) && !p.constants.count(n)) {
        std::string known;
        for (const auto& [k, v] : p.constants)
          known += (known.empty() ? "" : ", ") + k;
        throw CompileError("E0833", r.loc,
                           "this requirement names `" + n +
                               "`, which is neither a parameter of the strategy nor a machine "
                               "fact or bench size that `risec tune` knows (" +
                               known + "); give the size with --sizes or in the spec's `bench:`");
      }
  }
}

/// C's truncating division and remainder on Z3 integers (Z3's own div and
/// mod are Euclidean; they agree with C's on the non-negative values the
/// strategies compute with, and this keeps negative ones exact too).
z3::expr cDiv(const z3::expr& a, const z3::expr& b) {
  z3::expr na = -a, nb = -b;
  return z3::ite(a >= 0, z3::ite(b > 0, a / b, -(a / nb)), z3::ite(b > 0, -(na / b), na / nb));
}

struct Translator {
  z3::context& ctx;
  const std::map<std::string, z3::expr>& vars;
  const ParamValues& constants;
  z3::expr_vector guards; ///< divisors are nonzero

  static z3::expr asInt(const z3::expr& e) {
    return e.is_bool() ? z3::ite(e, e.ctx().int_val(1), e.ctx().int_val(0)) : e;
  }
  static z3::expr asBool(const z3::expr& e) { return e.is_bool() ? e : e != 0; }

  z3::expr operator()(const SExpr& e) {
    switch (e.kind) {
    case SExpr::Kind::Int:
      return ctx.int_val(static_cast<int64_t>(e.value));
    case SExpr::Kind::Name: {
      auto v = vars.find(e.name);
      if (v != vars.end())
        return v->second;
      return ctx.int_val(static_cast<int64_t>(constants.at(e.name)));
    }
    case SExpr::Kind::Binary:
      break;
    }
    z3::expr l = (*this)(*e.lhs), r = (*this)(*e.rhs);
    const std::string& op = e.name;
    if (op == "&&")
      return asBool(l) && asBool(r);
    l = asInt(l);
    r = asInt(r);
    if (op == "+")
      return l + r;
    if (op == "-")
      return l - r;
    if (op == "*")
      return l * r;
    if (op == "/" || op == "%") {
      guards.push_back(r != 0);
      z3::expr q = cDiv(l, r);
      return op == "/" ? q : l - r * q;
    }
    if (op == "==")
      return l == r;
    if (op == "!=")
      return l != r;
    if (op == "<")
      return l < r;
    if (op == "<=")
      return l <= r;
    if (op == ">")
      return l > r;
    if (op == ">=")
      return l >= r;
    throw InternalError("tune: unknown operator `" + op + "` in a requirement");
  }
};

bool lexLess(const TuneProblem& p, const ParamValues& a, const ParamValues& b) {
  for (const elevate::StrategyParameter& q : p.iface.params) {
    std::int64_t x = a.at(q.name), y = b.at(q.name);
    if (x != y)
      return x < y;
  }
  return false;
}

void sortCandidates(const TuneProblem& p, std::vector<ParamValues>& v) {
  std::sort(v.begin(), v.end(),
            [&](const ParamValues& a, const ParamValues& b) { return lexLess(p, a, b); });
}

} // namespace

std::vector<ParamValues> solveCandidates(const TuneProblem& p) {
  checkNames(p);
  z3::context ctx;
  z3::solver solver(ctx);
  std::map<std::string, z3::expr> vars;
  for (const elevate::StrategyParameter& q : p.iface.params) {
    z3::expr x = ctx.int_const(q.name.c_str());
    vars.emplace(q.name, x);
    z3::expr_vector in(ctx);
    for (std::int64_t v : domainOf(p, q))
      in.push_back(x == ctx.int_val(static_cast<int64_t>(v)));
    solver.add(z3::mk_or(in));
  }
  Translator tr{ctx, vars, p.constants, z3::expr_vector(ctx)};
  for (const elevate::StrategyRequirement& r : p.iface.requirements)
    solver.add(Translator::asBool(tr(*r.cond)));
  for (unsigned i = 0; i < tr.guards.size(); ++i)
    solver.add(tr.guards[static_cast<int>(i)]);

  std::vector<ParamValues> out;
  while (solver.check() == z3::sat) {
    z3::model m = solver.get_model();
    ParamValues binding;
    z3::expr_vector differs(ctx);
    for (const auto& [name, x] : vars) {
      std::int64_t v = m.eval(x, true).get_numeral_int64();
      binding[name] = v;
      differs.push_back(x != ctx.int_val(static_cast<int64_t>(v)));
    }
    out.push_back(binding);
    if (vars.empty())
      break;
    solver.add(z3::mk_or(differs)); // block this model
  }
  sortCandidates(p, out);
  return out;
}

bool admits(const TuneProblem& p, const ParamValues& binding) {
  ParamValues values = p.constants;
  for (const auto& [k, v] : binding)
    values[k] = v;
  for (const elevate::StrategyRequirement& r : p.iface.requirements) {
    std::optional<std::int64_t> v = elevate::evaluate(*r.cond, values);
    if (!v || *v == 0)
      return false;
  }
  return true;
}

std::vector<ParamValues> bruteForceCandidates(const TuneProblem& p) {
  std::vector<ParamValues> out;
  ParamValues binding;
  std::function<void(std::size_t)> go = [&](std::size_t i) {
    if (i == p.iface.params.size()) {
      if (admits(p, binding))
        out.push_back(binding);
      return;
    }
    for (std::int64_t v : domainOf(p, p.iface.params[i])) {
      binding[p.iface.params[i].name] = v;
      go(i + 1);
    }
  };
  go(0);
  sortCandidates(p, out);
  return out;
}

void nearestFirst(std::vector<ParamValues>& candidates, const ParamValues& from) {
  auto distance = [&](const ParamValues& c) {
    std::size_t d = 0;
    for (const auto& [name, value] : c) {
      auto it = from.find(name);
      d += it == from.end() || it->second != value;
    }
    return d;
  };
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [&](const ParamValues& a, const ParamValues& b) { return distance(a) < distance(b); });
}

std::string constraintsText(const TuneProblem& p) {
  std::string s;
  for (const elevate::StrategyParameter& q : p.iface.params) {
    s += "  " + q.name + " in {";
    std::string items;
    for (std::int64_t v : domainOf(p, q))
      items += (items.empty() ? "" : ", ") + std::to_string(v);
    s += items + "}" + (q.candidates.empty() ? "  (no `in` list: fixed)" : "") + "\n";
  }
  for (const elevate::StrategyRequirement& r : p.iface.requirements)
    s += "  " + elevate::render(*r.cond) + "\n";
  std::string consts;
  for (const auto& [k, v] : p.constants)
    consts += (consts.empty() ? "" : ", ") + k + " = " + std::to_string(v);
  s += "  where " + consts + "\n";
  s += "  (every divisor nonzero; `/` and `%` truncate as in C)\n";
  return s;
}

} // namespace risec::tune
