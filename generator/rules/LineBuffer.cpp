// Shine's lowering rules of its buffered Harris schedule (rise-lang/shine,
// src/main/scala/rise/elevate/rules/lowering.scala at commit 7212084e):
// `iterateStream` (a map consumed as a stream, in order), `circularBuffer(a)`
// (Shine's lowering.ocl.circularBuffer: a slide of step 1 read through a
// line buffer of its window's size, in address space a) and
// `circularBufferLoadFusion` (the map that computes the buffered input moved
// into the buffer's load function, so that each row is computed once, when it
// enters the buffer).
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

// map -> iterateStream (the head of `map(f)` or `map(f)(x)`)
std::optional<Expr> iterateStream(const Expr& e, RuleContext&) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Map) || s.args.size() > 2)
    return std::nullopt;
  return rebuild(prim(Prim::IterateStream), s.depArgs, s.args);
}

// slide(n, 1) -> circularBuffer(a)(n)(n)(fun(x => x))   (also applied to its array)
RuleFn circularBuffer(AddrSpace a) {
  return [a](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (!isPrim(s.head, Prim::Slide) || s.depArgs.size() != 2 || s.args.size() > 1)
      return std::nullopt;
    const Nat* step = std::get_if<Nat>(&s.depArgs[1]);
    if (!step || !natEqual(*step, natConst(1)))
      return ctx.refuse("the slide's step is not 1: a line buffer advances by one row");
    std::string x = ctx.names.fresh("x");
    std::vector<Expr> args{lam(x, var(x))};
    args.insert(args.end(), s.args.begin(), s.args.end());
    return rebuild(prim(Prim::CircularBuffer), {a, s.depArgs[0], s.depArgs[0]}, args);
  };
}

// circularBuffer(a)(n)(n)(load)(map(f)(in)) -> circularBuffer(a)(n)(n)(f >> load)(in)
std::optional<Expr> circularBufferLoadFusion(const Expr& e, RuleContext& ctx) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::CircularBuffer) || s.args.size() != 2)
    return std::nullopt;
  Spine m = spineOf(s.args[1]);
  if (!isPrim(m.head, Prim::Map) || m.args.size() != 2)
    return std::nullopt;
  std::string x = ctx.names.fresh("x");
  Expr load = lam(x, app(s.args[0], app(m.args[0], var(x))));
  return rebuild(s.head, s.depArgs, {load, m.args[1]});
}

} // namespace

void registerLineBufferRules(RuleRegistry& r) {
  const std::string fam = "lowering";
  r.add(simpleRule("iterateStream", fam, "map(f)", "iterateStream(f)", iterateStream));
  r.add(RuleInfo{"circularBuffer",
                 fam,
                 {ParamKind::AddrSpace},
                 "slide(n, 1)",
                 "circularBuffer(a)(n)(n)(fun(x => x))",
                 [](const std::vector<RuleArg>& args) {
                   return circularBuffer(std::get<AddrSpace>(args.at(0)));
                 }});
  r.add(simpleRule("circularBufferLoadFusion", fam, "circularBuffer(a)(n)(n)(load)(map(f)(in))",
                   "circularBuffer(a)(n)(n)(fun(x => load(f(x))))(in)", circularBufferLoadFusion));
}

} // namespace risec::rules
