#include "elevate/Path.h"

#include "rise/ast/Traverse.h"
#include "support/Diagnostic.h"

namespace risec::elevate {

using namespace risec::rise;

int childCount(const Expr& e) {
  int n = 0;
  forEachChild(e, [&](const Expr&) { ++n; });
  return n;
}

Expr childAt(const Expr& e, int i) {
  Expr child;
  int k = 0;
  forEachChild(e, [&](const Expr& c) {
    if (k++ == i)
      child = c;
  });
  if (!child)
    throw InternalError("childAt: no such child");
  return child;
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
  int k = 0;
  return mapChildren(e, [&](const Expr& old) { return k++ == path[depth] ? c : old; });
}

Path childPath(const Path& p, int i) {
  Path c = p;
  c.push_back(i);
  return c;
}

} // namespace risec::elevate
