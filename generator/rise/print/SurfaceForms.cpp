#include "rise/print/SurfaceForms.h"

#include "rise/ast/Traverse.h"

namespace risec::rise::surface {

namespace {

bool isPrimitive(const Expr& e, Prim p) {
  return e->kind() == ExprKind::Primitive && e->prim() == p;
}

bool occursFree(const std::string& x, const Expr& e) {
  if (e->kind() == ExprKind::Var)
    return e->name() == x;
  if (e->kind() == ExprKind::Lambda && e->name() == x)
    return false;
  return anyChild(e, [&](const Expr& c) { return occursFree(x, c); });
}

/// The function at the head of a call chain f(a)(b)(T), and the number of
/// written (not inferred) arguments in the chain.
std::pair<Expr, int> callHead(Expr e) {
  int args = 0;
  while ((e->kind() == ExprKind::App && !isSpecialApp(e)) || e->kind() == ExprKind::DepApp) {
    if (!(e->kind() == ExprKind::DepApp && e->implicitArg()))
      ++args;
    e = e->fn();
  }
  return {e, args};
}

} // namespace

/// Inferred type arguments are not written in the source, so they are skipped.
Expr stripImplicit(Expr e) {
  while (e->kind() == ExprKind::DepApp && e->implicitArg())
    e = e->fn();
  return e;
}

/// add(a)(b) built from a Primitive node prints as `a + b`.
std::optional<Infix> asInfix(const Expr& e) {
  if (e->kind() != ExprKind::App)
    return std::nullopt;
  Expr partial = stripImplicit(e->fn());
  if (partial->kind() != ExprKind::App)
    return std::nullopt;
  Expr head = stripImplicit(partial->fn());
  if (head->kind() != ExprKind::Primitive || !primInfix(head->prim()))
    return std::nullopt;
  return Infix{head->prim(), partial->arg(), e->arg()};
}

/// neg(a) / not(a) built from a Primitive node prints as `-a` / `!a`.
std::optional<std::pair<Prim, Expr>> asPrefix(const Expr& e) {
  if (e->kind() != ExprKind::App)
    return std::nullopt;
  Expr head = stripImplicit(e->fn());
  if (isPrimitive(head, Prim::Neg) || isPrimitive(head, Prim::Not))
    return std::make_pair(head->prim(), e->arg());
  return std::nullopt;
}

/// makePair(a)(b) prints as `(a, b)`. Only the Primitive node: a Var named
/// makePair must print as a call, or it would re-parse as the Primitive.
std::optional<std::pair<Expr, Expr>> asPair(const Expr& e) {
  if (e->kind() != ExprKind::App)
    return std::nullopt;
  Expr partial = stripImplicit(e->fn());
  if (partial->kind() != ExprKind::App ||
      !isPrimitive(stripImplicit(partial->fn()), Prim::MakePair))
    return std::nullopt;
  return std::make_pair(partial->arg(), e->arg());
}

/// Applications with their own surface syntax (not printed as calls).
bool isSpecialApp(const Expr& e) {
  return asInfix(e) || asPrefix(e) || asPair(e);
}

bool isCallChain(const Expr& e) {
  Expr s = stripImplicit(e);
  return (s->kind() == ExprKind::App && !isSpecialApp(s)) || s->kind() == ExprKind::DepApp;
}

/// App(f, x) printed `x |> f`: f is a (partial) call of a name, and either
/// x is the data argument of a data-parallel primitive (map(g), split(32),
/// join), or f is a user function and x is itself a call. Other primitives
/// stay calls: `zip(a, f(b))` reads better than `f(b) |> zip(a)`.
bool isPipeline(const Expr& e) {
  if (e->kind() != ExprKind::App || isSpecialApp(e))
    return false;
  Expr fn = stripImplicit(e->fn());
  if (fn->kind() == ExprKind::App && isSpecialApp(fn))
    return false;
  auto [head, args] = callHead(fn);
  std::optional<Prim> prim;
  if (head->kind() == ExprKind::Var)
    prim = primFromName(head->name());
  else if (head->kind() == ExprKind::Primitive)
    prim = head->prim();
  else if (head->kind() != ExprKind::Foreign)
    return false;
  if (prim) {
    // `xs |> map(f)` reads better than `map(f)(xs)`, but `map(f)` alone is
    // not a pipeline stage applied to `f`
    return args == primInfo(*prim).traits.argumentsBeforeData;
  }
  return isCallChain(e->arg());
}

/// fun(x => g(f(x))) with x free in neither f nor g prints as `f >> g`, the
/// form the parser desugars.
std::optional<Composition> asComposition(const Expr& e, bool showTypes) {
  if (e->kind() != ExprKind::Lambda || e->paramType() || (showTypes && e->type()))
    return std::nullopt;
  const Expr& body = e->body();
  if (body->kind() != ExprKind::App || isSpecialApp(body))
    return std::nullopt;
  const Expr& inner = body->arg();
  if (inner->kind() != ExprKind::App || isSpecialApp(inner))
    return std::nullopt;
  const Expr& x = inner->arg();
  if (x->kind() != ExprKind::Var || x->name() != e->name())
    return std::nullopt;
  if (occursFree(e->name(), body->fn()) || occursFree(e->name(), inner->fn()))
    return std::nullopt;
  return Composition{inner->fn(), body->fn()};
}

} // namespace risec::rise::surface
