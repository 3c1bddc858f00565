#include "rules/VectorLift.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

bool scalarTyped(const Expr& e) {
  return e->type() && e->type()->kind() == TypeKind::Scalar;
}

} // namespace

std::optional<std::string> projectionPath(const Expr& e, const std::string& x) {
  if (e->kind() == ExprKind::Var)
    return e->name() == x ? std::optional<std::string>("") : std::nullopt;
  bool fst = isCall(e, Prim::Fst, 1);
  if (!fst && !isCall(e, Prim::Snd, 1))
    return std::nullopt;
  auto inner = projectionPath(e->arg(), x);
  if (!inner)
    return std::nullopt;
  return *inner + (fst ? "f" : "s");
}

bool liftableToVector(Prim p) {
  return primInfo(p).traits.liftableToVector;
}

std::optional<Expr> liftToVector(const Expr& e, const std::string& x) {
  switch (e->kind()) {
  case ExprKind::Var:
    if (e->name() == x)
      return var(x);
    if (!scalarTyped(e))
      return std::nullopt;
    return app(prim(Prim::VectorFromScalar), e);
  case ExprKind::Literal:
    if (e->isArrayLiteral()) // not a scalar: only its elements could be lifted
      return std::nullopt;
    return app(prim(Prim::VectorFromScalar), e);
  case ExprKind::App: {
    // fst(x), snd(fst(x)), ... of (nested) pairs of vectors (a map over zips)
    if (auto path = projectionPath(e, x); path && !path->empty())
      return e;
    if (!occursFree(x, e))
      return scalarTyped(e) ? std::optional<Expr>(app(prim(Prim::VectorFromScalar), e))
                            : std::nullopt;
    Spine s = spineOf(e);
    if (s.head->kind() != ExprKind::Primitive || !liftableToVector(s.head->prim()) ||
        !s.depArgs.empty())
      return std::nullopt;
    std::vector<Expr> args;
    for (const Expr& a : s.args) {
      auto l = liftToVector(a, x);
      if (!l)
        return std::nullopt;
      args.push_back(*l);
    }
    return rebuild(prim(s.head->prim()), {}, args);
  }
  default:
    return std::nullopt;
  }
}

} // namespace risec::rules
