// Shine's identity rules (rise/elevate/rules/algorithmic.scala): idAfter,
// liftId, idToCopy, createTransposePair, and transposePairAfter (idAfter ;
// createTransposePair). Shine has a primitive `id`; risec writes it as the
// identity function applied, `fun(x => x)(e)`, which the rules below
// recognise. Between idAfter and the rules that consume it nothing may
// normalise (BENF would reduce it), as in Shine's array packing (permuteB),
// where the ids are lifted to the scalars (liftId) and become the element
// copies of a stored array (idToCopy: Shine's `fun(x => x)` applied, which
// is risec's id already).
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// `fun(x => x)(arg)`: Shine's `id(arg)`.
std::optional<Expr> idArgument(const Expr& e) {
  if (e->kind() != ExprKind::App || e->fn()->kind() != ExprKind::Lambda)
    return std::nullopt;
  const Expr& f = e->fn();
  if (f->body()->kind() != ExprKind::Var || f->body()->name() != f->name())
    return std::nullopt;
  return e->arg();
}

Expr identityOf(const Expr& e, RuleContext& ctx) {
  std::string x = ctx.names.fresh("x");
  return app(lam(x, var(x)), e);
}

bool hasType(const Expr& e, bool (*test)(const Type&)) {
  return e->type() && test(e->type());
}

std::optional<Expr> idAfter(const Expr& e, RuleContext& ctx) {
  if (!hasType(e, [](const Type& t) { return t->isData(); }))
    return std::nullopt;
  return identityOf(e, ctx);
}

std::optional<Expr> liftId(const Expr& e, RuleContext& ctx) {
  auto arg = idArgument(e);
  if (!arg || !hasType(*arg, isArray))
    return std::nullopt;
  std::string y = ctx.names.fresh("y");
  return app(prim(Prim::Map), lam(y, identityOf(var(y), ctx)), *arg);
}

std::optional<Expr> idToCopy(const Expr& e, RuleContext&) {
  auto arg = idArgument(e);
  if (!arg || !hasType(*arg, [](const Type& t) { return t->kind() == TypeKind::Scalar; }))
    return std::nullopt;
  return e; // Shine's copy `fun(x => x)(arg)` is risec's id
}

bool isMatrix(const Type& t) {
  return t->kind() == TypeKind::Array && t->elem()->kind() == TypeKind::Array;
}

Expr transposePair(const Expr& e) {
  return app(prim(Prim::Transpose), app(prim(Prim::Transpose), e));
}

std::optional<Expr> createTransposePair(const Expr& e, RuleContext&) {
  auto arg = idArgument(e);
  if (!arg || !hasType(*arg, isMatrix))
    return std::nullopt;
  return transposePair(*arg);
}

std::optional<Expr> transposePairAfter(const Expr& e, RuleContext&) {
  if (!hasType(e, isMatrix))
    return std::nullopt;
  return transposePair(e);
}

} // namespace

void registerIdentityRules(RuleRegistry& r) {
  const std::string fam = "algorithmic";
  r.add(simpleRule("idAfter", fam, "e   (e: data)", "fun(x => x)(e)   (Shine's id(e))", idAfter));
  r.add(simpleRule("liftId", fam, "fun(x => x)(e)   (e: an array)",
                   "map(fun(y => fun(x => x)(y)))(e)", liftId));
  r.add(simpleRule("idToCopy", fam, "fun(x => x)(e)   (e: a scalar)",
                   "fun(x => x)(e)   (Shine's copy; unchanged)", idToCopy));
  r.add(simpleRule("createTransposePair", fam, "fun(x => x)(e)   (e: n.m.t)",
                   "transpose(transpose(e))", createTransposePair));
  r.add(simpleRule("transposePairAfter", fam, "e   (e: n.m.t)", "transpose(transpose(e))",
                   transposePairAfter));
}

} // namespace risec::rules
