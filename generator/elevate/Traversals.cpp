// Traversals (ELEVATE): apply a strategy at other positions than the focus.
// Children of a node: Lambda/DepLambda {body}, App {fn, arg}, DepApp {fn}.
#include "elevate/Combinators.h"
#include "elevate/FnStrategy.h"
#include "elevate/Path.h"
#include "elevate/Session.h"
#include "rules/RiseUtil.h"

namespace risec::elevate {

using namespace risec::rise;

namespace {

using Apply = std::function<std::optional<State>(const State&, const Path&)>;

/// `argumentFirst`: the children of an application in reverse order (the
/// argument before the function; every other node has at most one child).
std::optional<State> one(const Apply& s, const State& st, const Path& at,
                         bool argumentFirst = false) {
  int n = childCount(nodeAt(st.expr, at));
  for (int k = 0; k < n; ++k)
    if (auto r = s(st, childPath(at, argumentFirst ? n - 1 - k : k)))
      return r;
  return std::nullopt;
}

std::optional<State> all(const Apply& s, const State& st, const Path& at) {
  State cur = st;
  int n = childCount(nodeAt(st.expr, at));
  for (int i = 0; i < n; ++i) {
    auto r = s(cur, childPath(at, i));
    if (!r)
      return std::nullopt;
    cur = std::move(*r);
  }
  return cur;
}

std::optional<State> some(const Apply& s, const State& st, const Path& at) {
  State cur = st;
  bool any = false;
  int n = childCount(nodeAt(st.expr, at));
  for (int i = 0; i < n; ++i) {
    if (auto r = s(cur, childPath(at, i))) {
      cur = std::move(*r);
      any = true;
    }
  }
  return any ? std::optional<State>(cur) : std::nullopt;
}

/// The position of the function argument of a map-like call at `at`.
std::optional<Path> mapFunctionPath(const State& st, const Path& at) {
  Expr e = nodeAt(st.expr, at);
  rules::Spine sp = rules::spineOf(e);
  if (sp.head->kind() != ExprKind::Primitive || !rise::isMapLike(sp.head->prim()) ||
      sp.args.empty())
    return std::nullopt;
  Path p = at;
  for (std::size_t i = 1; i < sp.args.size(); ++i)
    p.push_back(0);
  p.push_back(1);
  return p;
}

/// Runs a recursive traversal: `step(self, state, at)`.
struct Recursive {
  std::function<std::optional<State>(const Apply&, const State&, const Path&)> step;
  std::optional<State> operator()(const State& st, const Path& at) const {
    Apply self = [this](const State& s, const Path& p) { return (*this)(s, p); };
    return step(self, st, at);
  }
};

std::string traversalName(Traversal t) {
  switch (t) {
  case Traversal::TopDown:
    return "topDown";
  case Traversal::BottomUp:
    return "bottomUp";
  case Traversal::AllTopdown:
    return "allTopdown";
  case Traversal::AllBottomup:
    return "allBottomup";
  case Traversal::TryAll:
    return "tryAll";
  case Traversal::Normalize:
    return "normalize";
  case Traversal::One:
    return "one";
  case Traversal::All:
    return "all";
  case Traversal::Some:
    return "some";
  case Traversal::Body:
    return "body";
  case Traversal::Function:
    return "function";
  case Traversal::Argument:
    return "argument";
  case Traversal::Fmap:
    return "fmap";
  case Traversal::TopDownArgumentFirst:
    return "topDown (argument first)";
  case Traversal::BottomUpArgumentFirst:
    return "bottomUp (argument first)";
  }
  return "?";
}

} // namespace

StrategyPtr traverse(Traversal t, StrategyPtr s, SourceLocation loc) {
  std::string display = s->display() + " @ " + traversalName(t);
  auto run = [s](Session& session) -> Apply {
    return [s, &session](const State& st, const Path& p) { return s->apply(st, p, session); };
  };
  StrategyFn fn;
  switch (t) {
  case Traversal::One:
    fn = [run](const State& st, const Path& at, Session& se) { return one(run(se), st, at); };
    break;
  case Traversal::All:
    fn = [run](const State& st, const Path& at, Session& se) { return all(run(se), st, at); };
    break;
  case Traversal::Some:
    fn = [run](const State& st, const Path& at, Session& se) { return some(run(se), st, at); };
    break;
  case Traversal::Body:
    fn = [s](const State& st, const Path& at, Session& se) -> std::optional<State> {
      ExprKind k = nodeAt(st.expr, at)->kind();
      if (k != ExprKind::Lambda && k != ExprKind::DepLambda)
        return std::nullopt;
      return s->apply(st, childPath(at, 0), se);
    };
    break;
  case Traversal::Function:
  case Traversal::Argument:
    fn = [s, t](const State& st, const Path& at, Session& se) -> std::optional<State> {
      if (nodeAt(st.expr, at)->kind() != ExprKind::App)
        return std::nullopt;
      return s->apply(st, childPath(at, t == Traversal::Function ? 0 : 1), se);
    };
    break;
  case Traversal::Fmap:
    fn = [s](const State& st, const Path& at, Session& se) -> std::optional<State> {
      auto p = mapFunctionPath(st, at);
      if (!p)
        return std::nullopt;
      return s->apply(st, *p, se);
    };
    break;
  case Traversal::TopDown:
  case Traversal::TopDownArgumentFirst:
    fn = [run, t](const State& st, const Path& at, Session& se) {
      Apply sa = run(se);
      bool argFirst = t == Traversal::TopDownArgumentFirst;
      Recursive rec{[sa, argFirst](const Apply& self, const State& x, const Path& p) {
        if (auto r = sa(x, p))
          return r;
        return one(self, x, p, argFirst);
      }};
      return rec(st, at);
    };
    break;
  case Traversal::BottomUp:
  case Traversal::BottomUpArgumentFirst:
    fn = [run, t](const State& st, const Path& at, Session& se) {
      Apply sa = run(se);
      bool argFirst = t == Traversal::BottomUpArgumentFirst;
      Recursive rec{[sa, argFirst](const Apply& self, const State& x, const Path& p) {
        if (auto r = one(self, x, p, argFirst))
          return r;
        return sa(x, p);
      }};
      return rec(st, at);
    };
    break;
  case Traversal::AllTopdown:
    fn = [run](const State& st, const Path& at, Session& se) {
      Apply sa = run(se);
      Recursive rec{[sa](const Apply& self, const State& x, const Path& p) -> std::optional<State> {
        auto r = sa(x, p);
        if (!r)
          return std::nullopt;
        return all(self, *r, p);
      }};
      return rec(st, at);
    };
    break;
  case Traversal::AllBottomup:
  case Traversal::TryAll:
    fn = [run, t](const State& st, const Path& at, Session& se) {
      Apply sa = run(se);
      bool tolerant = t == Traversal::TryAll;
      Recursive rec{
          [sa, tolerant](const Apply& self, const State& x, const Path& p) -> std::optional<State> {
            auto r = all(self, x, p);
            if (!r)
              return std::nullopt;
            auto r2 = sa(*r, p);
            if (!r2 && tolerant)
              return r;
            return r2;
          }};
      return rec(st, at);
    };
    break;
  case Traversal::Normalize: {
    StrategyPtr td = traverse(Traversal::TopDown, s, loc);
    return repeat(td, loc);
  }
  }
  return fnStrategy(display, std::move(loc), std::move(fn));
}

StrategyPtr inLambda(StrategyPtr s, SourceLocation loc) {
  std::string display = s->display() + " @ inLambda";
  return fnStrategy(display, std::move(loc),
                    [s](const State& st, const Path& at, Session& se) -> std::optional<State> {
                      Path p = at;
                      for (;;) {
                        ExprKind k = nodeAt(st.expr, p)->kind();
                        if (k != ExprKind::Lambda && k != ExprKind::DepLambda)
                          break;
                        p = childPath(p, 0);
                      }
                      // innermost first: s under all the binders, else under
                      // fewer, as the recursive definition backtracks
                      for (;;) {
                        if (auto r = s->apply(st, p, se))
                          return r;
                        if (p.size() == at.size())
                          return std::nullopt;
                        p.pop_back();
                      }
                    });
}

} // namespace risec::elevate
