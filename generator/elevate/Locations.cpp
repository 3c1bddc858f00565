// Locations: where a rule is applied, described by a predicate.
//   s @ outermost(p)   topDown(p ; s): the first position top-down where p
//                      holds and s succeeds
//   s @ innermost(p)   bottomUp(p ; s): the same, bottom-up
//   s @ outermostArgFirst(p), s @ innermostArgFirst(p): the same, an
//                      argument visited before its function (Shine's
//                      alternative2 traversal, tvmGemm's outermost/innermost)
//   s @ everywhere     normalize(s): s wherever it applies, top-down, until it
//                      applies nowhere (succeeds also when s applies nowhere)
#include "elevate/Combinators.h"

namespace risec::elevate {

StrategyPtr outermost(StrategyPtr pred, StrategyPtr s, SourceLocation loc) {
  return traverse(Traversal::TopDown, seq(std::move(pred), std::move(s), loc), loc);
}

StrategyPtr innermost(StrategyPtr pred, StrategyPtr s, SourceLocation loc) {
  return traverse(Traversal::BottomUp, seq(std::move(pred), std::move(s), loc), loc);
}

StrategyPtr outermostArgFirst(StrategyPtr pred, StrategyPtr s, SourceLocation loc) {
  return traverse(Traversal::TopDownArgumentFirst, seq(std::move(pred), std::move(s), loc), loc);
}

StrategyPtr innermostArgFirst(StrategyPtr pred, StrategyPtr s, SourceLocation loc) {
  return traverse(Traversal::BottomUpArgumentFirst, seq(std::move(pred), std::move(s), loc), loc);
}

StrategyPtr everywhere(StrategyPtr s, SourceLocation loc) {
  return traverse(Traversal::Normalize, std::move(s), std::move(loc));
}

} // namespace risec::elevate
