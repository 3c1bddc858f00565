// Stencil rules: the rewrites that take a pipeline of `slide`-based stages,
// each stored once for the whole image, to Halide's strips (a stage stored
// per strip of rows, read while it is in cache):
//   - padClampBeforeMap moves a clamped border before the stage that
//     computes the array (the clamped rows are copies of computed rows, so
//     they are the stage applied to copies of its input rows);
//   - slideStrips(s) cuts the windows of a `slide` into strips of s windows,
//     each strip a window of its own over s + sz - 1 rows (the halo in the
//     types), padding the last strip where s does not divide the count;
//   - storePerWindow moves a stored stage into the windows of a `slide` that
//     reads it: each window stores its own part (the overlaps computed
//     twice), so the temporary has the window's size, not the image's.
// docs/strategies.md, "Stencils in strips", derives gaussian's strips with
// them.
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// toMem and the OpenCL forms that take no address space argument.
bool isStore(const Expr& e) {
  for (Prim p : {Prim::ToMem, Prim::ToGlobal, Prim::ToLocal, Prim::ToPrivate})
    if (isCall(e, p, 1))
      return true;
  return false;
}

/// A stage: `M(f)(x)` (M map-like) or `T(M(f)(x))` (T a store of isStore).
struct Stage {
  std::optional<Expr> store; ///< T's head, if stored
  Spine map;                 ///< M(f)(x)
};

std::optional<Stage> stageOf(const Expr& e) {
  Stage st;
  Expr computed = e;
  if (isStore(e)) {
    st.store = spineOf(e).head;
    computed = e->arg();
  }
  st.map = spineOf(computed);
  std::optional<Prim> p = headPrim(computed);
  if (!p || !isMapLike(*p) || st.map.args.size() != 2)
    return std::nullopt;
  return st;
}

/// The stage applied to `input` instead of its own input.
Expr restage(const Stage& st, const Expr& input) {
  Expr computed = rebuild(st.map.head, st.map.depArgs, {st.map.args[0], input});
  return st.store ? app(*st.store, computed) : computed;
}

/// padClamp(l, r)(M(f)(x))          -> M(f)(padClamp(l, r)(x))
/// padClamp(l, r)(toMem(M(f)(x)))   -> toMem(M(f)(padClamp(l, r)(x)))
/// Row i of the clamped result is the stage's row clamp(i), computed from
/// x's row clamp(i): the stage runs over l + r more rows (copies), and the
/// clamp reads its input instead of its result.
std::optional<Expr> padClampBeforeMap(const Expr& e, RuleContext&) {
  Spine pad = spineOf(e);
  if (!isPrim(pad.head, Prim::PadClamp) || pad.depArgs.size() != 2 || pad.args.size() != 1)
    return std::nullopt;
  std::optional<Stage> st = stageOf(pad.args[0]);
  if (!st)
    return std::nullopt;
  return restage(*st, rebuild(pad.head, pad.depArgs, {st->map.args[1]}));
}

/// M(g)(slide(sz, sp)(y)), y: N.t, W windows
///   -> join(M(fun(strip => map(g)(slide(sz, sp)(strip))))(slide(S, s*sp)(y)))
/// with S = (s - 1)*sp + sz: strip j holds the input of windows j*s to
/// j*s + s - 1. Where s does not divide W, y is padded first by repeating
/// its last element (padClamp(0, sp*e), e = s*((W + s - 1)/s) - W windows'
/// worth) and the result cut back to W (take(W): the padded windows are
/// computed and their results discarded, as padTile does).
RuleFn slideStrips(std::int64_t s) {
  return [s](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine m = spineOf(e);
    std::optional<Prim> p = headPrim(e);
    if (s < 2 || !p || !isMapLike(*p) || m.args.size() != 2 || !isArray(m.args[1]->type()))
      return std::nullopt;
    Spine sl = spineOf(m.args[1]);
    if (!isPrim(sl.head, Prim::Slide) || sl.depArgs.size() != 2 || sl.args.size() != 1 ||
        !isArray(sl.args[0]->type()))
      return std::nullopt;
    const Nat* sz = std::get_if<Nat>(&sl.depArgs[0]);
    const Nat* sp = std::get_if<Nat>(&sl.depArgs[1]);
    if (!sz || !sp)
      return std::nullopt;
    Nat windows = m.args[1]->type()->size();
    Nat padding = natConst(s) * ((windows + natConst(s - 1)) / natConst(s)) - windows;
    Expr y = sl.args[0];
    if (!padding->isConst(0))
      y = app(depArg(depNat(prim(Prim::PadClamp), 0), (*sp) * padding), y);
    std::string strip = ctx.names.fresh("strip");
    Expr perStrip =
        lam(strip, app(prim(Prim::Map), m.args[0], rebuild(sl.head, sl.depArgs, {var(strip)})));
    Expr strips = app(
        depArg(depArg(prim(Prim::Slide), natConst(s - 1) * (*sp) + (*sz)), natConst(s) * (*sp)), y);
    Expr out = app(prim(Prim::Join), app(rebuild(m.head, m.depArgs, {perStrip}), strips));
    if (!padding->isConst(0))
      out = app(depArg(prim(Prim::Take), windows), out);
    return out;
  };
}

/// slide(sz, sp)(toMem(M(f)(x))) -> map(fun(w => toMem(M(f)(w))))(slide(sz, sp)(x))
/// Window i of both sides is the stage applied to x's rows i*sp to
/// i*sp + sz - 1; each window stores its own (sz rows), the rows shared by
/// two windows computed by both.
std::optional<Expr> storePerWindow(const Expr& e, RuleContext& ctx) {
  Spine sl = spineOf(e);
  if (!isPrim(sl.head, Prim::Slide) || sl.depArgs.size() != 2 || sl.args.size() != 1 ||
      !isStore(sl.args[0]))
    return std::nullopt;
  std::optional<Stage> st = stageOf(sl.args[0]);
  if (!st)
    return std::nullopt;
  std::string w = ctx.names.fresh("window");
  return app(prim(Prim::Map), lam(w, restage(*st, var(w))),
             rebuild(sl.head, sl.depArgs, {st->map.args[1]}));
}

} // namespace

void registerStencilRules(RuleRegistry& r) {
  const std::string fam = "stencil";
  r.add(simpleRule("padClampBeforeMap", fam,
                   "padClamp(l, r)(map(f)(x)), padClamp(l, r)(toMem(map(f)(x)))   (also mapSeq, "
                   "mapPar, ...; toGlobal, toLocal, toPrivate)",
                   "map(f)(padClamp(l, r)(x)), toMem(map(f)(padClamp(l, r)(x)))",
                   padClampBeforeMap));
  r.add(RuleInfo{"slideStrips",
                 fam,
                 {ParamKind::Int},
                 "map(g)(slide(sz, sp)(y))   (W windows; also mapSeq, mapPar, ...)",
                 "join(map(fun(strip => map(g)(slide(sz, sp)(strip))))(slide((s-1)*sp + sz, "
                 "s*sp)(y)))   (strips of s windows; where s does not divide W: "
                 "take(W)(join(...(padClamp(0, sp*(s*((W+s-1)/s) - W))(y)))); fails for s < 2)",
                 [](const std::vector<RuleArg>& a) { return slideStrips(intArg(a, 0)); }});
  r.add(simpleRule("storePerWindow", fam, "slide(sz, sp)(toMem(map(f)(x)))   (also toGlobal, ...)",
                   "map(fun(w => toMem(map(f)(w))))(slide(sz, sp)(x))   (each window stores its "
                   "own part of the stage)",
                   storePerWindow));
}

} // namespace risec::rules
