#include "rise/infer/Infer.h"

#include "rise/ast/Substitute.h"
#include "rise/infer/Elaborator.h"
#include "rise/infer/PadEmptyReads.h"

#include <set>

namespace risec::rise {

namespace {

/// Applies the solved substitution to every type and type-level argument.
class Zonker {
public:
  explicit Zonker(const Unifier& u) : u_(u) {}

  Expr zonk(const Expr& e) const {
    Type t = e->type() ? u_.resolve(e->type()) : nullptr;
    switch (e->kind()) {
    case ExprKind::Lambda:
      return makeLambda(e->name(), e->paramType(), zonk(e->body()), e->loc(), t);
    case ExprKind::App:
      return makeApp(zonk(e->fn()), zonk(e->arg()), e->loc(), t);
    case ExprKind::DepLambda:
      return makeDepLambda(e->binder(), zonk(e->body()), e->loc(), t);
    case ExprKind::DepApp:
      return makeDepApp(zonk(e->fn()), u_.resolve(e->typeArg()), e->implicitArg(), e->loc(), t);
    default:
      return e->withType(t);
    }
  }

private:
  const Unifier& u_;
};

bool hasUnknownNat(const Nat& n, const std::set<std::uint64_t>& generalised) {
  bool found = false;
  natForEachVar(n, [&](const NatVarInfo& v) { found |= v.meta && !generalised.count(v.id); });
  return found;
}

/// True if `t` mentions an unknown that was not generalised into the def's type.
bool hasUnknownType(const Type& t, const std::set<std::uint64_t>& generalised) {
  switch (t->kind()) {
  case TypeKind::Array:
  case TypeKind::Vec:
    return hasUnknownNat(t->size(), generalised) || hasUnknownType(t->elem(), generalised);
  case TypeKind::Index:
    return hasUnknownNat(t->size(), generalised);
  case TypeKind::Pair:
  case TypeKind::Fun:
    return hasUnknownType(t->first(), generalised) || hasUnknownType(t->second(), generalised);
  case TypeKind::Var:
    return t->var().meta && !generalised.count(t->var().id);
  case TypeKind::DepFun:
    return hasUnknownType(t->result(), generalised);
  default:
    return false;
  }
}

/// The first implicit argument that is still unknown, with its node.
const ExprNode* findAmbiguous(const Expr& e, const std::set<std::uint64_t>& generalised) {
  auto unknown = [&](const TypeArg& a) {
    if (auto n = std::get_if<Nat>(&a))
      return hasUnknownNat(*n, generalised);
    if (auto t = std::get_if<Type>(&a))
      return hasUnknownType(*t, generalised);
    const AddrSpace& as = std::get<AddrSpace>(a);
    return as.tag == AddrSpace::Tag::Var && as.var->meta && !generalised.count(as.var->id);
  };
  switch (e->kind()) {
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    return findAmbiguous(e->body(), generalised);
  case ExprKind::App:
    // The argument first: in `xs |> reduce(...)` an unknown size usually
    // originates in `xs`, and the reduce merely inherits it.
    if (auto r = findAmbiguous(e->arg(), generalised))
      return r;
    return findAmbiguous(e->fn(), generalised);
  case ExprKind::DepApp:
    if (auto r = findAmbiguous(e->fn(), generalised))
      return r;
    return unknown(e->typeArg()) ? e.get() : nullptr;
  default:
    return nullptr;
  }
}

/// Turns the unknowns left in a def's type into implicit binders, for
/// display: `fun(x => x * x)` has type `{t: Numeric} -> t -> t`.
class Generaliser {
public:
  Type generalise(const Type& t) {
    collect(t);
    TypeSubst s;
    std::vector<DepBinder> binders;
    for (const Found& f : found_) {
      DepBinder b;
      b.implicit = true;
      b.kind = f.kind;
      std::string name = uniqueName(f.name);
      if (f.kind == Kind::Nat)
        b.nat = natVar(name)->varInfo();
      else if (f.kind == Kind::Data)
        b.data = freshTypeVar(name, f.sort, false)->varInfo();
      else
        b.addr = AddrSpace::fresh(name, false).var;
      if (f.kind == Kind::Nat)
        s.nats[f.id] = natVarRef(b.nat);
      else if (f.kind == Kind::Data)
        s.types[f.id] = std::get<Type>(b.asArg());
      else
        s.addrs[f.id] = std::get<AddrSpace>(b.asArg());
      binders.push_back(b);
    }
    Type out = substitute(t, s);
    for (auto it = binders.rbegin(); it != binders.rend(); ++it)
      out = depFunType(*it, out);
    subst_ = std::move(s);
    return out;
  }

  /// The replacement of each generalised unknown by its binder's variable.
  const TypeSubst& substitution() const { return subst_; }

  std::set<std::uint64_t> ids() const {
    std::set<std::uint64_t> r;
    for (const Found& f : found_)
      r.insert(f.id);
    return r;
  }

private:
  struct Found {
    Kind kind;
    std::uint64_t id;
    std::string name;
    TypeSort sort;
  };

  void add(Kind k, std::uint64_t id, const std::string& name, TypeSort sort = TypeSort::Data) {
    for (const Found& f : found_)
      if (f.id == id)
        return;
    found_.push_back({k, id, name, sort});
  }
  void collectNat(const Nat& n) {
    natForEachVar(n, [&](const NatVarInfo& v) {
      if (v.meta)
        add(Kind::Nat, v.id, v.name);
      else
        taken_.insert(v.name);
    });
  }
  void collect(const Type& t) {
    switch (t->kind()) {
    case TypeKind::Array:
    case TypeKind::Vec:
      collectNat(t->size());
      return collect(t->elem());
    case TypeKind::Index:
      return collectNat(t->size());
    case TypeKind::Pair:
    case TypeKind::Fun:
      collect(t->first());
      return collect(t->second());
    case TypeKind::Var:
      if (t->var().meta)
        add(Kind::Data, t->var().id, t->var().name, t->var().sort);
      else
        taken_.insert(t->var().name);
      return;
    case TypeKind::DepFun:
      taken_.insert(t->binder().name());
      return collect(t->result());
    default:
      return;
    }
  }
  std::string uniqueName(const std::string& base) {
    std::string name = base;
    for (int i = 1; taken_.count(name); ++i)
      name = base + std::to_string(i);
    taken_.insert(name);
    return name;
  }

  std::vector<Found> found_;
  std::set<std::string> taken_;
  TypeSubst subst_;
};

/// Marks the preconditions `v >= 1` (v a size) that fail only where the
/// result of a def of type `type` is empty: its scalar count is 0 at v = 0.
/// Padding to whole tiles asks for such conditions (`split` of a padded
/// width needs the width to be positive) although a call with v = 0 has
/// nothing to compute.
void markEmptyResultConditions(Type type, std::vector<Precondition>& pre) {
  while (type->kind() == TypeKind::DepFun || type->kind() == TypeKind::Fun)
    type = type->result();
  Nat count = scalarCount(type);
  if (!count)
    return;
  for (Precondition& p : pre)
    if (p.rel == Precondition::Rel::Ge && p.rhs->isConst(1) && p.lhs->kind() == NatKind::Var &&
        natSubstitute(count, {{p.lhs->var().id, natConst(0)}})->isConst(0))
      p.onlyForNonEmptyResult = true;
}

TypedDef finish(const std::string& name, const Expr& elaborated, Unifier& u) {
  u.solveDeferred(false);
  u.solveDeferred(true);
  Expr typed = Zonker(u).zonk(elaborated);
  Generaliser g;
  Type type = g.generalise(typed->type());
  // The expression speaks about the generalised sizes by the same variables
  // as the def's type, so an evaluator can bind them by name.
  typed = substituteInExpr(typed, g.substitution());
  if (const ExprNode* amb = findAmbiguous(typed, g.ids()))
    throw CompileError("E0309", amb->loc(),
                       "cannot infer the type-level argument `" + typeArgToString(amb->typeArg()) +
                           "` here (its type is `" + typeToString(amb->type()) +
                           "`); add a type annotation to a `fun` parameter that fixes it");
  std::vector<Precondition> pre = u.preconditions();
  for (Precondition& p : pre) {
    p.lhs = substitute(p.lhs, g.substitution());
    p.rhs = substitute(p.rhs, g.substitution());
  }
  markEmptyResultConditions(type, pre);
  checkPadEmptyIsNeverRead(typed);
  return TypedDef{name, typed, type, std::move(pre)};
}

} // namespace

Nat scalarCount(const Type& t) {
  switch (t->kind()) {
  case TypeKind::Scalar:
  case TypeKind::Index:
    return natConst(1);
  case TypeKind::Vec:
    return t->size();
  case TypeKind::Array: {
    Nat elem = scalarCount(t->elem());
    return elem ? natMul(t->size(), elem) : nullptr;
  }
  case TypeKind::Pair: {
    Nat a = scalarCount(t->first()), b = scalarCount(t->second());
    return a && b ? natAdd(a, b) : nullptr;
  }
  default:
    return nullptr;
  }
}

std::vector<Precondition> refusingPreconditions(const std::vector<Precondition>& pre) {
  std::vector<Precondition> out;
  for (const Precondition& p : pre)
    if (!p.onlyForNonEmptyResult)
      out.push_back(p);
  return out;
}

std::vector<DepBinder> sizeBinders(const TypedDef& def) {
  std::vector<DepBinder> sizes;
  for (Expr e = def.expr; e->kind() == ExprKind::DepLambda && e->binder().kind == Kind::Nat;
       e = e->body())
    sizes.push_back(e->binder());
  return sizes;
}

TypedDef inferDef(const Program& program, const std::string& name) {
  for (std::size_t i = program.order.size(); i-- > 0;) {
    int d = program.order[i];
    if (d < 0 || program.defs[d].name != name)
      continue;
    const Def& def = program.defs[d];
    Unifier u;
    Elaborator el(&program, i, u);
    Expr body = el.elaborate(def.body);
    if (def.annotation)
      u.unify(def.annotation, body->type(), {def.body->loc(), "the definition of `" + name + "`"});
    return finish(name, body, u);
  }
  throw InternalError("inferDef: no def named " + name);
}

std::vector<TypedDef> inferProgram(const Program& program) {
  std::vector<TypedDef> out;
  for (const Def& d : program.defs)
    out.push_back(inferDef(program, d.name));
  return out;
}

TypedDef inferExpr(const Expr& e) {
  Unifier u;
  Elaborator el(nullptr, 0, u);
  return finish("<expr>", el.elaborate(e), u);
}

} // namespace risec::rise
