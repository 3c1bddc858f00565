// Predicates: strategies that succeed with the program unchanged when the
// focus has a shape, and fail otherwise.
#include "elevate/Combinators.h"
#include "elevate/FnStrategy.h"
#include "elevate/Path.h"
#include "rules/RiseUtil.h"

namespace risec::elevate {

using namespace risec::rise;

StrategyPtr predicate(std::string display, std::function<bool(const Expr&)> test,
                      SourceLocation loc) {
  return fnStrategy(
      std::move(display), std::move(loc),
      [test = std::move(test)](const State& st, const Path& at, Session&) -> std::optional<State> {
        if (test(nodeAt(st.expr, at)))
          return st;
        return std::nullopt;
      });
}

// The primitive itself too, as Shine's isMap (and risec's isReduce): so
// that isApplied(isApplied(isMap)) is a map applied to its function and data.
bool isMapNode(const Expr& e) {
  return rules::isPrim(rules::spineOf(e).head, Prim::Map);
}

bool isMapNest(const Expr& e, int depth) {
  if (depth <= 0)
    return true;
  rules::Spine s = rules::spineOf(e);
  if (!rules::isPrim(s.head, Prim::Map) || s.args.empty())
    return false;
  if (depth == 1)
    return true;
  Expr f = s.args[0];
  // map(fun(x => E)) where E is a map nest of depth - 1 (over x or not).
  if (f->kind() == ExprKind::Lambda)
    return isMapNest(f->body(), depth - 1);
  return isMapNest(f, depth - 1);
}

StrategyPtr isApplied(StrategyPtr p, SourceLocation loc) {
  return fnStrategy("isApplied(" + p->display() + ")", std::move(loc),
                    [p](const State& st, const Path& at, Session& se) -> std::optional<State> {
                      if (nodeAt(st.expr, at)->kind() != ExprKind::App)
                        return std::nullopt;
                      if (!p->apply(st, childPath(at, 0), se))
                        return std::nullopt;
                      return st;
                    });
}

} // namespace risec::elevate
