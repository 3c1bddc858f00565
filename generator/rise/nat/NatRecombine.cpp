// Recombination of split/join index arithmetic inside a sum:
//   rest*d*(x/d) + rest*(x%d) = rest*x      (joining a split index)
//   rest*x - rest*d*(x/d)     = rest*(x%d)  (the remainder written out)
// Both are exact for floor semantics, so they apply whatever x and d are.
// `x/d` is matched through natDiv(x, d), so nested splits whose divisions
// were already merged ((i/m)/n = i/(m*n)) are recognised as well.
#include "rise/nat/NatInternal.h"

#include <algorithm>

namespace risec::rise::detail {

namespace {

// Each rewrite removes a Div or Mod factor; the cap only guards against
// pathological inputs.
constexpr int kMaxRewrites = 16;

NatTerm withoutFactor(const NatTerm& t, std::size_t index) {
  NatTerm rest{t.coeff, {}};
  for (std::size_t i = 0; i < t.factors.size(); ++i) {
    if (i != index) {
      rest.factors.push_back(t.factors[i]);
    }
  }
  return rest;
}

bool hasFactorOfKind(const NatPoly& p, NatKind kind) {
  return std::any_of(p.begin(), p.end(), [&](const NatTerm& t) {
    return std::any_of(t.factors.begin(), t.factors.end(),
                       [&](const NatFactor& f) { return f.base->kind() == kind; });
  });
}

// p - remove1 - remove2 + add, or nullopt on overflow.
std::optional<NatPoly> replaceTerms(const NatPoly& p, const NatPoly& remove1,
                                    const NatPoly& remove2, const NatPoly& add) {
  auto r = polySub(p, remove1);
  r = r ? polySub(*r, remove2) : std::nullopt;
  return r ? polyAdd(*r, add) : std::nullopt;
}

// t = rest*(x%d): look for rest*d*(x/d) and join both into rest*x.
std::optional<NatPoly> tryJoin(const NatPoly& p, const NatTerm& t, std::size_t fi) {
  const Nat& mod = t.factors[fi].base;
  const Nat& x = mod->lhs();
  const Nat& d = mod->rhs();
  Nat div = natDiv(x, d);
  auto pd = toPoly(d);
  auto px = toPoly(x);
  if (div->kind() != NatKind::Div || !pd || !px) {
    return std::nullopt;
  }
  NatPoly rest = polyOfTerm(withoutFactor(t, fi));
  auto divTerms = polyMul(rest, *pd);
  divTerms = divTerms ? polyMul(*divTerms, polyOfTerm({1, {{div, natOne()}}})) : std::nullopt;
  if (!divTerms || !polyContains(p, *divTerms)) {
    return std::nullopt;
  }
  auto joined = polyMul(rest, *px);
  return joined ? replaceTerms(p, *divTerms, polyOfTerm(t), *joined) : std::nullopt;
}

// t = -r*d*(x/d): look for r*x and replace both by r*(x%d).
std::optional<NatPoly> tryRemainder(const NatPoly& p, const NatTerm& t, std::size_t fi) {
  const Nat& div = t.factors[fi].base;
  const Nat& x = div->lhs();
  auto pd = toPoly(div->rhs());
  auto px = toPoly(x);
  auto negRest = polyScale(polyOfTerm(withoutFactor(t, fi)), -1);
  if (!pd || pd->size() != 1 || !px || !negRest || negRest->size() != 1) {
    return std::nullopt;
  }
  auto r = divideTerm(negRest->front(), pd->front());
  auto xTerms = r ? polyMul(polyOfTerm(*r), *px) : std::nullopt;
  if (!xTerms || !polyContains(p, *xTerms)) {
    return std::nullopt;
  }
  Nat mod = natMod(x, div->rhs());
  auto modTerms = polyMul(polyOfTerm(*r), polyOfTerm({1, {{mod, natOne()}}}));
  if (mod->kind() != NatKind::Mod || !modTerms) {
    return std::nullopt;
  }
  return replaceTerms(p, polyOfTerm(t), *xTerms, *modTerms);
}

std::optional<NatPoly> rewriteOnce(const NatPoly& p) {
  const bool hasDiv = hasFactorOfKind(p, NatKind::Div);
  for (const auto& t : p) {
    for (std::size_t fi = 0; fi < t.factors.size(); ++fi) {
      const NatFactor& f = t.factors[fi];
      if (!f.exp->isConst(1)) {
        continue;
      }
      std::optional<NatPoly> r;
      if (f.base->kind() == NatKind::Mod && hasDiv) {
        r = tryJoin(p, t, fi);
      } else if (f.base->kind() == NatKind::Div && p.size() > 1) {
        r = tryRemainder(p, t, fi);
      }
      if (r) {
        return r;
      }
    }
  }
  return std::nullopt;
}

} // namespace

NatPoly recombineDivMod(NatPoly p) {
  for (int i = 0; i < kMaxRewrites; ++i) {
    auto next = rewriteOnce(p);
    if (!next) {
      break;
    }
    p = std::move(*next);
  }
  return p;
}

} // namespace risec::rise::detail
