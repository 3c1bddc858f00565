// Vectorisation: a map of a scalar function over an array of scalars becomes
// a map of the lifted function over vectors of n lanes.
#include "rise/ast/Traverse.h"
#include "rules/Rule.h"
#include "rules/VectorLift.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

bool scalarArray(const Type& t) {
  return t && t->kind() == TypeKind::Array && t->elem()->kind() == TypeKind::Scalar &&
         t->elem()->scalar() != ScalarKind::Bool;
}

/// The projection paths of `x` that `e` reads.
void usedPaths(const Expr& e, const std::string& x, std::set<std::string>& out) {
  if (auto p = projectionPath(e, x)) {
    out.insert(*p);
    return;
  }
  // neither below a binder of x nor inside a depFun
  if ((e->kind() == ExprKind::Lambda && e->name() == x) || e->kind() == ExprKind::DepLambda)
    return;
  forEachChild(e, [&](const Expr& c) { usedPaths(c, x, out); });
}

bool readsBelow(const std::set<std::string>& used, const std::string& prefix) {
  for (const std::string& p : used)
    if (p.rfind(prefix, 0) == 0)
      return true;
  return false;
}

/// `xs` as an array of (nested pairs of) vectors of `n` lanes: `asVector(n)`
/// of an array of scalars; a `zip` component by component; an array of pairs
/// through `unzip`, when the body reads both components (`used`, the
/// projection paths it reads; `at`, the path of `xs`): an unread half of an
/// unzipped array would still be computed into a temporary. Nothing for other
/// element types.
std::optional<Expr> vectorInput(const Expr& xs, std::int64_t n, const std::set<std::string>& used,
                                const std::string& at) {
  const Type& t = xs->type();
  if (scalarArray(t))
    return app(depNat(prim(Prim::AsVector), n), xs);
  if (!t || t->kind() != TypeKind::Array || t->elem()->kind() != TypeKind::Pair)
    return std::nullopt;
  std::optional<Expr> a, b;
  if (isCall(xs, Prim::Zip, 2)) {
    Spine z = spineOf(xs);
    a = vectorInput(z.args[0], n, used, at + "f");
    b = vectorInput(z.args[1], n, used, at + "s");
  } else {
    if (!readsBelow(used, at + "f") || !readsBelow(used, at + "s"))
      return std::nullopt;
    const Type& e = t->elem();
    Expr u = makeApp(prim(Prim::Unzip), xs, {},
                     pairType(arrayType(t->size(), e->first()), arrayType(t->size(), e->second())));
    a = vectorInput(makeApp(prim(Prim::Fst), u, {}, u->type()->first()), n, used, at + "f");
    b = vectorInput(makeApp(prim(Prim::Snd), u, {}, u->type()->second()), n, used, at + "s");
  }
  if (!a || !b)
    return std::nullopt;
  return app(prim(Prim::Zip), *a, *b);
}

RuleFn vectorize(std::int64_t n) {
  return [n](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (!isPrim(s.head, Prim::Map) || s.args.size() != 2 || !e->type())
      return std::nullopt;
    const Type& in = s.args[1]->type();
    const Type& out = e->type();
    if (!scalarArray(out))
      return std::nullopt;
    if (std::optional<std::string> why = whyNotChunked(out->size(), n))
      return ctx.refuse(*why + " (peelTail(" + std::to_string(n) + ") first)");
    Expr f = s.args[0];
    std::string x;
    Expr body;
    if (f->kind() == ExprKind::Lambda) {
      x = f->name();
      body = f->body();
    } else if (f->kind() == ExprKind::Primitive && liftableToVector(f->prim())) {
      x = ctx.names.fresh("v");
      if (!scalarArray(in))
        return std::nullopt;
      body = makeApp(f, makeVar(x, {}, in->elem()), {}, out->elem());
    } else {
      return std::nullopt;
    }
    // A body that ignores its parameter would leave the vector width of the
    // lifted constant undetermined (and gains nothing from vectorising).
    if (!occursFree(x, body))
      return std::nullopt;
    std::set<std::string> used;
    usedPaths(body, x, used);
    auto vecInput = vectorInput(s.args[1], n, used, "");
    if (!vecInput)
      return std::nullopt;
    auto lifted = liftToVector(body, x);
    // an application, or the identity (a copy, as in Shine's array packing)
    if (!lifted || ((*lifted)->kind() != ExprKind::App &&
                    !((*lifted)->kind() == ExprKind::Var && (*lifted)->name() == x)))
      return std::nullopt;
    return app(prim(Prim::AsScalar), app(prim(Prim::Map), lam(x, *lifted), *vecInput));
  };
}

} // namespace

void registerVectoriseRules(RuleRegistry& r) {
  r.add(RuleInfo{"vectorize",
                 "vectorise",
                 {ParamKind::Int},
                 "map(fun(x => e))   (e scalar arithmetic on x)",
                 "asVector(n) >> map(fun(x => e')) >> asScalar   (e' = e on vec[s, n])",
                 [](const std::vector<RuleArg>& a) { return vectorize(intArg(a, 0)); }});
}

} // namespace risec::rules
