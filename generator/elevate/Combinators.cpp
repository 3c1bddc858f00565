#include "elevate/Combinators.h"

#include "elevate/Session.h"

namespace risec::elevate {

namespace {

class Id final : public Strategy {
public:
  using Strategy::Strategy;
  std::optional<State> apply(const State& s, const Path&, Session&) const override { return s; }
};

class Fail final : public Strategy {
public:
  using Strategy::Strategy;
  std::optional<State> apply(const State&, const Path&, Session&) const override {
    return std::nullopt;
  }
};

class Seq final : public Strategy {
public:
  Seq(StrategyPtr a, StrategyPtr b, SourceLocation loc, bool steps)
      : Strategy(a->display() + " ; " + b->display(), std::move(loc)), a_(std::move(a)),
        b_(std::move(b)), steps_(steps) {}
  std::optional<State> apply(const State& s, const Path& at, Session& session) const override {
    if (!steps_) {
      auto r = a_->apply(s, at, session);
      return r ? b_->apply(*r, at, session) : std::nullopt;
    }
    std::size_t mark = session.beginStep();
    auto r = a_->apply(s, at, session);
    if (!r) {
      session.stepFailed(*a_, s, at, mark);
      return std::nullopt;
    }
    mark = session.beginStep();
    auto r2 = b_->apply(*r, at, session);
    if (!r2) {
      session.stepFailed(*b_, *r, at, mark);
      session.stepsBefore(*a_, mark);
    }
    return r2;
  }

  void appendSteps(std::vector<const Strategy*>& out) const override {
    if (!steps_)
      return Strategy::appendSteps(out);
    a_->appendSteps(out);
    b_->appendSteps(out);
  }

private:
  StrategyPtr a_, b_;
  bool steps_;
};

class AsWritten final : public Strategy {
public:
  AsWritten(StrategyPtr s, std::string text, SourceLocation loc)
      : Strategy(std::move(text), std::move(loc)), s_(std::move(s)) {}
  std::optional<State> apply(const State& s, const Path& at, Session& session) const override {
    return s_->apply(s, at, session);
  }

private:
  StrategyPtr s_;
};

class LeftChoice final : public Strategy {
public:
  LeftChoice(StrategyPtr a, StrategyPtr b, SourceLocation loc)
      : Strategy(a->display() + " <+ " + b->display(), std::move(loc)), a_(std::move(a)),
        b_(std::move(b)) {}
  std::optional<State> apply(const State& s, const Path& at, Session& session) const override {
    std::size_t mark = session.stepMark();
    if (auto r = a_->apply(s, at, session))
      return r;
    session.forgetStepFailures(mark);
    return b_->apply(s, at, session);
  }

private:
  StrategyPtr a_, b_;
};

class Repeat final : public Strategy {
public:
  Repeat(StrategyPtr s, SourceLocation loc)
      : Strategy("repeat(" + s->display() + ")", std::move(loc)), s_(std::move(s)) {}
  std::optional<State> apply(const State& s, const Path& at, Session& session) const override {
    State cur = s;
    std::size_t mark = session.stepMark();
    while (auto r = s_->apply(cur, at, session)) {
      session.tick(*this);
      cur = std::move(*r);
      mark = session.stepMark();
    }
    session.forgetStepFailures(mark); // the failure that ends the loop
    return cur;
  }

private:
  StrategyPtr s_;
};

class RepeatNTimes final : public Strategy {
public:
  RepeatNTimes(std::int64_t n, StrategyPtr s, SourceLocation loc)
      : Strategy("repeatNTimes(" + std::to_string(n) + ", " + s->display() + ")", std::move(loc)),
        n_(n), s_(std::move(s)) {}
  std::optional<State> apply(const State& s, const Path& at, Session& session) const override {
    State cur = s;
    for (std::int64_t i = 0; i < n_; ++i) {
      auto r = s_->apply(cur, at, session);
      if (!r)
        return std::nullopt;
      session.tick(*this);
      cur = std::move(*r);
    }
    return cur;
  }

private:
  std::int64_t n_;
  StrategyPtr s_;
};

} // namespace

StrategyPtr idStrategy(SourceLocation loc) {
  return std::make_shared<Id>("id", std::move(loc));
}
StrategyPtr failStrategy(SourceLocation loc) {
  return std::make_shared<Fail>("fail", std::move(loc));
}
StrategyPtr seq(StrategyPtr a, StrategyPtr b, SourceLocation loc) {
  return std::make_shared<Seq>(std::move(a), std::move(b), std::move(loc), false);
}
StrategyPtr stepSeq(StrategyPtr a, StrategyPtr b, SourceLocation loc) {
  return std::make_shared<Seq>(std::move(a), std::move(b), std::move(loc), true);
}
StrategyPtr asWritten(StrategyPtr s, std::string text, SourceLocation loc) {
  return std::make_shared<AsWritten>(std::move(s), std::move(text), std::move(loc));
}
StrategyPtr leftChoice(StrategyPtr a, StrategyPtr b, SourceLocation loc) {
  return std::make_shared<LeftChoice>(std::move(a), std::move(b), std::move(loc));
}
StrategyPtr tryStrategy(StrategyPtr s, SourceLocation loc) {
  return leftChoice(std::move(s), idStrategy(loc), loc);
}
StrategyPtr repeat(StrategyPtr s, SourceLocation loc) {
  return std::make_shared<Repeat>(std::move(s), std::move(loc));
}

StrategyPtr repeatNTimes(std::int64_t n, StrategyPtr s, SourceLocation loc) {
  return std::make_shared<RepeatNTimes>(n, std::move(s), std::move(loc));
}

} // namespace risec::elevate
