// Navigation in the stripped view by Path (Strategy.h).
#pragma once

#include "elevate/Strategy.h"

namespace risec::elevate {

/// The number of children of `e` (see Path; in the order of rise/ast/Traverse.h).
int childCount(const Expr& e);
/// Child `i` of `e`; throws InternalError when there is none.
Expr childAt(const Expr& e, int i);
/// The node at `path`; throws InternalError when the path does not exist.
Expr nodeAt(const Expr& root, const Path& path);
/// `root` with the node at `path` replaced by `sub` (ancestors rebuilt, their
/// other fields kept).
Expr replaceAt(const Expr& root, const Path& path, std::size_t depth, const Expr& sub);
inline Expr replaceAt(const Expr& root, const Path& path, const Expr& sub) {
  return replaceAt(root, path, 0, sub);
}
Path childPath(const Path& p, int i);

} // namespace risec::elevate
