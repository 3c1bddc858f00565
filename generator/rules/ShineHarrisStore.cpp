// storeToPrivate: the step of Shine's harrisBufferedLowering
// (rise-lang/shine, src/main/scala/apps/harrisCornerDetectionHalideRewrite.scala,
// commit 7212084e) that is a Scala closure,
//
//   lambdaBodyWithName(x =>
//     storeToPrivate(isEqualToUntyped(fst(x)) <+ isAppliedReduce) `;`
//     storeToPrivate(isEqualToUntyped(fst(snd(x))) <+ isAppliedReduce) `;`
//     storeToPrivate(isEqualToUntyped(snd(snd(x))) <+ isAppliedReduce))
//
// where Shine's storeToPrivate(find) is subexpressionElimination(find)
// followed by a closure that writes the found value into private memory
// (`writeUnrolled(v.t)(v) |> toPrivate |> letf(f)`). As one rule: at
// `fun(x => b)` with x a (nested) pair, each projection of x that b reads
// (`fst(x)`, `fst(snd(x))`, `snd(snd(x))`, ...; the outermost ones, in the
// order they first occur) is computed once into private memory:
//
//   fun(x => let(toPrivate(p1))(fun(v1 => ... let(toPrivate(pk))(fun(vk =>
//            b[p1 := v1, ..., pk := vk])))))
//
// Only projections of a scalar or vector type (Shine's typeHasTrivialCopy:
// its writeUnrolled is then the identity); Shine's `<+ isAppliedReduce`
// alternative finds the sums where they were inlined into the body, which
// risec's shape never does (they stay in the zip the map reads), so it is
// not part of the rule.
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// `fst(...fst/snd...(x))`: a projection of the variable x.
bool isProjectionOf(const Expr& e, const std::string& x) {
  Spine s = spineOf(e);
  if ((!isPrim(s.head, Prim::Fst) && !isPrim(s.head, Prim::Snd)) || s.args.size() != 1)
    return false;
  const Expr& a = s.args[0];
  return (a->kind() == ExprKind::Var && a->name() == x) || isProjectionOf(a, x);
}

/// The outermost projections of x in e, in pre-order, without repeats.
void collectProjections(const Expr& e, const std::string& x, std::vector<Expr>& out) {
  if (isProjectionOf(e, x)) {
    for (const Expr& p : out)
      if (alphaEquivalent(p, e))
        return;
    out.push_back(e);
    return;
  }
  switch (e->kind()) {
  case ExprKind::Lambda:
    if (e->name() != x)
      collectProjections(e->body(), x, out);
    return;
  case ExprKind::App:
    collectProjections(e->fn(), x, out);
    collectProjections(e->arg(), x, out);
    return;
  default: // primitives, literals, variables; the body of a per-element
           // function has no type-level abstraction to look into
    return;
  }
}

/// e with every projection alpha-equivalent to p replaced by v (not under a
/// binder of x; through lambdas and applications, as collectProjections).
Expr replaceProjection(const Expr& e, const std::string& x, const Expr& p, const Expr& v) {
  if (isProjectionOf(e, x) && alphaEquivalent(e, p))
    return v;
  switch (e->kind()) {
  case ExprKind::Lambda:
    if (e->name() == x)
      return e;
    return lam(e->name(), replaceProjection(e->body(), x, p, v));
  case ExprKind::App:
    return app(replaceProjection(e->fn(), x, p, v), replaceProjection(e->arg(), x, p, v));
  default: // as collectProjections
    return e;
  }
}

bool trivialCopy(const Type& t) {
  return t && t->isData() && t->kind() != TypeKind::Array && t->kind() != TypeKind::Pair;
}

std::optional<Expr> storeToPrivate(const Expr& e, RuleContext& ctx) {
  if (e->kind() != ExprKind::Lambda)
    return std::nullopt;
  const std::string& x = e->name();
  std::vector<Expr> found;
  collectProjections(e->body(), x, found);
  if (found.empty())
    return ctx.refuse("the body reads no fst or snd of the parameter " + x);
  for (const Expr& p : found)
    if (!trivialCopy(p->type()))
      return ctx.refuse("a projection of " + x +
                        " is an array or a pair (only scalars and vectors are stored)");
  Expr body = e->body();
  std::vector<std::string> names;
  for (const Expr& p : found) {
    names.push_back(ctx.names.fresh("v"));
    body = replaceProjection(body, x, p, var(names.back()));
  }
  for (std::size_t i = found.size(); i-- > 0;)
    body = app(prim(Prim::Let), app(prim(Prim::ToPrivate), found[i]), lam(names[i], body));
  return lam(x, body);
}

} // namespace

void registerShineHarrisStoreRules(RuleRegistry& r) {
  r.add(simpleRule("storeToPrivate", "lowering",
                   "fun(x => b)   (b reads fst(x), fst(snd(x)), ...: scalars or vectors)",
                   "fun(x => let(toPrivate(fst(x)))(fun(v1 => ... b[fst(x) := v1, ...])))",
                   storeToPrivate));
}

} // namespace risec::rules
