#include "rules/NormalForms.h"

namespace risec::rules {

using namespace risec::rise;

Expr betaEtaNormalForm(const Expr& e, NameSupply& names, bool keepTop) {
  switch (e->kind()) {
  case ExprKind::App: {
    Expr f = betaEtaNormalForm(e->fn(), names, false);
    Expr a = betaEtaNormalForm(e->arg(), names, false);
    if (f->kind() == ExprKind::Lambda)
      return betaEtaNormalForm(substitute(f->body(), f->name(), a, names), names, false);
    return makeApp(f, a, e->loc());
  }
  case ExprKind::Lambda: {
    Expr b = betaEtaNormalForm(e->body(), names, keepTop);
    if (!keepTop && b->kind() == ExprKind::App && b->arg()->kind() == ExprKind::Var &&
        b->arg()->name() == e->name() && !occursFree(e->name(), b->fn()))
      return b->fn();
    return makeLambda(e->name(), e->paramType(), b, e->loc());
  }
  case ExprKind::DepLambda:
    return makeDepLambda(e->binder(), betaEtaNormalForm(e->body(), names, keepTop), e->loc());
  case ExprKind::DepApp:
    return makeDepApp(betaEtaNormalForm(e->fn(), names, false), e->typeArg(), e->implicitArg(),
                      e->loc());
  default:
    return e;
  }
}

namespace {

class DataFlow {
public:
  explicit DataFlow(NameSupply& names) : names_(names) {}

  Expr walk(const Expr& e, bool inFnPos, bool keepTop) {
    Spine s = spineOf(e);
    if (s.head->kind() == ExprKind::Primitive &&
        (isMapLike(s.head->prim()) || isReduceLike(s.head->prim())) && !s.args.empty())
      return dataPrimitive(s, inFnPos);
    switch (e->kind()) {
    case ExprKind::App:
      return makeApp(walk(e->fn(), true, false), walk(e->arg(), false, false), e->loc());
    case ExprKind::Lambda:
      return makeLambda(e->name(), e->paramType(), walk(e->body(), false, keepTop), e->loc());
    case ExprKind::DepLambda:
      return makeDepLambda(e->binder(), walk(e->body(), false, keepTop), e->loc());
    default:
      return e;
    }
  }

private:
  Expr lambdaOf(const Expr& f, int params) {
    if (f->kind() == ExprKind::Lambda) {
      if (params == 1)
        return makeLambda(f->name(), f->paramType(), walk(f->body(), false, false), f->loc());
      return makeLambda(f->name(), f->paramType(), lambdaOf(f->body(), params - 1), f->loc());
    }
    std::vector<std::string> xs;
    Expr body = walk(f, true, false);
    for (int i = 0; i < params; ++i) {
      xs.push_back(names_.fresh(params == 1 ? "x" : i == 0 ? "acc" : "y"));
      body = app(body, var(xs.back()));
    }
    for (int i = params; i-- > 0;)
      body = lam(xs[i], body);
    return body;
  }

  Expr dataPrimitive(const Spine& s, bool inFnPos) {
    bool isMap = isMapLike(s.head->prim());
    std::size_t arity = isMap ? 2 : 3;
    std::vector<Expr> args;
    args.push_back(lambdaOf(s.args[0], isMap ? 1 : 2));
    for (std::size_t i = 1; i < s.args.size(); ++i)
      args.push_back(walk(s.args[i], false, false));
    Expr call = rebuild(s.head, s.depArgs, args);
    if (inFnPos || s.args.size() >= arity)
      return call;
    std::vector<std::string> xs;
    for (std::size_t i = s.args.size(); i < arity; ++i) {
      xs.push_back(names_.fresh("x"));
      call = app(call, var(xs.back()));
    }
    for (std::size_t i = xs.size(); i-- > 0;)
      call = lam(xs[i], call);
    return call;
  }

  NameSupply& names_;
};

} // namespace

Expr dataFlowNormalForm(const Expr& e, NameSupply& names, bool keepTop) {
  Expr b = betaEtaNormalForm(e, names, keepTop);
  return DataFlow(names).walk(b, false, keepTop);
}

} // namespace risec::rules
