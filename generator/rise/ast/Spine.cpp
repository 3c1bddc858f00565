#include "rise/ast/Spine.h"

#include <algorithm>

namespace risec::rise {

Expr spineHead(Expr e) {
  while (e->kind() == ExprKind::App || e->kind() == ExprKind::DepApp)
    e = e->fn();
  return e;
}

Spine collectSpine(const Expr& e, bool withImplicit) {
  Spine s;
  Expr h = e;
  for (; h->kind() == ExprKind::App || h->kind() == ExprKind::DepApp; h = h->fn()) {
    if (h->kind() == ExprKind::App) {
      if (!s.depArgs.empty() && !s.depAfterValue.known())
        s.depAfterValue = h->loc();
      s.args.push_back(h->arg());
    } else if (withImplicit || !h->implicitArg()) {
      s.depArgs.push_back(h->typeArg());
    }
  }
  // Collected outermost first; arguments are applied innermost first.
  std::reverse(s.args.begin(), s.args.end());
  std::reverse(s.depArgs.begin(), s.depArgs.end());
  s.head = h;
  return s;
}

std::optional<Spine> extendSpine(const Expr& head, const std::vector<TypeArg>& depArgs,
                                 const std::vector<Expr>& args) {
  Spine inner = collectSpine(head, true);
  if (!depArgs.empty() && !inner.args.empty())
    return std::nullopt;
  inner.depArgs.insert(inner.depArgs.end(), depArgs.begin(), depArgs.end());
  inner.args.insert(inner.args.end(), args.begin(), args.end());
  return inner;
}

} // namespace risec::rise
