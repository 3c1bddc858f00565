// The polynomial view of normal forms: every arithmetic smart constructor
// converts its operands to a NatPoly, computes there, and converts back, so
// flattening, distribution and combining of like terms live in one place.
#include "rise/nat/NatInternal.h"

#include <algorithm>

namespace risec::rise::detail {

namespace {

int compareFactor(const NatFactor& a, const NatFactor& b) {
  if (int c = natCompare(a.base, b.base); c != 0) {
    return c;
  }
  return natCompare(a.exp, b.exp);
}

bool monomialLess(const NatTerm& a, const NatTerm& b) {
  return compareMonomial(a.factors, b.factors) < 0;
}

// A constant raised to a constant power is part of the coefficient, not a
// factor (it can appear after exponents of equal constant bases are merged).
bool foldConstFactor(NatTerm& t, const NatFactor& f) {
  if (!f.base->isConst() || !f.exp->isConst() || f.exp->value() < 0) {
    return false;
  }
  auto power = checkedPow(f.base->value(), f.exp->value());
  auto coeff = power ? checkedMul(t.coeff, *power) : std::nullopt;
  if (!coeff) {
    return false;
  }
  t.coeff = *coeff;
  return true;
}

void appendFactor(NatTerm& t, const NatFactor& f) {
  if (f.exp->isConst(0) || foldConstFactor(t, f)) {
    return;
  }
  t.factors.push_back(f);
}

std::optional<NatTerm> mulTerms(const NatTerm& a, const NatTerm& b) {
  auto coeff = checkedMul(a.coeff, b.coeff);
  if (!coeff) {
    return std::nullopt;
  }
  NatTerm r{*coeff, {}};
  auto ia = a.factors.begin();
  auto ib = b.factors.begin();
  while (ia != a.factors.end() || ib != b.factors.end()) {
    int c = ia == a.factors.end() ? 1 : ib == b.factors.end() ? -1 : natCompare(ia->base, ib->base);
    if (c < 0) {
      appendFactor(r, *ia++);
    } else if (c > 0) {
      appendFactor(r, *ib++);
    } else {
      // Equal bases: n^a * n^b = n^(a+b).
      appendFactor(r, {ia->base, natAdd(ia->exp, ib->exp)});
      ++ia;
      ++ib;
    }
  }
  return r;
}

// Sorts terms by monomial and combines like terms (2*n + 3*n = 5*n).
std::optional<NatPoly> normalize(std::vector<NatTerm> terms) {
  std::stable_sort(terms.begin(), terms.end(), monomialLess);
  NatPoly out;
  for (auto& t : terms) {
    if (!out.empty() && compareMonomial(out.back().factors, t.factors) == 0) {
      auto sum = checkedAdd(out.back().coeff, t.coeff);
      if (!sum) {
        return std::nullopt;
      }
      out.back().coeff = *sum;
    } else {
      out.push_back(std::move(t));
    }
    if (out.back().coeff == 0) {
      out.pop_back();
    }
  }
  return out;
}

std::optional<NatPoly> foldPoly(const std::vector<Nat>& ops, NatPoly init,
                                std::optional<NatPoly> (*combine)(const NatPoly&, const NatPoly&)) {
  std::optional<NatPoly> acc = std::move(init);
  for (const auto& op : ops) {
    auto p = toPoly(op);
    if (!p) {
      return std::nullopt;
    }
    acc = combine(*acc, *p);
    if (!acc) {
      return std::nullopt;
    }
  }
  return acc;
}

Nat factorToNat(const NatFactor& f) {
  return f.exp->isConst(1) ? f.base : makeNode(NatKind::Pow, {f.base, f.exp});
}

bool natLess(const Nat& a, const Nat& b) {
  return natCompare(a, b) < 0;
}

} // namespace

int compareMonomial(const std::vector<NatFactor>& a, const std::vector<NatFactor>& b) {
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i) {
    if (int c = compareFactor(a[i], b[i]); c != 0) {
      return c;
    }
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

NatPoly polyConst(std::int64_t c) {
  if (c == 0) {
    return {};
  }
  return {NatTerm{c, {}}};
}

NatPoly polyOfTerm(NatTerm t) {
  if (t.coeff == 0) {
    return {};
  }
  return {std::move(t)};
}

std::optional<NatPoly> toPoly(const Nat& n) {
  switch (n->kind()) {
  case NatKind::Const:
    return polyConst(n->value());
  case NatKind::Sum:
    return foldPoly(n->operands(), {}, polyAdd);
  case NatKind::Prod:
    return foldPoly(n->operands(), polyConst(1), polyMul);
  case NatKind::Pow:
    return polyOfTerm({1, {{n->lhs(), n->rhs()}}});
  default:
    return polyOfTerm({1, {{n, natOne()}}});
  }
}

std::optional<NatPoly> polyAdd(const NatPoly& a, const NatPoly& b) {
  std::vector<NatTerm> terms = a;
  terms.insert(terms.end(), b.begin(), b.end());
  return normalize(std::move(terms));
}

std::optional<NatPoly> polyScale(const NatPoly& a, std::int64_t c) {
  NatPoly out;
  if (c == 0) {
    return out;
  }
  for (const auto& t : a) {
    auto coeff = checkedMul(t.coeff, c);
    if (!coeff) {
      return std::nullopt;
    }
    out.push_back({*coeff, t.factors});
  }
  return out;
}

std::optional<NatPoly> polySub(const NatPoly& a, const NatPoly& b) {
  auto negated = polyScale(b, -1);
  return negated ? polyAdd(a, *negated) : std::nullopt;
}

std::optional<NatPoly> polyMul(const NatPoly& a, const NatPoly& b) {
  std::vector<NatTerm> terms;
  terms.reserve(a.size() * b.size());
  for (const auto& ta : a) {
    for (const auto& tb : b) {
      auto t = mulTerms(ta, tb);
      if (!t) {
        return std::nullopt;
      }
      terms.push_back(std::move(*t));
    }
  }
  return normalize(std::move(terms));
}

Nat termToNat(const NatTerm& t) {
  if (t.factors.empty()) {
    return natConst(t.coeff);
  }
  if (t.coeff == 1 && t.factors.size() == 1) {
    return factorToNat(t.factors.front());
  }
  std::vector<Nat> ops;
  if (t.coeff != 1) {
    ops.push_back(natConst(t.coeff));
  }
  for (const auto& f : t.factors) {
    ops.push_back(factorToNat(f));
  }
  std::sort(ops.begin(), ops.end(), natLess);
  return makeNode(NatKind::Prod, std::move(ops));
}

Nat polyToNat(const NatPoly& p) {
  if (p.empty()) {
    return natZero();
  }
  if (p.size() == 1) {
    return termToNat(p.front());
  }
  std::vector<Nat> ops;
  for (const auto& t : p) {
    ops.push_back(termToNat(t));
  }
  std::sort(ops.begin(), ops.end(), natLess);
  return makeNode(NatKind::Sum, std::move(ops));
}

Nat finishPoly(NatPoly p) {
  return polyToNat(recombineDivMod(std::move(p)));
}

bool polyContains(const NatPoly& whole, const NatPoly& part) {
  return std::all_of(part.begin(), part.end(), [&](const NatTerm& t) {
    auto it = std::lower_bound(whole.begin(), whole.end(), t, monomialLess);
    return it != whole.end() && compareMonomial(it->factors, t.factors) == 0 &&
           it->coeff == t.coeff;
  });
}

std::optional<NatTerm> divideTerm(const NatTerm& t, const NatTerm& d) {
  auto rem = floorMod(t.coeff, d.coeff);
  auto quot = floorDiv(t.coeff, d.coeff);
  if (!rem || *rem != 0 || !quot) {
    return std::nullopt;
  }
  NatTerm q{*quot, {}};
  auto id = d.factors.begin();
  for (const auto& f : t.factors) {
    if (id == d.factors.end() || !natEqual(id->base, f.base)) {
      q.factors.push_back(f);
      continue;
    }
    // n^a / n^b = n^(a-b) only when a - b >= 0 is known; n^k / n is not
    // n^(k-1) when k may be 0.
    Nat exp = natSub(f.exp, id->exp);
    if (!exp->isConst() && !proveNonNegative(exp)) {
      return std::nullopt;
    }
    if (exp->isConst() && exp->value() < 0) {
      return std::nullopt;
    }
    appendFactor(q, {f.base, exp});
    ++id;
  }
  if (id != d.factors.end()) {
    return std::nullopt;
  }
  return q;
}

} // namespace risec::rise::detail
