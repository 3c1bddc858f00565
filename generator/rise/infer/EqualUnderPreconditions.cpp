#include "rise/infer/EqualUnderPreconditions.h"

#include "rise/types/TypeEquality.h"

#include <map>
#include <optional>

namespace risec::rise {

namespace {

/// The coefficient of `x` in the term `t` when `t` is `x` or `c*x`.
std::optional<std::int64_t> coefficientOf(const Nat& t, std::uint64_t x) {
  if (t->kind() == NatKind::Var && t->var().id == x)
    return 1;
  if (t->kind() == NatKind::Prod && t->operands().size() == 2 && t->operands()[0]->isConst() &&
      t->operands()[1]->kind() == NatKind::Var && t->operands()[1]->var().id == x)
    return t->operands()[0]->value();
  return std::nullopt;
}

/// Solves `e == 0 (mod d)` (d = 0: `e == 0`) for a size variable that occurs
/// in `e` once, with coefficient 1 or -1: returns the variable and its value
/// in terms of the other variables and, for d > 0, a fresh one.
std::optional<std::pair<std::uint64_t, Nat>> solve(const Nat& e, std::int64_t d) {
  std::vector<Nat> terms = e->kind() == NatKind::Sum ? e->operands() : std::vector<Nat>{e};
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Nat& t = terms[i];
    Nat var = t->kind() == NatKind::Var                                 ? t
              : t->kind() == NatKind::Prod && t->operands().size() == 2 ? t->operands()[1]
                                                                        : nullptr;
    if (!var || var->kind() != NatKind::Var || var->var().meta)
      continue;
    std::uint64_t x = var->var().id;
    std::optional<std::int64_t> c = coefficientOf(t, x);
    if (!c || (*c != 1 && *c != -1))
      continue;
    Nat rest = natSub(e, t);
    if (natContainsVar(rest, x))
      continue;
    // c*x + rest == d*q  =>  x == c*(d*q - rest). q may be negative where
    // rest is (n - 6 == 4*q at n = 2), so the simplifier gets no range for it.
    Nat q = natVar(var->var().name + "'", natConst(-(std::int64_t{1} << 40)));
    Nat target = d > 0 ? natMul(natConst(d), q) : natConst(0);
    Nat value = natSub(target, rest);
    if (*c == -1)
      value = natSub(natConst(0), value);
    return std::pair{x, value};
  }
  return std::nullopt;
}

/// The substitution that the `==` preconditions imply, solved one after the
/// other (each solution applied to the equations after it).
std::map<std::uint64_t, Nat> solutions(const std::vector<Precondition>& pre) {
  std::map<std::uint64_t, Nat> subst;
  for (const Precondition& p : pre) {
    if (p.rel != Precondition::Rel::Eq)
      continue;
    Nat diff = natSubstitute(natSub(p.lhs, p.rhs), subst);
    std::optional<std::pair<std::uint64_t, Nat>> s;
    if (diff->kind() == NatKind::Mod && diff->rhs()->isConst() && diff->rhs()->value() > 0)
      s = solve(diff->lhs(), diff->rhs()->value());
    else if (!diff->isConst())
      s = solve(diff, 0);
    if (!s)
      continue;
    for (auto& [id, value] : subst)
      value = natSubstitute(value, {{s->first, s->second}});
    subst[s->first] = s->second;
  }
  return subst;
}

} // namespace

bool typeEqualUnder(const Type& a, const Type& b, const std::vector<Precondition>& pre) {
  // b's bound variables are renamed to a's, so that both sizes speak of the
  // variables the preconditions name.
  std::map<std::uint64_t, Nat> assume = solutions(pre);
  return typeEqualBy(b, a, [&](const Nat& fromB, const Nat& fromA) {
    return natEqual(natSubstitute(fromB, assume), natSubstitute(fromA, assume));
  });
}

} // namespace risec::rise
