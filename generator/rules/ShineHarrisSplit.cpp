// Shine's rules that move a slide before a split or another slide, used by
// harrisSplitParShape (rise-lang/shine, src/main/scala/rise/elevate/rules/
// movement.scala, commit 7212084e):
//
//   slideBeforeSplit: split(k)(slide(n, s)(y)) -> map(slide(n, s))(slide(k + n - s, k)(y))
//   slideBeforeSlide: slide(m, k)(slide(n, 1)(y)) -> map(slide(n, 1))(slide(m + n - 1, k)(y))
//
// Shine's slideBeforeSplit is marked "probably wrong if s != 1" (a chunk of k
// windows of step s reads (k - 1) * s + n elements and the next one starts
// k * s further): risec's is Shine's for s = 1 and refuses (E0710) any other
// step, as Shine's slideBeforeSlide does.
#include "rise/nat/Nat.h"
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

struct SlideCall {
  Nat size, step;
  Expr data;
};

/// slide(n, s)(y)
std::optional<SlideCall> slideCall(const Expr& e) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Slide) || s.depArgs.size() != 2 || s.args.size() != 1)
    return std::nullopt;
  const Nat* n = std::get_if<Nat>(&s.depArgs[0]);
  const Nat* st = std::get_if<Nat>(&s.depArgs[1]);
  if (!n || !st)
    return std::nullopt;
  return SlideCall{*n, *st, s.args[0]};
}

Expr slideOf(const Nat& n, const Nat& s) {
  return depArg(depArg(prim(Prim::Slide), n), s);
}

// split(k)(slide(n, 1)(y)) -> map(slide(n, 1))(slide(k + n - 1, k)(y))
std::optional<Expr> slideBeforeSplit(const Expr& e, RuleContext& ctx) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Split) || s.depArgs.size() != 1 || s.args.size() != 1)
    return std::nullopt;
  const Nat* k = std::get_if<Nat>(&s.depArgs[0]);
  auto w = slideCall(s.args[0]);
  if (!k || !w)
    return std::nullopt;
  if (!natEqual(w->step, natConst(1)))
    return ctx.refuse("the slide's step is not 1 (Shine's rewrite is for a step of 1)");
  return app(prim(Prim::Map), slideOf(w->size, w->step),
             app(slideOf(*k + w->size - w->step, *k), w->data));
}

// slide(m, k)(slide(n, 1)(y)) -> map(slide(n, 1))(slide(m + n - 1, k)(y))
std::optional<Expr> slideBeforeSlide(const Expr& e, RuleContext& ctx) {
  auto outer = slideCall(e);
  if (!outer)
    return std::nullopt;
  auto inner = slideCall(outer->data);
  if (!inner)
    return std::nullopt;
  if (!natEqual(inner->step, natConst(1)))
    return ctx.refuse("the inner slide's step is not 1 (Shine's rewrite is for a step of 1)");
  return app(prim(Prim::Map), slideOf(inner->size, inner->step),
             app(slideOf(outer->size + inner->size - inner->step, outer->step), inner->data));
}

} // namespace

void registerShineHarrisSplitRules(RuleRegistry& r) {
  r.add(simpleRule("slideBeforeSplit", "movement", "split(k)(slide(n, 1)(y))",
                   "map(slide(n, 1))(slide(k + n - 1, k)(y))", slideBeforeSplit));
  r.add(simpleRule("slideBeforeSlide", "movement", "slide(m, k)(slide(n, 1)(y))",
                   "map(slide(n, 1))(slide(m + n - 1, k)(y))", slideBeforeSlide));
}

} // namespace risec::rules
