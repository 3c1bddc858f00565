// Printing in RISE syntax, aiming for what a person would write:
//  - sums: unit-coefficient terms first, then terms with a coefficient, each
//    group by increasing degree (`i + m*lId + m*s*wgId`, `m*n + 2*m`);
//    plain variables before compound terms (`i + n/2`); negative terms after
//    positive ones and printed with `-` (`n - 2*m`);
//    the constant last (`n + 1`, `n - 3`) unless all else is subtracted
//    (`4 - i`);
//  - products: coefficient first, then size variables (no upper bound) before
//    index variables (with an upper bound), each by name (`m*lId`), then
//    compound factors (`2*(n/2)`);
//  - parentheses only where C precedence needs them (^ binds tightest and is
//    right associative).
#include "rise/nat/NatInternal.h"

#include <algorithm>
#include <tuple>

namespace risec::rise {

using namespace detail;

namespace {

enum Level { kAdditive = 1, kMultiplicative = 2, kPower = 3, kAtom = 4 };

struct TermParts {
  std::int64_t coeff = 1;
  std::vector<Nat> factors;
};

std::string print(const Nat& n);

TermParts splitTerm(const Nat& t) {
  if (t->isConst()) {
    return {t->value(), {}};
  }
  if (t->kind() != NatKind::Prod) {
    return {1, {t}};
  }
  const auto& ops = t->operands();
  if (ops.front()->isConst()) {
    return {ops.front()->value(), {ops.begin() + 1, ops.end()}};
  }
  return {1, ops};
}

int level(const Nat& n) {
  switch (n->kind()) {
  case NatKind::Const:
    return n->value() < 0 ? kAdditive : kAtom;
  case NatKind::Sum:
    return kAdditive;
  case NatKind::Prod:
    return splitTerm(n).coeff < 0 ? kAdditive : kMultiplicative;
  case NatKind::Div:
  case NatKind::Mod:
    return kMultiplicative;
  case NatKind::Pow:
    return kPower;
  default:
    return kAtom;
  }
}

std::string show(const Nat& n, int minLevel) {
  std::string s = print(n);
  return level(n) < minLevel ? "(" + s + ")" : s;
}

std::uint64_t magnitude(std::int64_t v) {
  return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

// The variable a factor is about (n for n and n^2), if any.
const NatVarInfo* factorVar(const Nat& f) {
  if (f->kind() == NatKind::Var) {
    return &f->var();
  }
  if (f->kind() == NatKind::Pow && f->lhs()->kind() == NatKind::Var) {
    return &f->lhs()->var();
  }
  return nullptr;
}

bool factorPrintsBefore(const Nat& a, const Nat& b) {
  const NatVarInfo* va = factorVar(a);
  const NatVarInfo* vb = factorVar(b);
  auto group = [](const NatVarInfo* v) { return v == nullptr ? 2 : (v->upper ? 1 : 0); };
  if (group(va) != group(vb)) {
    return group(va) < group(vb);
  }
  if (va && vb && std::tie(va->name, va->id) != std::tie(vb->name, vb->id)) {
    return std::tie(va->name, va->id) < std::tie(vb->name, vb->id);
  }
  return natCompare(a, b) < 0;
}

bool isDivOrMod(const Nat& n) {
  return n->kind() == NatKind::Div || n->kind() == NatKind::Mod;
}

// The factors joined by `*`; `leading` says whether something (a sign or a
// coefficient) is printed before them, which forces `(n/2)` to keep its
// parentheses: `-n/2` and `2*n/2` would group differently.
std::string printFactors(std::vector<Nat> factors, bool leading) {
  std::stable_sort(factors.begin(), factors.end(), factorPrintsBefore);
  std::string out;
  for (const auto& f : factors) {
    const bool first = out.empty() && !leading;
    std::string text = show(f, kMultiplicative);
    if (isDivOrMod(f) && !first) {
      text = "(" + text + ")";
    }
    out += (out.empty() ? "" : "*") + text;
  }
  return out;
}

// A term; with `magnitude_only` the sign is left to the caller (`a - 2*n`).
std::string printTerm(const TermParts& t, bool magnitudeOnly) {
  const bool negative = t.coeff < 0 && !magnitudeOnly;
  const std::uint64_t mag = magnitude(t.coeff);
  std::string sign = negative ? "-" : "";
  if (t.factors.empty()) {
    return sign + std::to_string(mag);
  }
  if (mag == 1) {
    return sign + printFactors(t.factors, negative);
  }
  return sign + std::to_string(mag) + "*" + printFactors(t.factors, true);
}

std::int64_t degree(const TermParts& t) {
  std::int64_t d = 0;
  for (const auto& f : t.factors) {
    const bool constPow = f->kind() == NatKind::Pow && f->rhs()->isConst() && f->rhs()->value() > 0;
    d += constPow ? f->rhs()->value() : 1;
  }
  return d;
}

struct SumTerm {
  Nat node;
  TermParts parts;
  std::string monomial; ///< the term printed without its coefficient
};

bool hasCompoundFactor(const TermParts& t) {
  return std::any_of(t.factors.begin(), t.factors.end(),
                     [](const Nat& f) { return factorVar(f) == nullptr; });
}

bool termPrintsBefore(const SumTerm& a, const SumTerm& b) {
  auto key = [](const SumTerm& t) {
    return std::make_tuple(t.parts.factors.empty(), t.parts.coeff < 0,
                           magnitude(t.parts.coeff) != 1, degree(t.parts),
                           hasCompoundFactor(t.parts));
  };
  if (key(a) != key(b)) {
    return key(a) < key(b);
  }
  if (a.monomial != b.monomial) {
    return a.monomial < b.monomial;
  }
  return natCompare(a.node, b.node) < 0;
}

std::string printSum(const std::vector<Nat>& ops) {
  std::vector<SumTerm> terms;
  for (const auto& op : ops) {
    TermParts parts = splitTerm(op);
    std::string mono = printFactors(parts.factors, false);
    terms.push_back({op, std::move(parts), std::move(mono)});
  }
  std::sort(terms.begin(), terms.end(), termPrintsBefore);
  // `4 - x` rather than `-x + 4`: a positive constant leads when every other
  // term is subtracted.
  const SumTerm& last = terms.back();
  if (last.parts.factors.empty() && last.parts.coeff > 0 && terms.front().parts.coeff < 0) {
    std::rotate(terms.begin(), terms.end() - 1, terms.end());
  }
  std::string out = printTerm(terms.front().parts, false);
  for (std::size_t i = 1; i < terms.size(); ++i) {
    const TermParts& t = terms[i].parts;
    out += (t.coeff < 0 ? " - " : " + ") + printTerm(t, true);
  }
  return out;
}

std::string printVar(const NatVarInfo& v) {
  if (v.meta && (v.name.empty() || v.name.front() != '?')) {
    return "?" + v.name;
  }
  return v.name;
}

std::string printBinary(const Nat& n, const char* op, int lhsLevel, int rhsLevel) {
  return show(n->lhs(), lhsLevel) + op + show(n->rhs(), rhsLevel);
}

std::string printCall(const char* name, const Nat& n) {
  return std::string(name) + "(" + print(n->lhs()) + ", " + print(n->rhs()) + ")";
}

std::string print(const Nat& n) {
  switch (n->kind()) {
  case NatKind::Const:
    return std::to_string(n->value());
  case NatKind::Var:
    return printVar(n->var());
  case NatKind::Sum:
    return printSum(n->operands());
  case NatKind::Prod:
    return printTerm(splitTerm(n), false);
  case NatKind::Div:
    return printBinary(n, "/", kMultiplicative, kPower);
  case NatKind::Mod:
    return printBinary(n, "%", kMultiplicative, kPower);
  case NatKind::Pow:
    return printBinary(n, "^", kAtom, kPower);
  case NatKind::Min:
    return printCall("min", n);
  case NatKind::Max:
    return printCall("max", n);
  }
  return "?";
}

} // namespace

std::string natToString(const Nat& n) {
  return print(n);
}

} // namespace risec::rise
