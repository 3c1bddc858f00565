#include "rise/ast/Substitute.h"

namespace risec::rise {

Expr substituteInExpr(const Expr& e, const TypeSubst& s) {
  Type t = e->type() ? substitute(e->type(), s) : nullptr;
  switch (e->kind()) {
  case ExprKind::Lambda:
    return makeLambda(e->name(), e->paramType() ? substitute(e->paramType(), s) : nullptr,
                      substituteInExpr(e->body(), s), e->loc(), t);
  case ExprKind::App:
    return makeApp(substituteInExpr(e->fn(), s), substituteInExpr(e->arg(), s), e->loc(), t);
  case ExprKind::DepLambda:
    return makeDepLambda(e->binder(), substituteInExpr(e->body(), s), e->loc(), t);
  case ExprKind::DepApp:
    return makeDepApp(substituteInExpr(e->fn(), s), substitute(e->typeArg(), s), e->implicitArg(),
                      e->loc(), t);
  default:
    return e->withType(t);
  }
}

} // namespace risec::rise
