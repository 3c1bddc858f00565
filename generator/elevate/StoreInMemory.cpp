// Shine's storeInMemory(what, how) (rise/elevate/strategies/lowering.scala):
// the first sub-expression where the predicate `what` holds (searched from
// the focus, a function before its argument) is rewritten by `how` in place,
// and the focus becomes
//
//   let(toMem(how(e)))(fun(x => focus with every e where `what` holds := x))
//
// so the rewritten e is computed once, into memory, before the focus. In
// tvmGemm it packs the transposed B (`storeInMemory(isTransposedB, permuteB
// ;; ...) @ inLambda`). risec's rule storeInMemory (no arguments) is the
// plain `e -> toMem(e)`; the builder picks by the number of arguments.
#include "elevate/Combinators.h"
#include "elevate/Path.h"
#include "elevate/Session.h"
#include "rise/ast/Expr.h"
#include "rules/RiseUtil.h"

#include <set>

namespace risec::elevate {

using namespace risec::rise;

namespace {

/// The first position under `at` (pre-order, children in order) where `p`
/// holds.
std::optional<Path> firstWhere(const StrategyPtr& p, const State& st, const Path& at, Session& se) {
  if (p->apply(st, at, se))
    return at;
  int n = childCount(nodeAt(st.expr, at));
  for (int i = 0; i < n; ++i)
    if (auto r = firstWhere(p, st, childPath(at, i), se))
      return r;
  return std::nullopt;
}

/// The node at `at` with every position where `p` holds and the term is
/// `found` replaced by `x` (the outermost ones; what they contain goes with
/// them). Shine replaces every position where `p` holds; one that holds
/// another term would leave the program ill-typed.
Expr replaceWhere(const StrategyPtr& p, const State& st, const Path& at, const Expr& found,
                  const Expr& x, Session& se) {
  Expr e = nodeAt(st.expr, at);
  if (alphaEquivalent(e, found) && p->apply(st, at, se))
    return x;
  int n = childCount(e);
  for (int i = 0; i < n; ++i) {
    Expr child = replaceWhere(p, st, childPath(at, i), found, x, se);
    if (child != childAt(e, i))
      e = replaceAt(e, {i}, child);
  }
  return e;
}

/// The first parameter of a `fun` on the way from `at` down to (not
/// including) `found` that occurs free in `value`, or "".
std::string boundOnTheWay(const Expr& root, const Path& at, const Path& found, const Expr& value) {
  std::set<std::string> free = rules::freeVars(value);
  Path p = at;
  for (std::size_t d = at.size(); d < found.size(); ++d) {
    Expr node = nodeAt(root, p);
    if (node->kind() == ExprKind::Lambda && free.count(node->name()))
      return node->name();
    p.push_back(found[d]);
  }
  return "";
}

class StoreInMemory final : public Strategy {
public:
  StoreInMemory(StrategyPtr what, StrategyPtr how, SourceLocation loc)
      : Strategy("storeInMemory(" + what->display() + ", " + how->display() + ")", std::move(loc)),
        what_(std::move(what)), how_(std::move(how)) {}

  std::optional<State> apply(const State& st, const Path& at, Session& se) const override {
    auto found = firstWhere(what_, st, at, se);
    if (!found)
      return std::nullopt;
    auto stored = how_->apply(st, *found, se);
    if (!stored)
      return std::nullopt;
    Expr value = nodeAt(stored->expr, *found);
    // the let goes around the focus: a value that uses a parameter of a
    // function between the focus and where it was found cannot be computed
    // there (Shine applies it `@ inLambda`, inside the functions)
    if (std::string bound = boundOnTheWay(st.expr, at, *found, value); !bound.empty()) {
      se.recordFailure(*this, st, at,
                       "the value it would store uses `" + bound +
                           "`, a parameter of a function inside the term it was applied to; "
                           "apply it inside that function (e.g. `... @ inLambda`)");
      return std::nullopt;
    }
    std::string x = se.names().fresh("x");
    Expr body = replaceWhere(what_, st, at, nodeAt(st.expr, *found), rules::var(x), se);
    Expr let = rules::app(rules::prim(Prim::Let), rules::app(rules::prim(Prim::ToMem), value),
                          rules::lam(x, body));
    return se.commit(st, at, let, *this);
  }

private:
  StrategyPtr what_, how_;
};

} // namespace

StrategyPtr storeInMemory(StrategyPtr what, StrategyPtr how, SourceLocation loc) {
  return std::make_shared<StoreInMemory>(std::move(what), std::move(how), std::move(loc));
}

} // namespace risec::elevate
