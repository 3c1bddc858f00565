#include "rise/ast/Traverse.h"

#include "support/Diagnostic.h"

namespace risec::rise {

Expr replaceChildren(const Expr& e, Expr first, Expr second) {
  switch (e->kind()) {
  case ExprKind::App:
    if (!first || !second)
      throw InternalError("replaceChildren: an application needs two children");
    if (first == e->fn() && second == e->arg())
      return e;
    return e->withChildren(std::move(first), std::move(second));
  case ExprKind::DepApp:
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    if (!first || second)
      throw InternalError("replaceChildren: this node has one child");
    if (first == (e->kind() == ExprKind::DepApp ? e->fn() : e->body()))
      return e;
    return e->withChildren(std::move(first), nullptr);
  default:
    if (first || second)
      throw InternalError("replaceChildren: a leaf has no children");
    return e;
  }
}

} // namespace risec::rise
