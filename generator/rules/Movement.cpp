// Movement rules: transpose, split, join and slide moved past maps (both
// directions). Each is a naturality law of the data-layout primitive.
// mapJoinAsSplit turns a map(join) into split and join views.
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// `map(map(f))(x)` -> f; also accepts `map(fun(y => map(f)(y)))`.
std::optional<Expr> innerOfMapMap(const Expr& mapMap) {
  Spine s = spineOf(mapMap);
  if (!isPrim(s.head, Prim::Map) || s.args.size() != 1)
    return std::nullopt;
  Expr g = s.args[0];
  if (g->kind() == ExprKind::Lambda && g->body()->kind() == ExprKind::App &&
      g->body()->arg()->kind() == ExprKind::Var && g->body()->arg()->name() == g->name() &&
      !occursFree(g->name(), g->body()->fn()))
    g = g->body()->fn();
  Spine inner = spineOf(g);
  if (!isPrim(inner.head, Prim::Map) || inner.args.size() != 1)
    return std::nullopt;
  return inner.args[0];
}

/// Splits `P(x)`-shaped calls with an optional explicit dep-arg prefix.
struct Layout {
  Spine spine;
  Expr data;
};
std::optional<Layout> layoutCall(const Expr& e, Prim p) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, p) || s.args.size() != 1)
    return std::nullopt;
  return Layout{s, s.args[0]};
}
Expr relayout(const Layout& l, const Expr& data) {
  return rebuild(l.spine.head, l.spine.depArgs, {data});
}

/// `map(f)(x)` -> (f, x)
std::optional<std::pair<Expr, Expr>> mapApplied(const Expr& e) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Map) || s.args.size() != 2)
    return std::nullopt;
  return std::pair{s.args[0], s.args[1]};
}

Expr mapMap(const Expr& f) {
  return app(prim(Prim::Map), app(prim(Prim::Map), f));
}

// transpose(map(map(f))(x)) -> map(map(f))(transpose(x))
std::optional<Expr> transposeBeforeMapMap(const Expr& e, RuleContext&) {
  auto t = layoutCall(e, Prim::Transpose);
  if (!t)
    return std::nullopt;
  Spine m = spineOf(t->data);
  if (m.args.size() != 2)
    return std::nullopt;
  auto f = innerOfMapMap(app(m.head, m.args[0]));
  if (!f)
    return std::nullopt;
  return app(mapMap(*f), relayout(*t, m.args[1]));
}

// map(map(f))(transpose(x)) -> transpose(map(map(f))(x))
std::optional<Expr> mapMapBeforeTranspose(const Expr& e, RuleContext&) {
  Spine m = spineOf(e);
  if (m.args.size() != 2)
    return std::nullopt;
  auto f = innerOfMapMap(app(m.head, m.args[0]));
  auto t = layoutCall(m.args[1], Prim::Transpose);
  if (!f || !t)
    return std::nullopt;
  return relayout(*t, app(mapMap(*f), t->data));
}

// map(f)(join(x)) -> join(map(map(f))(x))
std::optional<Expr> joinBeforeMap(const Expr& e, RuleContext&) {
  auto m = mapApplied(e);
  if (!m)
    return std::nullopt;
  auto j = layoutCall(m->second, Prim::Join);
  if (!j)
    return std::nullopt;
  return relayout(*j, app(mapMap(m->first), j->data));
}

// join(map(map(f))(x)) -> map(f)(join(x))
std::optional<Expr> mapBeforeJoin(const Expr& e, RuleContext&) {
  auto j = layoutCall(e, Prim::Join);
  if (!j)
    return std::nullopt;
  Spine m = spineOf(j->data);
  if (m.args.size() != 2)
    return std::nullopt;
  auto f = innerOfMapMap(app(m.head, m.args[0]));
  if (!f)
    return std::nullopt;
  return app(prim(Prim::Map), *f, relayout(*j, m.args[1]));
}

/// `join` or `fun(y => join(y))`.
bool isJoinFunction(const Expr& f) {
  if (f->kind() == ExprKind::Lambda)
    return isCall(f->body(), Prim::Join, 1) && f->body()->arg()->kind() == ExprKind::Var &&
           f->body()->arg()->name() == f->name();
  return isPrim(f, Prim::Join);
}

// map(join)(x) -> split(a*b)(join(join(x)))   (x: m.a.b.t; both are
// m.(a*b).t with [i][j*b + c] = x[i][j][c]). A view instead of a map: DPIA
// writes through split and join, while a map(join) whose input is computed
// goes through a temporary (DPIA has no map acceptor).
std::optional<Expr> mapJoinAsSplit(const Expr& e, RuleContext&) {
  auto m = mapApplied(e);
  if (!m || !isJoinFunction(m->first))
    return std::nullopt;
  const Type& t = m->second->type();
  if (!t || t->kind() != TypeKind::Array || t->elem()->kind() != TypeKind::Array ||
      t->elem()->elem()->kind() != TypeKind::Array)
    return std::nullopt;
  Nat row = t->elem()->size() * t->elem()->elem()->size();
  return app(depArg(prim(Prim::Split), row),
             app(prim(Prim::Join), app(prim(Prim::Join), m->second)));
}

/// For split and slide: P(map(f)(x)) -> map(map(f))(P(x)).
RuleFn layoutBeforeMap(Prim p) {
  return [p](const Expr& e, RuleContext&) -> std::optional<Expr> {
    auto l = layoutCall(e, p);
    if (!l)
      return std::nullopt;
    auto m = mapApplied(l->data);
    if (!m)
      return std::nullopt;
    return app(mapMap(m->first), relayout(*l, m->second));
  };
}

/// For split and slide: map(map(f))(P(x)) -> P(map(f)(x)).
RuleFn mapBeforeLayout(Prim p) {
  return [p](const Expr& e, RuleContext&) -> std::optional<Expr> {
    Spine m = spineOf(e);
    if (m.args.size() != 2)
      return std::nullopt;
    auto f = innerOfMapMap(app(m.head, m.args[0]));
    auto l = layoutCall(m.args[1], p);
    if (!f || !l)
      return std::nullopt;
    return relayout(*l, app(prim(Prim::Map), *f, l->data));
  };
}

} // namespace

void registerMovementRules(RuleRegistry& r) {
  const std::string fam = "movement";
  r.add(simpleRule("transposeBeforeMapMap", fam, "map(map(f)) >> transpose",
                   "transpose >> map(map(f))", transposeBeforeMapMap));
  r.add(simpleRule("mapMapBeforeTranspose", fam, "transpose >> map(map(f))",
                   "map(map(f)) >> transpose", mapMapBeforeTranspose));
  r.add(simpleRule("joinBeforeMap", fam, "join >> map(f)", "map(map(f)) >> join", joinBeforeMap));
  r.add(simpleRule("mapBeforeJoin", fam, "map(map(f)) >> join", "join >> map(f)", mapBeforeJoin));
  r.add(simpleRule("mapJoinAsSplit", fam, "map(join)(x)   (x: m.a.b.t)",
                   "split(a*b)(join(join(x)))", mapJoinAsSplit));
  r.add(simpleRule("splitBeforeMap", fam, "map(f) >> split(n)", "split(n) >> map(map(f))",
                   layoutBeforeMap(Prim::Split)));
  r.add(simpleRule("mapBeforeSplit", fam, "split(n) >> map(map(f))", "map(f) >> split(n)",
                   mapBeforeLayout(Prim::Split)));
  r.add(simpleRule("slideBeforeMap", fam, "map(f) >> slide(sz, sp)", "slide(sz, sp) >> map(map(f))",
                   layoutBeforeMap(Prim::Slide)));
  r.add(simpleRule("mapBeforeSlide", fam, "slide(sz, sp) >> map(map(f))", "map(f) >> slide(sz, sp)",
                   mapBeforeLayout(Prim::Slide)));
}

} // namespace risec::rules
