#include "rules/RiseUtil.h"

#include <algorithm>

#include "rise/ast/Traverse.h"
#include "rise/types/Scalar.h"
#include "support/Diagnostic.h"

namespace risec::rules {

using namespace risec::rise;

Expr stripImplicit(const Expr& e) {
  if (e->kind() == ExprKind::DepApp && e->implicitArg())
    return stripImplicit(e->fn());
  return mapChildren(e, stripImplicit);
}

Program singleDefProgram(const Program& context, const std::string& name, const Expr& body) {
  Program p;
  for (std::size_t i = 0; i < context.foreigns.size(); ++i) {
    p.foreigns.push_back(context.foreigns[i]);
    p.order.push_back(~static_cast<int>(i));
  }
  p.defs.push_back({name, nullptr, body, {}});
  p.order.push_back(0);
  return p;
}

TypedDef retype(const Program& context, const std::string& name, const Expr& body) {
  return inferDef(singleDefProgram(context, name, stripImplicit(body)), name);
}

// ---- spines ---------------------------------------------------------------------

Spine spineOf(const Expr& e) {
  return rise::collectSpine(e, false);
}

bool isPrim(const Expr& e, Prim p) {
  return e->kind() == ExprKind::Primitive && e->prim() == p;
}

std::optional<Prim> headPrim(const Expr& e) {
  Spine s = spineOf(e);
  if (s.head->kind() == ExprKind::Primitive)
    return s.head->prim();
  return std::nullopt;
}

bool isCall(const Expr& e, Prim p, std::size_t nargs) {
  Spine s = spineOf(e);
  return isPrim(s.head, p) && s.args.size() == nargs;
}

bool isStore(const Expr& e) {
  for (Prim p : {Prim::ToMem, Prim::ToGlobal, Prim::ToLocal, Prim::ToPrivate})
    if (isCall(e, p, 1))
      return true;
  return false;
}

// ---- builders ---------------------------------------------------------------------

rise::Nat wholeMultiple(const rise::Nat& n, std::int64_t w) {
  return rise::natConst(w) * (n / rise::natConst(w));
}

rise::Nat paddingToMultiple(const rise::Nat& n, std::int64_t w) {
  return rise::natConst(w) * ((n + rise::natConst(w - 1)) / rise::natConst(w)) - n;
}

namespace {

bool dividesOrModulo(const rise::Nat& n) {
  if (n->kind() == rise::NatKind::Div || n->kind() == rise::NatKind::Mod)
    return true;
  return std::any_of(n->operands().begin(), n->operands().end(), dividesOrModulo);
}

} // namespace

std::optional<std::string> whyNotChunked(const rise::Nat& size, std::int64_t w) {
  rise::Nat rest = size % rise::natConst(w);
  if (rest->isConst() && rest->value() == 0)
    return std::nullopt;
  std::string what = "its array has " + rise::natToString(size) + " elements, not a multiple of " +
                     std::to_string(w);
  if (size->isConst())
    return what;
  if (dividesOrModulo(size))
    return what + " for every size (a padded length: pad it to a multiple of " + std::to_string(w) +
           " instead)";
  return std::nullopt;
}

Expr prim(Prim p) {
  return makePrimitive(p, {});
}
Expr var(const std::string& name) {
  return makeVar(name, {});
}
Expr app(Expr f, Expr a) {
  return makeApp(std::move(f), std::move(a), {});
}
Expr app(Expr f, Expr a, Expr b) {
  return app(app(std::move(f), std::move(a)), std::move(b));
}
Expr app(Expr f, Expr a, Expr b, Expr c) {
  return app(app(std::move(f), std::move(a), std::move(b)), std::move(c));
}
Expr lam(const std::string& x, Expr body) {
  return makeLambda(x, nullptr, std::move(body), {});
}
Expr depNat(Expr f, std::int64_t n) {
  return makeDepApp(std::move(f), natConst(n), false, {});
}
Expr depArg(Expr f, const TypeArg& a) {
  return makeDepApp(std::move(f), a, false, {});
}

Expr rebuild(Expr head, const std::vector<TypeArg>& depArgs, const std::vector<Expr>& args) {
  for (const TypeArg& d : depArgs)
    head = depArg(head, d);
  for (const Expr& a : args)
    head = app(head, a);
  return head;
}

Expr withHead(const Spine& s, Prim p, std::vector<TypeArg> depArgs) {
  return rebuild(makePrimitive(p, s.head->loc()), depArgs, s.args);
}

// ---- variables ----------------------------------------------------------------------

namespace {
void freeVarsInto(const Expr& e, std::set<std::string>& bound, std::set<std::string>& out) {
  if (e->kind() == ExprKind::Var) {
    if (!bound.count(e->name()))
      out.insert(e->name());
    return;
  }
  bool binds = e->kind() == ExprKind::Lambda && bound.insert(e->name()).second;
  forEachChild(e, [&](const Expr& c) { freeVarsInto(c, bound, out); });
  if (binds)
    bound.erase(e->name());
}
} // namespace

std::set<std::string> freeVars(const Expr& e) {
  std::set<std::string> bound, out;
  freeVarsInto(e, bound, out);
  return out;
}

bool occursFree(const std::string& x, const Expr& e) {
  return freeVars(e).count(x) > 0;
}

void collectNames(const Expr& e, std::set<std::string>& out) {
  if (e->kind() == ExprKind::Var || e->kind() == ExprKind::Lambda)
    out.insert(e->name());
  else if (e->kind() == ExprKind::DepLambda)
    out.insert(e->binder().name());
  forEachChild(e, [&](const Expr& c) { collectNames(c, out); });
}

std::string NameSupply::fresh(const std::string& base) {
  for (;;) {
    std::string name = base + std::to_string(++counter_);
    // `i8`, `u16`, `f32`... are scalar type names: a binder spelt like one
    // would not survive printing and re-parsing (`risec rewrite`, --dump=lower).
    if (rise::scalarFromName(name))
      continue;
    if (used_.insert(name).second)
      return name;
  }
}

Expr substitute(const Expr& e, const std::string& x, const Expr& v, NameSupply& names) {
  switch (e->kind()) {
  case ExprKind::Var:
    return e->name() == x ? v : e;
  case ExprKind::Lambda: {
    if (e->name() == x)
      return e;
    if (!occursFree(x, e->body()))
      return e;
    if (occursFree(e->name(), v)) {
      std::string y = names.fresh(e->name());
      Expr body = substitute(e->body(), e->name(), var(y), names);
      return makeLambda(y, e->paramType(), substitute(body, x, v, names), e->loc());
    }
    return makeLambda(e->name(), e->paramType(), substitute(e->body(), x, v, names), e->loc());
  }
  case ExprKind::App:
    return makeApp(substitute(e->fn(), x, v, names), substitute(e->arg(), x, v, names), e->loc());
  case ExprKind::DepLambda:
    return makeDepLambda(e->binder(), substitute(e->body(), x, v, names), e->loc());
  case ExprKind::DepApp:
    return makeDepApp(substitute(e->fn(), x, v, names), e->typeArg(), e->implicitArg(), e->loc());
  default:
    return e;
  }
}

} // namespace risec::rules

namespace risec::rules {

bool isArray(const Type& t) {
  return t && t->kind() == TypeKind::Array;
}

Expr annotateParams(const Expr& e) {
  if (e->kind() != ExprKind::Lambda)
    return mapChildren(e, annotateParams);
  Type p = e->paramType();
  if (!p && e->type() && e->type()->kind() == TypeKind::Fun)
    p = e->type()->param();
  return makeLambda(e->name(), p, annotateParams(e->body()), e->loc(), e->type());
}

namespace {

/// Thrown where the shapes differ; restoreAnnotations returns null then.
struct ShapesDiffer {};

Expr restore(const Expr& shape, const Expr& t) {
  if (t->kind() == ExprKind::DepApp && t->implicitArg())
    return makeDepApp(restore(shape, t->fn()), t->typeArg(), true, t->loc(), t->type());
  if (shape->kind() != t->kind())
    throw ShapesDiffer{};
  switch (t->kind()) {
  case ExprKind::Lambda:
    return makeLambda(t->name(), shape->paramType(), restore(shape->body(), t->body()), t->loc(),
                      t->type());
  case ExprKind::App:
    return makeApp(restore(shape->fn(), t->fn()), restore(shape->arg(), t->arg()), t->loc(),
                   t->type());
  case ExprKind::DepLambda:
    return makeDepLambda(t->binder(), restore(shape->body(), t->body()), t->loc(), t->type());
  case ExprKind::DepApp:
    return makeDepApp(restore(shape->fn(), t->fn()), t->typeArg(), false, t->loc(), t->type());
  default:
    return t;
  }
}

} // namespace

Expr restoreAnnotations(const Expr& shape, const Expr& t) {
  try {
    return restore(shape, t);
  } catch (const ShapesDiffer&) {
    return nullptr;
  }
}

std::optional<Expr> depBetaReduction(const Expr& e) {
  if (e->kind() != ExprKind::DepApp || e->implicitArg() || e->fn()->kind() != ExprKind::DepLambda)
    return std::nullopt;
  TypeSubst s;
  s.bind(e->fn()->binder(), e->typeArg());
  return substituteTypeLevel(e->fn()->body(), s);
}

Expr substituteTypeLevel(const Expr& e, const TypeSubst& s) {
  switch (e->kind()) {
  case ExprKind::Lambda:
    return makeLambda(e->name(), e->paramType() ? substitute(e->paramType(), s) : nullptr,
                      substituteTypeLevel(e->body(), s), e->loc());
  case ExprKind::App:
    return makeApp(substituteTypeLevel(e->fn(), s), substituteTypeLevel(e->arg(), s), e->loc());
  case ExprKind::DepLambda:
    return makeDepLambda(e->binder(), substituteTypeLevel(e->body(), s), e->loc());
  case ExprKind::DepApp:
    return makeDepApp(substituteTypeLevel(e->fn(), s), substitute(e->typeArg(), s),
                      e->implicitArg(), e->loc());
  default:
    return e;
  }
}

} // namespace risec::rules
