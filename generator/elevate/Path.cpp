#include "elevate/Path.h"

#include "support/Diagnostic.h"

namespace risec::elevate {

using namespace risec::rise;

int childCount(const Expr& e) {
  switch (e->kind()) {
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
  case ExprKind::DepApp:
    return 1;
  case ExprKind::App:
    return 2;
  default:
    return 0;
  }
}

Expr childAt(const Expr& e, int i) {
  switch (e->kind()) {
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    return e->body();
  case ExprKind::DepApp:
    return e->fn();
  case ExprKind::App:
    return i == 0 ? e->fn() : e->arg();
  default:
    throw InternalError("childAt: a leaf has no children");
  }
}

Expr nodeAt(const Expr& root, const Path& path) {
  Expr e = root;
  for (int i : path) {
    if (i < 0 || i >= childCount(e))
      throw InternalError("nodeAt: no such position");
    e = childAt(e, i);
  }
  return e;
}

Expr replaceAt(const Expr& e, const Path& path, std::size_t depth, const Expr& sub) {
  if (depth == path.size())
    return sub;
  Expr c = replaceAt(childAt(e, path[depth]), path, depth + 1, sub);
  switch (e->kind()) {
  case ExprKind::Lambda:
    return makeLambda(e->name(), e->paramType(), c, e->loc(), e->type());
  case ExprKind::DepLambda:
    return makeDepLambda(e->binder(), c, e->loc());
  case ExprKind::DepApp:
    return makeDepApp(c, e->typeArg(), e->implicitArg(), e->loc());
  case ExprKind::App:
    return path[depth] == 0 ? makeApp(c, e->arg(), e->loc()) : makeApp(e->fn(), c, e->loc());
  default:
    throw InternalError("replaceAt: a leaf has no children");
  }
}

Path childPath(const Path& p, int i) {
  Path c = p;
  c.push_back(i);
  return c;
}

} // namespace risec::elevate
