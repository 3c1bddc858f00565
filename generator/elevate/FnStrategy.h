// A strategy given by a function: the building block of traversals,
// locations and predicates.
#pragma once

#include "elevate/Strategy.h"

#include <functional>

namespace risec::elevate {

using StrategyFn = std::function<std::optional<State>(const State&, const Path&, Session&)>;

class FnStrategy final : public Strategy {
public:
  FnStrategy(std::string display, SourceLocation loc, StrategyFn fn)
      : Strategy(std::move(display), std::move(loc)), fn_(std::move(fn)) {}
  std::optional<State> apply(const State& s, const Path& at, Session& session) const override {
    return fn_(s, at, session);
  }

private:
  StrategyFn fn_;
};

inline StrategyPtr fnStrategy(std::string display, SourceLocation loc, StrategyFn fn) {
  return std::make_shared<FnStrategy>(std::move(display), std::move(loc), std::move(fn));
}

} // namespace risec::elevate
