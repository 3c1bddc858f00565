// Vectorisation: a map of a scalar function over an array of scalars becomes
// a map of the lifted function over vectors of n lanes.
#include "rules/Rule.h"
#include "rules/VectorLift.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

RuleFn vectorize(std::int64_t n) {
  return [n](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (!isPrim(s.head, Prim::Map) || s.args.size() != 2 || !e->type())
      return std::nullopt;
    const Type& in = s.args[1]->type();
    const Type& out = e->type();
    auto scalarArray = [](const Type& t) {
      return t && t->kind() == TypeKind::Array && t->elem()->kind() == TypeKind::Scalar &&
             t->elem()->scalar() != ScalarKind::Bool;
    };
    if (!scalarArray(out))
      return std::nullopt;
    auto asVec = [n](const Expr& a) { return app(depNat(prim(Prim::AsVector), n), a); };
    Expr vecInput;
    if (scalarArray(in)) {
      vecInput = asVec(s.args[1]);
    } else if (isCall(s.args[1], Prim::Zip, 2)) {
      Spine z = spineOf(s.args[1]);
      if (!scalarArray(z.args[0]->type()) || !scalarArray(z.args[1]->type()))
        return std::nullopt;
      vecInput = app(prim(Prim::Zip), asVec(z.args[0]), asVec(z.args[1]));
    } else {
      return std::nullopt;
    }
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
    auto lifted = liftToVector(body, x);
    if (!lifted || (*lifted)->kind() != ExprKind::App)
      return std::nullopt;
    return app(prim(Prim::AsScalar), app(prim(Prim::Map), lam(x, *lifted), vecInput));
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
