#include "rise/infer/Unifier.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>

namespace risec::rise {

// ---- preconditions ----------------------------------------------------------

std::string Precondition::str() const {
  return natToString(lhs) + (rel == Rel::Eq ? " == " : " >= ") + natToString(rhs);
}

namespace {

/// Splits a Nat into its terms with positive and with negative coefficients,
/// so that `n + 2 >= 3` can be stated as `n >= 1`.
std::pair<Nat, Nat> splitBySign(const Nat& n) {
  Nat pos = natConst(0), neg = natConst(0);
  std::vector<Nat> terms = n->kind() == NatKind::Sum ? n->operands() : std::vector<Nat>{n};
  for (const Nat& t : terms) {
    bool negative = (t->isConst() && t->value() < 0) ||
                    (t->kind() == NatKind::Prod && t->operands()[0]->isConst() &&
                     t->operands()[0]->value() < 0);
    if (negative)
      neg = natSub(neg, t);
    else
      pos = natAdd(pos, t);
  }
  return {pos, neg};
}

/// `a >= b` in its simplest form: common terms cancelled.
void normalise(Precondition& p) {
  if (p.rel != Precondition::Rel::Ge)
    return;
  auto [pos, neg] = splitBySign(natSub(p.lhs, p.rhs));
  p.lhs = pos;
  p.rhs = neg;
}

/// Evaluates a closed precondition: true/false when decidable, nullopt otherwise.
std::optional<bool> decide(const Precondition& p) {
  Nat diff = natSub(p.lhs, p.rhs);
  if (p.rel == Precondition::Rel::Eq) {
    if (diff->isConst())
      return diff->value() == 0;
    return std::nullopt;
  }
  if (proveNonNegative(diff))
    return true;
  if (diff->isConst())
    return diff->value() >= 0;
  return std::nullopt;
}

} // namespace

void Unifier::require(Precondition p) {
  p.lhs = resolve(p.lhs);
  p.rhs = resolve(p.rhs);
  normalise(p);
  if (!natHasMeta(p.lhs) && !natHasMeta(p.rhs)) {
    std::optional<bool> holds = decide(p);
    if (holds && *holds)
      return;
    if (holds && !*holds)
      throw CompileError("E0303", p.loc, p.reason + ", but " + p.str() + " is false");
  }
  preconditions_.push_back(std::move(p));
}

namespace {

/// Whether `n` never decreases as the variable `x` grows (the others fixed,
/// sizes being >= 0): x-free terms, x itself, sums of such, products of one
/// such with sizes and non-negative constants, floor divisions of one by a
/// positive constant, min and max of two. Conservative: false otherwise.
bool nonDecreasingIn(const Nat& n, std::uint64_t x) {
  if (!natContainsVar(n, x))
    return true;
  switch (n->kind()) {
  case NatKind::Var:
    return true;
  case NatKind::Sum:
    return std::all_of(n->operands().begin(), n->operands().end(),
                       [x](const Nat& t) { return nonDecreasingIn(t, x); });
  case NatKind::Prod: {
    int withX = 0;
    for (const Nat& f : n->operands()) {
      if (natContainsVar(f, x)) {
        if (++withX > 1 || !nonDecreasingIn(f, x) || !proveNonNegative(f))
          return false;
      } else if (!proveNonNegative(f)) {
        return false;
      }
    }
    return true;
  }
  case NatKind::Div:
    return n->rhs()->isConst() && n->rhs()->value() > 0 && nonDecreasingIn(n->lhs(), x);
  case NatKind::Min:
  case NatKind::Max:
    return nonDecreasingIn(n->lhs(), x) && nonDecreasingIn(n->rhs(), x);
  default:
    return false;
  }
}

/// A `>=` precondition on one size x that never decreases in x, as the
/// equivalent `x >= x0` (x0 the smallest size for which it holds, found by
/// bisection): `32*((h + 31)/32) >= 32` is `h >= 1`. Nullopt where p has
/// another form or holds for no int size; a condition true from 0 on comes
/// back as `x >= 0`.
std::optional<Precondition> asLowerBound(const Precondition& p) {
  if (p.rel != Precondition::Rel::Ge)
    return std::nullopt;
  Nat d = natSub(p.lhs, p.rhs);
  std::shared_ptr<const NatVarInfo> x;
  bool single = true;
  natForEachVar(d, [&](const NatVarInfo& v) {
    if (v.meta || (x && x->id != v.id))
      single = false;
    else if (!x)
      x = std::make_shared<const NatVarInfo>(v);
  });
  if (!single || !x || !nonDecreasingIn(d, x->id))
    return std::nullopt;
  auto holdsAt = [&](std::int64_t v) {
    std::optional<std::int64_t> r =
        natEvaluate(d, [&](const NatVarInfo& w) -> std::optional<std::int64_t> {
          return w.id == x->id ? std::optional(v) : std::nullopt;
        });
    return r && *r >= 0;
  };
  std::int64_t lo = 0, hi = std::numeric_limits<int>::max();
  if (!holdsAt(hi))
    return std::nullopt;
  while (lo < hi) { // the smallest v in [lo, hi] where it holds
    std::int64_t mid = lo + (hi - lo) / 2;
    if (holdsAt(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  Precondition q = p;
  q.lhs = natVarRef(x);
  q.rhs = natConst(lo);
  return q;
}

/// `x >= c` with x a size parameter and c a positive constant.
bool isLowerBound(const Precondition& p) {
  return p.rel == Precondition::Rel::Ge && p.lhs->kind() == NatKind::Var && !p.lhs->var().meta &&
         p.rhs->isConst() && p.rhs->value() > 0;
}

/// A `>=` precondition that the lower bounds among `all` (other than itself)
/// imply: with x >= c known, x is x' + c for some x' >= 0, and the condition
/// is proved for every x'. `h >= 1` makes `32*((h + 31)/32) >= 32` redundant.
bool impliedByLowerBounds(const Precondition& p, const std::vector<Precondition>& all) {
  if (p.rel != Precondition::Rel::Ge)
    return false;
  std::map<std::uint64_t, const Precondition*> strongest;
  for (const Precondition& q : all) {
    if (&q == &p || !isLowerBound(q))
      continue;
    const Precondition*& s = strongest[q.lhs->var().id];
    if (!s || s->rhs->value() < q.rhs->value())
      s = &q;
  }
  if (strongest.empty())
    return false;
  std::map<std::uint64_t, Nat> subst;
  for (const auto& [id, q] : strongest)
    subst[id] = natAdd(q->lhs, q->rhs);
  return proveNonNegative(natSubstitute(natSub(p.lhs, p.rhs), subst));
}

} // namespace

std::vector<Precondition> Unifier::preconditions() const {
  std::vector<Precondition> all;
  for (Precondition p : preconditions_) {
    p.lhs = resolve(p.lhs);
    p.rhs = resolve(p.rhs);
    normalise(p);
    std::optional<bool> holds = decide(p);
    if (holds && *holds)
      continue;
    if (holds && !*holds)
      throw CompileError("E0303", p.loc, p.reason + ", but " + p.str() + " is false");
    if (std::optional<Precondition> bound = asLowerBound(p)) {
      if (bound->rhs->isConst(0))
        continue;
      p = *bound;
    }
    bool duplicate = std::any_of(all.begin(), all.end(), [&](const Precondition& q) {
      return q.rel == p.rel && natEqual(q.lhs, p.lhs) && natEqual(q.rhs, p.rhs);
    });
    if (!duplicate)
      all.push_back(std::move(p));
  }
  std::vector<Precondition> out;
  for (const Precondition& p : all)
    if (!impliedByLowerBounds(p, all))
      out.push_back(p);
  return out;
}

// ---- sorts ------------------------------------------------------------------

namespace {

bool satisfiesSort(const Type& t, TypeSort sort) {
  switch (sort) {
  case TypeSort::Any:
    return true;
  case TypeSort::Data:
    return t->isData();
  case TypeSort::Scalar:
    if (t->kind() == TypeKind::Var)
      return t->var().sort == TypeSort::Scalar || t->var().sort == TypeSort::Float;
    return t->kind() == TypeKind::Scalar;
  case TypeSort::Numeric:
    if (t->kind() == TypeKind::Var)
      return t->var().sort == TypeSort::Numeric || t->var().sort == TypeSort::Float;
    if (t->kind() == TypeKind::Vec)
      return satisfiesSort(t->elem(), TypeSort::Numeric);
    return t->kind() == TypeKind::Scalar && t->scalar() != ScalarKind::Bool;
  case TypeSort::Float:
    if (t->kind() == TypeKind::Var)
      return t->var().sort == TypeSort::Float;
    if (t->kind() == TypeKind::Vec)
      return satisfiesSort(t->elem(), TypeSort::Float);
    return t->kind() == TypeKind::Scalar && isFloat(t->scalar());
  }
  return false;
}

/// The more restrictive of two sorts (Scalar and Numeric meet at Numeric,
/// which is the closer fit for operators).
TypeSort meetSort(TypeSort a, TypeSort b) {
  auto rank = [](TypeSort s) {
    switch (s) {
    case TypeSort::Any:
      return 0;
    case TypeSort::Data:
      return 1;
    case TypeSort::Scalar:
      return 2;
    case TypeSort::Numeric:
      return 3;
    case TypeSort::Float:
      return 4;
    }
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

bool occursIn(std::uint64_t id, const Type& t) {
  switch (t->kind()) {
  case TypeKind::Var:
    return t->var().id == id;
  case TypeKind::Array:
  case TypeKind::Vec:
    return occursIn(id, t->elem());
  case TypeKind::Pair:
  case TypeKind::Fun:
    return occursIn(id, t->first()) || occursIn(id, t->second());
  case TypeKind::DepFun:
    return occursIn(id, t->result());
  default:
    return false;
  }
}

} // namespace

void Unifier::requireSort(const Type& t0, TypeSort sort, const ConstraintSite& site) {
  Type t = resolve(t0);
  if (t->kind() == TypeKind::Var && t->var().meta) {
    if (satisfiesSort(t, sort))
      return;
    // Narrow the unknown: bind it to a fresh unknown of the stricter sort.
    TypeSort s = meetSort(t->var().sort, sort);
    subst_.types[t->var().id] = freshTypeVar(t->var().name, s, true);
    return;
  }
  if (t->kind() == TypeKind::Vec && (sort == TypeSort::Numeric || sort == TypeSort::Float) &&
      t->elem()->kind() == TypeKind::Var && t->elem()->var().meta) {
    // `v + v` on a `vec[?s, 4]` whose element type is not known yet: the
    // element must be numeric (or float) too.
    return requireSort(t->elem(), sort, site);
  }
  if (satisfiesSort(t, sort))
    return;
  CompileError e("E0308", site.loc,
                 site.what + " has type `" + typeToString(t) + "`, but it must be " +
                     std::string(sortName(sort)));
  if (t->kind() == TypeKind::Fun || t->kind() == TypeKind::DepFun)
    // The usual cause: `xs |> reduce(add)(0.0f) / n` parses as
    // `xs |> (reduce(add)(0.0f) / n)`.
    e.note(site.loc, "`|>` binds more loosely than arithmetic and comparison operators: "
                     "`xs |> f / y` means `xs |> (f / y)`; write `(xs |> f) / y` to apply `f` "
                     "first");
  throw e;
}

// ---- types ------------------------------------------------------------------

CompileError Unifier::mismatchError(const Type& a, const Type& b, const ConstraintSite& site,
                                    const std::string& detail) {
  std::string msg = "type mismatch in " + site.what + ": expected `" + typeToString(resolve(a)) +
                    "`, found `" + typeToString(resolve(b)) + "`";
  if (!detail.empty())
    msg += " (" + detail + ")";
  return CompileError("E0301", site.loc, msg);
}

void Unifier::mismatch(const Type& a, const Type& b, const ConstraintSite& site,
                       const std::string& detail) {
  throw mismatchError(a, b, site, detail);
}

void Unifier::scalarMismatch(ScalarKind a, ScalarKind b, const Type& topA, const Type& topB,
                             const ConstraintSite& site, const SourceLocation& fixedA,
                             const SourceLocation& fixedB) {
  const std::string detail = std::string(scalarName(a)) + " vs " + std::string(scalarName(b));
  auto isFloat = [](ScalarKind k) { return k == ScalarKind::F32 || k == ScalarKind::F64; };
  if (!((a == ScalarKind::I32 && isFloat(b)) || (b == ScalarKind::I32 && isFloat(a))))
    mismatch(topA, topB, site, detail);
  // The usual cause: an unsuffixed literal (`reduce(add)(0)`) next to floats.
  // When the i32 was inferred from another expression (the literal), the
  // hint points at that expression rather than at the mismatch.
  const std::string f = std::string(scalarName(isFloat(a) ? a : b));
  const SourceLocation& fixed = a == ScalarKind::I32 ? fixedA : fixedB;
  const bool elsewhere =
      fixed.known() && !(fixed.line == site.loc.line && fixed.column == site.loc.column);
  CompileError e = mismatchError(topA, topB, site, detail);
  e.note(elsewhere ? fixed : site.loc,
         std::string(elsewhere ? "the i32 comes from here: " : "") +
             "an integer literal without a suffix, such as `0`, is an i32: write `0.0" +
             std::string(f == "f32" ? "f" : "") + "` for an " + f + ", or convert with `cast(" + f +
             ")`");
  throw e;
}

namespace {
bool isUnknown(const Type& t) {
  return t->kind() == TypeKind::Var && t->var().meta;
}
} // namespace

Type Unifier::lastUnknown(const Type& t) const {
  if (!isUnknown(t))
    return nullptr;
  auto next = subst_.types.find(t->var().id);
  return next != subst_.types.end() && isUnknown(next->second) ? lastUnknown(next->second) : t;
}

Type Unifier::boundType(const Type& t) const {
  Type last = lastUnknown(t);
  if (!last)
    return t;
  auto next = subst_.types.find(last->var().id);
  return next == subst_.types.end() ? last : next->second;
}

SourceLocation Unifier::boundAt(const Type& t) const {
  // only the binding of the chain's last unknown to a known type is recorded
  Type last = lastUnknown(t);
  if (!last)
    return {};
  auto site = boundAt_.find(last->var().id);
  return site == boundAt_.end() ? SourceLocation{} : site->second;
}

void Unifier::unify(const Type& expected, const Type& found, const ConstraintSite& site) {
  unifyRec(expected, found, site, expected, found);
}

void Unifier::bindTypeMeta(const Type& meta, const Type& t, const ConstraintSite& site) {
  const TypeVarInfo& v = meta->var();
  if (t->kind() == TypeKind::Var && t->var().id == v.id)
    return;
  if (occursIn(v.id, t))
    throw CompileError("E0310", site.loc,
                       "infinite type in " + site.what + ": `" + typeToString(meta) +
                           "` would have to contain itself as `" + typeToString(t) + "`");
  if (t->kind() == TypeKind::Var && t->var().meta) {
    // Two unknowns: keep the stricter sort on the survivor.
    TypeSort s = meetSort(v.sort, t->var().sort);
    Type merged = s == t->var().sort ? t : freshTypeVar(t->var().name, s, true);
    if (merged != t)
      subst_.types[t->var().id] = merged;
    subst_.types[v.id] = merged;
    return;
  }
  requireSort(t, v.sort, site);
  subst_.types[v.id] = t;
  boundAt_[v.id] = site.loc;
}

void Unifier::unifyRec(const Type& a0, const Type& b0, const ConstraintSite& site, const Type& topA,
                       const Type& topB) {
  Type a = resolve(a0), b = resolve(b0);
  if (a->kind() == TypeKind::Var && a->var().meta)
    return bindTypeMeta(a, b, site);
  if (b->kind() == TypeKind::Var && b->var().meta)
    return bindTypeMeta(b, a, site);
  // The components are taken from the types before substitution (`sa`,
  // `sb`: the same shape as `a` and `b`), so that a mismatch deeper down
  // still sees the unknowns and can tell where they were bound.
  Type sa = boundType(a0), sb = boundType(b0);
  if (a->kind() != b->kind())
    mismatch(topA, topB, site, "");
  switch (a->kind()) {
  case TypeKind::Scalar:
    if (a->scalar() != b->scalar())
      scalarMismatch(a->scalar(), b->scalar(), topA, topB, site, boundAt(a0), boundAt(b0));
    return;
  case TypeKind::Array:
  case TypeKind::Vec:
    unifyNat(a->size(), b->size(), site);
    return unifyRec(sa->elem(), sb->elem(), site, topA, topB);
  case TypeKind::Index:
    return unifyNat(a->size(), b->size(), site);
  case TypeKind::Pair:
  case TypeKind::Fun:
    unifyRec(sa->first(), sb->first(), site, topA, topB);
    return unifyRec(sa->second(), sb->second(), site, topA, topB);
  case TypeKind::Var:
    if (a->var().id != b->var().id)
      mismatch(topA, topB, site, "");
    return;
  case TypeKind::DepFun: {
    const DepBinder& ba = a->binder();
    const DepBinder& bb = b->binder();
    if (ba.kind != bb.kind)
      mismatch(topA, topB, site, "the kinds of the dependent parameters differ");
    // Rename the expected type's bound variable to the one of the type found:
    // the found type belongs to an expression whose body refers to its own
    // binder, so unknowns solved here must be expressed in that binder.
    TypeSubst rename;
    rename.bind(ba, bb.asArg());
    return unifyRec(substitute(a->result(), rename), b->result(), site, topA, topB);
  }
  }
}

void Unifier::unifyAddr(const AddrSpace& e0, const AddrSpace& f0, const ConstraintSite& site) {
  AddrSpace e = resolve(e0), f = resolve(f0);
  if (e == f)
    return;
  if (e.tag == AddrSpace::Tag::Var && e.var->meta) {
    subst_.addrs[e.var->id] = f;
    return;
  }
  if (f.tag == AddrSpace::Tag::Var && f.var->meta) {
    subst_.addrs[f.var->id] = e;
    return;
  }
  throw CompileError("E0301", site.loc,
                     "address space mismatch in " + site.what + ": expected `" + e.str() +
                         "`, found `" + f.str() + "`");
}

// ---- Nat equations ------------------------------------------------------------

namespace {

/// `d` written as `coef * meta + rest`, when the meta occurs linearly.
struct LinearForm {
  Nat coef;
  Nat rest;
};

std::optional<LinearForm> linearIn(const Nat& d, std::uint64_t id) {
  std::vector<Nat> terms = d->kind() == NatKind::Sum ? d->operands() : std::vector<Nat>{d};
  Nat coef = natConst(0), rest = natConst(0);
  for (const Nat& t : terms) {
    if (!natContainsVar(t, id)) {
      rest = natAdd(rest, t);
      continue;
    }
    if (t->kind() == NatKind::Var) {
      coef = natAdd(coef, natConst(1));
      continue;
    }
    if (t->kind() != NatKind::Prod)
      return std::nullopt;
    Nat others = natConst(1);
    int occurrences = 0;
    for (const Nat& f : t->operands()) {
      if (f->kind() == NatKind::Var && f->var().id == id)
        ++occurrences;
      else if (natContainsVar(f, id))
        return std::nullopt;
      else
        others = natMul(others, f);
    }
    if (occurrences != 1)
      return std::nullopt;
    coef = natAdd(coef, others);
  }
  if (coef->isConst(0))
    return std::nullopt;
  return LinearForm{coef, rest};
}

std::vector<std::shared_ptr<const NatVarInfo>> metasOf(const Nat& n) {
  std::vector<std::shared_ptr<const NatVarInfo>> out;
  natForEachVar(n, [&](const NatVarInfo& v) {
    if (!v.meta)
      return;
    for (const auto& o : out)
      if (o->id == v.id)
        return;
    out.push_back(std::make_shared<const NatVarInfo>(v));
  });
  return out;
}

bool isUnit(const Nat& c) {
  return c->isConst(1) || c->isConst(-1);
}

} // namespace

void Unifier::bindNatMeta(const NatVarInfo& meta, const Nat& solution) {
  subst_.nats[meta.id] = solution;
}

bool Unifier::trySolveNat(const Nat& lhs0, const Nat& rhs0, const ConstraintSite& site,
                          bool force) {
  Nat lhs = resolve(lhs0), rhs = resolve(rhs0);
  Nat d = natSub(lhs, rhs);
  if (d->isConst(0))
    return true;
  auto metas = metasOf(d);
  if (metas.empty() && zeroUnderPreconditions(d))
    return true;
  if (metas.empty()) {
    std::string msg =
        "size mismatch in " + site.what + ": " + natToString(lhs) + " vs " + natToString(rhs);
    if (!d->isConst())
      msg += " (the sizes are not provably equal; make them the same expression)";
    throw CompileError(d->isConst() ? "E0302" : "E0304", site.loc, msg);
  }
  // Pick the unknown to solve for: one with a unit coefficient needs no
  // divisibility condition, so prefer it.
  std::optional<std::pair<std::shared_ptr<const NatVarInfo>, LinearForm>> pick;
  for (const auto& m : metas) {
    auto form = linearIn(d, m->id);
    if (!form)
      continue;
    if (isUnit(form->coef)) {
      pick = {m, *form};
      break;
    }
    bool onlyUnknown = metas.size() == 1;
    if (!pick && (onlyUnknown || force))
      pick = {m, *form};
  }
  if (!pick)
    return false;
  const auto& [meta, form] = *pick;
  // coef*meta + rest = 0  =>  meta = -rest / coef
  Nat numerator = natSub(natConst(0), form.rest);
  Nat coef = form.coef;
  if (coef->isConst() && coef->value() < 0) {
    numerator = natSub(natConst(0), numerator);
    coef = natSub(natConst(0), coef);
  }
  Nat solution = natDiv(numerator, coef);
  if (!natEqual(natMul(solution, coef), numerator)) {
    if (numerator->isConst() && coef->isConst())
      throw CompileError("E0303", site.loc,
                         "size mismatch in " + site.what + ": " + natToString(numerator) +
                             " is not a multiple of " + natToString(coef));
    require({Precondition::Rel::Eq, natMod(numerator, coef), natConst(0), site.preconditionLoc(),
             site.what + " needs " + natToString(numerator) + " to be a multiple of " +
                 natToString(coef)});
  }
  if (!proveNonNegative(solution)) {
    // The unknown stands for what is left after subtracting: state the
    // condition as "actual size >= smallest size the pattern allows".
    bool metaOnLeft = natContainsVar(lhs, meta->id);
    const Nat& pattern = metaOnLeft ? lhs : rhs;
    const Nat& actual = metaOnLeft ? rhs : lhs;
    Nat smallest = natMapVars(
        pattern, [](const NatVarInfo& v) -> Nat { return v.meta ? natConst(0) : nullptr; });
    if (solution->isConst())
      throw CompileError("E0311", site.loc,
                         "size mismatch in " + site.what + ": the size " + natToString(actual) +
                             " is smaller than " + natToString(smallest));
    require(
        {Precondition::Rel::Ge, actual, smallest, site.preconditionLoc(),
         site.what + " needs " + natToString(actual) + " to be at least " + natToString(smallest)});
  }
  bindNatMeta(*meta, solution);
  return true;
}

bool Unifier::zeroUnderPreconditions(const Nat& d) const {
  // A recorded `x % c == 0` with x a variable means x = c*q for some q:
  // substituting it turns `c*(x/c) - x` into 0. This is how `4*(k/4)` and
  // `k` are known to be equal after `split(4)` of a `k.f32`.
  Nat cur = d;
  for (const Precondition& p : preconditions_) {
    Nat lhs = resolve(p.lhs);
    if (p.rel != Precondition::Rel::Eq || !resolve(p.rhs)->isConst(0) ||
        lhs->kind() != NatKind::Mod || lhs->lhs()->kind() != NatKind::Var || !lhs->rhs()->isConst())
      continue;
    Nat quotient = natVar(lhs->lhs()->var().name + "_q");
    cur = natSubstitute(cur, {{lhs->lhs()->var().id, natMul(lhs->rhs(), quotient)}});
    if (cur->isConst(0))
      return true;
  }
  return false;
}

void Unifier::unifyNat(const Nat& expected, const Nat& found, const ConstraintSite& site) {
  if (!trySolveNat(expected, found, site, false))
    deferred_.push_back({expected, found, site});
}

void Unifier::instantiateRigid(const TypeSubst& s, const ConstraintSite& site) {
  for (auto& [id, n] : subst_.nats)
    n = substitute(n, s);
  for (auto& [id, t] : subst_.types)
    t = substitute(t, s);
  for (Deferred& d : deferred_) {
    d.lhs = substitute(d.lhs, s);
    d.rhs = substitute(d.rhs, s);
  }
  std::vector<Precondition> pending;
  pending.swap(preconditions_);
  for (Precondition& p : pending) {
    std::string before = p.str();
    p.lhs = substitute(p.lhs, s);
    p.rhs = substitute(p.rhs, s);
    try {
      require(p); // may now be decidable, e.g. 12%5 == 0
    } catch (const CompileError&) {
      throw CompileError("E0303", site.loc,
                         site.what + " violates the size precondition " + before + " (" + p.reason +
                             ")")
          .note(p.loc, "the precondition comes from here");
    }
  }
}

void Unifier::solveDeferred(bool force) {
  bool progress = true;
  while (progress && !deferred_.empty()) {
    progress = false;
    std::vector<Deferred> pending;
    pending.swap(deferred_);
    for (Deferred& d : pending) {
      if (trySolveNat(d.lhs, d.rhs, d.site, false))
        progress = true;
      else
        deferred_.push_back(std::move(d));
    }
    if (!progress && force && !deferred_.empty()) {
      Deferred d = deferred_.front();
      deferred_.erase(deferred_.begin());
      if (!trySolveNat(d.lhs, d.rhs, d.site, true))
        throw CompileError("E0309", d.site.loc,
                           "cannot solve the size equation " + natToString(resolve(d.lhs)) + " = " +
                               natToString(resolve(d.rhs)) + " in " + d.site.what +
                               "; add a type annotation that fixes the sizes");
      progress = true;
    }
  }
}

} // namespace risec::rise
