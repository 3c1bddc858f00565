// Interval analysis: constant bounds of a Nat from the ranges of its
// variables. Every missing or overflowing bound widens to "unbounded", so the
// result is always sound, just sometimes weak.
#include "rise/nat/NatInternal.h"

#include <algorithm>
#include <array>

namespace risec::rise {

using namespace detail;

namespace {

using Bound = std::optional<std::int64_t>;

// An interval endpoint that may be infinite (inf = -1 or +1).
struct Ext {
  int inf = 0;
  std::int64_t v = 0;
};

int sign(const Ext& e) {
  if (e.inf != 0) {
    return e.inf;
  }
  return (e.v > 0) - (e.v < 0);
}

bool extLess(const Ext& a, const Ext& b) {
  if (a.inf != b.inf) {
    return a.inf < b.inf;
  }
  return a.inf == 0 && a.v < b.v;
}

Ext mulExt(const Ext& a, const Ext& b) {
  const int s = sign(a) * sign(b);
  if (s == 0) {
    return {0, 0};
  }
  if (a.inf != 0 || b.inf != 0) {
    return {s, 0};
  }
  auto r = checkedMul(a.v, b.v);
  return r ? Ext{0, *r} : Ext{s, 0}; // an overflow is still beyond every int64
}

Ext loExt(const NatInterval& i) {
  return i.lo ? Ext{0, *i.lo} : Ext{-1, 0};
}
Ext hiExt(const NatInterval& i) {
  return i.hi ? Ext{0, *i.hi} : Ext{1, 0};
}
Bound finite(const Ext& e) {
  return e.inf == 0 ? Bound{e.v} : std::nullopt;
}

Bound addBound(const Bound& a, const Bound& b) {
  return a && b ? checkedAdd(*a, *b) : std::nullopt;
}

NatInterval addInterval(const NatInterval& a, const NatInterval& b) {
  return {addBound(a.lo, b.lo), addBound(a.hi, b.hi)};
}

NatInterval mulInterval(const NatInterval& a, const NatInterval& b) {
  std::array<Ext, 4> corners = {mulExt(loExt(a), loExt(b)), mulExt(loExt(a), hiExt(b)),
                                mulExt(hiExt(a), loExt(b)), mulExt(hiExt(a), hiExt(b))};
  auto [lo, hi] = std::minmax_element(corners.begin(), corners.end(), extLess);
  return {finite(*lo), finite(*hi)};
}

NatInterval divByConst(const NatInterval& a, std::int64_t c) {
  if (c <= 0) {
    return {};
  }
  return {a.lo ? floorDiv(*a.lo, c) : std::nullopt, a.hi ? floorDiv(*a.hi, c) : std::nullopt};
}

// floor(a/d) for a symbolic divisor d, which is assumed >= 1. The quotient
// grows with a; for a >= 0 it shrinks as d grows, for a < 0 it grows.
NatInterval divInterval(const NatInterval& a, const NatInterval& d) {
  if (d.lo && d.hi && *d.lo == *d.hi) {
    return divByConst(a, *d.lo);
  }
  if (d.hi && *d.hi < 1) {
    return {}; // not a positive divisor
  }
  const std::int64_t dlo = std::max<std::int64_t>(d.lo.value_or(1), 1);
  NatInterval r;
  if (a.lo) {
    r.lo = *a.lo >= 0 ? (d.hi ? floorDiv(*a.lo, *d.hi) : Bound{0}) : floorDiv(*a.lo, dlo);
  }
  if (a.hi) {
    r.hi = *a.hi >= 0 ? floorDiv(*a.hi, dlo) : (d.hi ? floorDiv(*a.hi, *d.hi) : Bound{-1});
  }
  return r;
}

NatInterval modInterval(const NatInterval& a, const NatInterval& d) {
  if (d.hi && *d.hi < 1) {
    return {};
  }
  const bool constDivisor = d.lo && d.hi && *d.lo == *d.hi;
  if (constDivisor && a.lo && a.hi) {
    // Within one period the modulo is a shift.
    auto qlo = floorDiv(*a.lo, *d.lo);
    auto qhi = floorDiv(*a.hi, *d.lo);
    auto shift = qlo && qhi && *qlo == *qhi ? checkedMul(*qlo, *d.lo) : std::nullopt;
    if (shift) {
      return {*a.lo - *shift, *a.hi - *shift};
    }
  }
  NatInterval r{0, d.hi ? Bound{*d.hi - 1} : std::nullopt};
  if (a.lo && *a.lo >= 0 && a.hi) {
    r.hi = r.hi ? std::min(*r.hi, *a.hi) : *a.hi;
  }
  return r;
}

Bound powBound(const Bound& b, std::int64_t k) {
  return b ? checkedPow(*b, k) : std::nullopt;
}

NatInterval powConstInterval(const NatInterval& a, std::int64_t k) {
  if (k < 0) {
    return {};
  }
  if (k == 0) {
    return {1, 1};
  }
  if (k % 2 == 1 || (a.lo && *a.lo >= 0)) {
    return {powBound(a.lo, k), powBound(a.hi, k)}; // monotone
  }
  if (a.hi && *a.hi <= 0) {
    return {powBound(a.hi, k), powBound(a.lo, k)};
  }
  auto lo = powBound(a.lo, k);
  auto hi = powBound(a.hi, k);
  return {0, lo && hi ? Bound{std::max(*lo, *hi)} : std::nullopt};
}

NatInterval powInterval(const NatInterval& a, const NatInterval& e) {
  if (e.lo && e.hi && *e.lo == *e.hi) {
    return powConstInterval(a, *e.lo);
  }
  if (!e.lo || *e.lo < 0 || !a.lo || *a.lo < 0) {
    return {};
  }
  Bound hi = a.hi && *a.hi <= 1 ? Bound{1} : (e.hi ? powBound(a.hi, *e.hi) : std::nullopt);
  if (*a.lo == 0) {
    return {0, hi};
  }
  return {powBound(a.lo, *e.lo).value_or(1), hi};
}

NatInterval minInterval(const NatInterval& a, const NatInterval& b) {
  NatInterval r;
  if (a.lo && b.lo) {
    r.lo = std::min(*a.lo, *b.lo);
  }
  if (a.hi || b.hi) {
    r.hi = std::min(a.hi.value_or(*b.hi), b.hi.value_or(*a.hi));
  }
  return r;
}

NatInterval maxInterval(const NatInterval& a, const NatInterval& b) {
  NatInterval r;
  if (a.lo || b.lo) {
    r.lo = std::max(a.lo.value_or(*b.lo), b.lo.value_or(*a.lo));
  }
  if (a.hi && b.hi) {
    r.hi = std::max(*a.hi, *b.hi);
  }
  return r;
}

// Variables are naturals: at least 0 whatever their declared lower bound.
NatInterval varInterval(const NatVarInfo& v) {
  NatInterval r{0, std::nullopt};
  if (v.lower) {
    if (auto lo = natInterval(v.lower).lo) {
      r.lo = std::max<std::int64_t>(*lo, 0);
    }
  }
  if (v.upper) {
    auto hi = natInterval(v.upper).hi;
    r.hi = hi ? checkedAdd(*hi, -1) : std::nullopt;
  }
  return r;
}

NatInterval foldInterval(const std::vector<Nat>& ops, NatInterval init,
                         NatInterval (*combine)(const NatInterval&, const NatInterval&)) {
  for (const auto& op : ops) {
    init = combine(init, natInterval(op));
  }
  return init;
}

} // namespace

namespace detail {

NatInterval natInterval(const Nat& n) {
  switch (n->kind()) {
  case NatKind::Const:
    return {n->value(), n->value()};
  case NatKind::Var:
    return varInterval(n->var());
  case NatKind::Sum:
    return foldInterval(n->operands(), {0, 0}, addInterval);
  case NatKind::Prod:
    return foldInterval(n->operands(), {1, 1}, mulInterval);
  case NatKind::Div:
  case NatKind::Mod: {
    if (!isAssumedPositiveDivisor(n->rhs())) {
      return {}; // a kept division by a negative or zero divisor
    }
    NatInterval a = natInterval(n->lhs());
    NatInterval d = natInterval(n->rhs());
    return n->kind() == NatKind::Div ? divInterval(a, d) : modInterval(a, d);
  }
  case NatKind::Pow:
    return powInterval(natInterval(n->lhs()), natInterval(n->rhs()));
  case NatKind::Min:
    return minInterval(natInterval(n->lhs()), natInterval(n->rhs()));
  case NatKind::Max:
    return maxInterval(natInterval(n->lhs()), natInterval(n->rhs()));
  }
  return {};
}

} // namespace detail

std::optional<std::int64_t> natConstLowerBound(const Nat& n) {
  return natInterval(n).lo;
}
std::optional<std::int64_t> natConstUpperBound(const Nat& n) {
  return natInterval(n).hi;
}

} // namespace risec::rise
