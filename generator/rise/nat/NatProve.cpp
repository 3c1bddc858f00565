// Proving n >= k. Interval analysis alone cannot see that n - i >= 1 for i in
// [0, n): the two occurrences of n are treated independently. So when the
// interval bound is not enough, an atom in which n is monotone is replaced by
// its symbolic bound (a variable with a negative slope by its upper bound - 1,
// i%d by d - 1, ...), the result re-simplified (n - (n - 1) = 1), and the
// proof retried. Each step only weakens the claim, so a success is a proof.
#include "rise/nat/NatInternal.h"

#include <algorithm>

namespace risec::rise {

using namespace detail;

namespace {

constexpr int kMaxDepth = 8;     // substitutions along one proof path
constexpr int kMaxAttempts = 32; // substituted expressions tried per proof
// The simplifier calls the prover, which calls the simplifier; nested proofs
// beyond this depth give up (soundly) instead of recursing without bound.
constexpr int kMaxNesting = 6;
thread_local int nesting = 0;

enum class Slope { None, Up, Down, Unknown };

Slope combineSlope(Slope a, Slope b) {
  if (a == Slope::None) {
    return b;
  }
  if (b == Slope::None) {
    return a;
  }
  return a == b ? a : Slope::Unknown;
}

// Sign of the coefficient of `atom` in one term, or None if it does not
// occur in it. The atom must occur only linearly and only as a factor.
Slope termSlope(const NatTerm& t, const Nat& atom) {
  NatTerm rest{t.coeff, {}};
  bool found = false;
  for (const auto& f : t.factors) {
    if (!found && f.exp->isConst(1) && natEqual(f.base, atom)) {
      found = true;
    } else if (natContains(f.base, atom) || natContains(f.exp, atom)) {
      return Slope::Unknown;
    } else {
      rest.factors.push_back(f);
    }
  }
  if (!found) {
    return Slope::None;
  }
  NatInterval iv = natInterval(termToNat(rest));
  if (iv.lo && *iv.lo >= 0) {
    return Slope::Up;
  }
  return iv.hi && *iv.hi <= 0 ? Slope::Down : Slope::Unknown;
}

Slope slopeIn(const NatPoly& p, const Nat& atom) {
  Slope s = Slope::None;
  for (const auto& t : p) {
    s = combineSlope(s, termSlope(t, atom));
  }
  return s;
}

bool hasMin(const Nat& n) {
  if (n->kind() == NatKind::Min)
    return true;
  for (const auto& op : n->operands())
    if (hasMin(op))
      return true;
  return false;
}

void collectAtoms(const Nat& n, std::vector<Nat>& out) {
  switch (n->kind()) {
  case NatKind::Var:
  case NatKind::Mod:
  case NatKind::Min:
  case NatKind::Max:
    out.push_back(n);
    break;
  default:
    break;
  }
  for (const auto& op : n->operands()) {
    collectAtoms(op, out);
  }
}

// Symbolic bounds worth substituting; constant ones are already used by the
// interval analysis.
void boundsFor(const Nat& atom, Slope slope, std::vector<Nat>& out) {
  auto symbolic = [](const Nat& b) { return b && !b->isConst(); };
  switch (atom->kind()) {
  case NatKind::Var:
    if (slope == Slope::Down && symbolic(atom->var().upper)) {
      out.push_back(natSub(atom->var().upper, natOne()));
    } else if (slope == Slope::Up && symbolic(atom->var().lower)) {
      out.push_back(atom->var().lower);
    }
    break;
  case NatKind::Mod: // i % d <= d - 1 for a positive divisor
    if (slope == Slope::Down && symbolic(atom->rhs()) && isAssumedPositiveDivisor(atom->rhs())) {
      out.push_back(natSub(atom->rhs(), natOne()));
    }
    break;
  case NatKind::Min: // min(a, b) <= a, b
  case NatKind::Max: // max(a, b) >= a, b
    if (slope == (atom->kind() == NatKind::Min ? Slope::Down : Slope::Up)) {
      out.push_back(atom->lhs());
      out.push_back(atom->rhs());
    }
    break;
  default:
    break;
  }
}

// d*(e/d) = e - e%d for a constant d > 0: each term c*(e/d)*rest whose
// coefficient d divides becomes (c/d)*rest*(e - e%d). An exact rewrite, so
// a proof of the result is a proof of n; it lets the interval of e%d,
// [0, d - 1], bound a rounded-up size: 32*((n + 31)/32) - n >= 0.
std::optional<Nat> expandDivisions(const NatPoly& p) {
  bool changed = false;
  Nat sum = natZero();
  for (const auto& t : p) {
    Nat term = termToNat(t);
    for (std::size_t i = 0; i < t.factors.size(); ++i) {
      const NatFactor& f = t.factors[i];
      if (f.base->kind() != NatKind::Div || !f.exp->isConst(1) || !f.base->rhs()->isConst())
        continue;
      std::int64_t d = f.base->rhs()->value();
      if (d <= 0 || t.coeff % d != 0)
        continue;
      NatTerm rest{t.coeff / d, {}};
      for (std::size_t j = 0; j < t.factors.size(); ++j)
        if (j != i)
          rest.factors.push_back(t.factors[j]);
      const Nat& e = f.base->lhs();
      term = natMul(termToNat(rest), natSub(e, natMod(e, f.base->rhs())));
      changed = true;
      break;
    }
    sum = natAdd(sum, term);
  }
  return changed ? std::optional(sum) : std::nullopt;
}

struct Search {
  std::int64_t k;
  int attempts = 0;

  bool prove(const Nat& n, int depth) {
    auto lo = natInterval(n).lo;
    if (lo && *lo >= k) {
      return true;
    }
    auto p = toPoly(n);
    if (depth == 0 || !p) {
      return false;
    }
    if (auto expanded = expandDivisions(*p)) {
      if (++attempts > kMaxAttempts) {
        return false;
      }
      if (prove(*expanded, depth - 1)) {
        return true;
      }
    }
    std::vector<Nat> atoms;
    collectAtoms(n, atoms);
    std::sort(atoms.begin(), atoms.end(),
              [](const Nat& a, const Nat& b) { return natCompare(a, b) < 0; });
    atoms.erase(std::unique(atoms.begin(), atoms.end(), natEqual), atoms.end());
    // A case split on a size that may be 0 (n = 0, or n >= 1 as a fresh
    // variable of that range) proves what holds only because an empty
    // array needs nothing: n >= min(1, 32*((n + 31)/32) - n).
    for (const auto& atom : atoms) {
      if (atom->kind() != NatKind::Var || atom->var().meta || atom->var().upper ||
          (atom->var().lower && !atom->var().lower->isConst(0)) ||
          !hasMin(n)) // only where a min can switch on emptiness
        continue;
      if ((attempts += 2) > kMaxAttempts) {
        return false;
      }
      Nat positive = natVar(atom->var().name, natOne());
      if (prove(natReplace(n, atom, natZero()), depth - 1) &&
          prove(natReplace(n, atom, positive), depth - 1)) {
        return true;
      }
    }
    for (const auto& atom : atoms) {
      std::vector<Nat> replacements;
      boundsFor(atom, slopeIn(*p, atom), replacements);
      for (const auto& r : replacements) {
        if (++attempts > kMaxAttempts) {
          return false;
        }
        if (prove(natReplace(n, atom, r), depth - 1)) {
          return true;
        }
      }
    }
    return false;
  }
};

struct NestingGuard {
  NestingGuard() { ++nesting; }
  ~NestingGuard() { --nesting; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;
};

} // namespace

namespace detail {

bool proveAtLeast(const Nat& n, std::int64_t k) {
  if (nesting >= kMaxNesting) {
    auto lo = natInterval(n).lo;
    return lo && *lo >= k;
  }
  NestingGuard guard;
  return Search{k}.prove(n, kMaxDepth);
}

} // namespace detail

bool proveNonNegative(const Nat& n) {
  return proveAtLeast(n, 0);
}
bool proveLess(const Nat& a, const Nat& b) {
  return proveAtLeast(natSub(b, a), 1);
}
bool proveLessEqual(const Nat& a, const Nat& b) {
  return proveAtLeast(natSub(b, a), 0);
}

} // namespace risec::rise
