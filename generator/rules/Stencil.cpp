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
//     twice), so the temporary has the window's size, not the image's;
//   - mapAfterZip and projectPair let a stage stored per window reach the
//     strips through a zip with another array (harris' row flags).
// docs/strategies.md, "Stencils in strips", derives gaussian's strips with
// them.
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

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

// ---- constant padding (harris: padCst with zeros, two stages) -------------------

/// `padCst(l, r, c)(e)`: l, r and c.
struct PadCst {
  Spine spine;
  Expr c, e;
};

std::optional<PadCst> padCstOf(const Expr& e) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::PadCst) || s.depArgs.size() != 2 || s.args.size() != 2)
    return std::nullopt;
  return PadCst{s, s.args[0], s.args[1]};
}

/// `f(x)`, beta-reduced where f is a lambda (so that a rule can see into the
/// body of a stage's function applied to one element).
Expr applied(const Expr& f, const Expr& x, RuleContext& ctx) {
  if (f->kind() == ExprKind::Lambda)
    return substitute(f->body(), f->name(), x, ctx.names);
  return app(f, x);
}

/// zip(map(f)(a))(b) -> map(fun(p => (f(fst(p)), snd(p))))(zip(a)(b))
/// Element i of both sides is (f(a_i), b_i): the map is applied after the
/// zip, so that a rule that moves a `slide` or a padding before a map
/// (slideBeforeMap, padClampBeforeMap) reaches a stage zipped with another
/// array (harris: the stored image rows zipped with the row flags).
std::optional<Expr> mapAfterZip(const Expr& e, RuleContext& ctx) {
  Spine z = spineOf(e);
  if (!isPrim(z.head, Prim::Zip) || z.args.size() != 2)
    return std::nullopt;
  Spine m = spineOf(z.args[0]);
  if (!isPrim(m.head, Prim::Map) || m.args.size() != 2)
    return std::nullopt;
  std::string p = ctx.names.fresh("p");
  Expr first = applied(m.args[0], app(prim(Prim::Fst), var(p)), ctx);
  Expr pair = app(app(prim(Prim::MakePair), first), app(prim(Prim::Snd), var(p)));
  return app(app(prim(Prim::Map), lam(p, pair)),
             rebuild(z.head, z.depArgs, {m.args[1], z.args[1]}));
}

/// fst((a, b)) -> a, snd((a, b)) -> b: a projection of a pair built in place
/// (what mapAfterZip and mapFusion leave, `snd((toMem(rows), flag))`) reads
/// its component without computing the other one.
std::optional<Expr> projectPair(const Expr& e, RuleContext&) {
  bool first = isCall(e, Prim::Fst, 1);
  if (!first && !isCall(e, Prim::Snd, 1))
    return std::nullopt;
  Spine pair = spineOf(e->arg());
  if (!isPrim(pair.head, Prim::MakePair) || pair.args.size() != 2)
    return std::nullopt;
  return first ? pair.args[0] : pair.args[1];
}

/// The padding function of `M(padCst(a, b, c))` or `M(fun(y => padCst(a, b, c)(y)))`.
std::optional<PadCst> padFunctionOf(const Expr& f) {
  if (f->kind() == ExprKind::Lambda) {
    auto p = padCstOf(f->body());
    if (!p || p->e->kind() != ExprKind::Var || p->e->name() != f->name() ||
        occursFree(f->name(), p->c))
      return std::nullopt;
    return p;
  }
  Spine s = spineOf(f);
  if (!isPrim(s.head, Prim::PadCst) || s.depArgs.size() != 2 || s.args.size() != 1)
    return std::nullopt;
  return PadCst{s, s.args[0], nullptr};
}

/// `c` of `generate(fun(i => c))` (i not free in c): an array of one constant.
std::optional<Expr> constantRow(const Expr& e) {
  Spine g = spineOf(e);
  if (!isPrim(g.head, Prim::Generate) || !g.depArgs.empty() || g.args.size() != 1 ||
      g.args[0]->kind() != ExprKind::Lambda || occursFree(g.args[0]->name(), g.args[0]->body()))
    return std::nullopt;
  return g.args[0]->body();
}

Expr constantArray(const Expr& c, RuleContext& ctx) {
  return app(prim(Prim::Generate), lam(ctx.names.fresh("ix"), c));
}

/// transpose(M(padCst(l, r, c))(transpose(x))) -> padCst(l, r, generate(fun(i => c)))(x)
/// Padding every column of x by l and r elements c is padding x by l and r
/// rows of c.
std::optional<Expr> padCstRows(const Expr& e, RuleContext& ctx) {
  Spine outer = spineOf(e);
  if (!isPrim(outer.head, Prim::Transpose) || outer.args.size() != 1)
    return std::nullopt;
  Spine m = spineOf(outer.args[0]);
  std::optional<Prim> p = headPrim(outer.args[0]);
  if (!p || !isMapLike(*p) || m.args.size() != 2)
    return std::nullopt;
  auto pad = padFunctionOf(m.args[0]);
  Spine inner = spineOf(m.args[1]);
  if (!pad || !isPrim(inner.head, Prim::Transpose) || inner.args.size() != 1)
    return std::nullopt;
  return rebuild(prim(Prim::PadCst), pad->spine.depArgs,
                 {constantArray(pad->c, ctx), inner.args[0]});
}

/// The constant `in` for which `f(in)` is the constant array `out`, where f
/// is built of paddings with constants and maps of them only: padCst(a, b, k)
/// maps an array of k's to an array of k's (out = generate(fun(i => k))),
/// map(g) an array of g's inputs to an array of g's outputs, and a lambda
/// `fun(y => f1(f2(... fn(y))))` the constant through f1, ..., fn in turn.
/// Nothing for any other f (it may not keep a constant constant).
std::optional<Expr> constantBefore(const Expr& f, const Expr& out, RuleContext& ctx) {
  if (!freeVars(out).empty())
    return std::nullopt;
  if (f->kind() == ExprKind::Lambda) {
    Expr c = out, body = f->body();
    for (;;) {
      if (body->kind() == ExprKind::Var && body->name() == f->name())
        return c;
      Spine s = spineOf(body);
      if (s.args.empty())
        return std::nullopt;
      Expr fi = rebuild(s.head, s.depArgs, {s.args.begin(), s.args.end() - 1});
      if (occursFree(f->name(), fi))
        return std::nullopt;
      std::optional<Expr> in = constantBefore(fi, c, ctx);
      if (!in)
        return std::nullopt;
      c = *in;
      body = s.args.back();
    }
  }
  std::optional<Expr> c0 = constantRow(out);
  if (!c0)
    return std::nullopt;
  Spine s = spineOf(f);
  if (isPrim(s.head, Prim::PadCst) && s.depArgs.size() == 2 && s.args.size() == 1 &&
      rise::alphaEquivalent(s.args[0], *c0))
    return constantArray(*c0, ctx);
  std::optional<Prim> p = headPrim(f);
  if (p && isMapLike(*p) && s.args.size() == 1) {
    std::optional<Expr> in = constantBefore(s.args[0], *c0, ctx);
    return in ? std::optional(constantArray(*in, ctx)) : std::nullopt;
  }
  return std::nullopt;
}

/// padCst(l, r, C)(M(f)(x)) -> M(f)(padCst(l, r, C')(x)) where f(C') = C
/// (also with the stage stored: toMem(M(f)(x)) -> toMem(M(f)(padCst(...)(x)))).
/// Exact where f is made of paddings with the same constants (constantBefore:
/// a row of c's padded again with c is the longer row of c's):
/// padCst(l, r, generate(fun(i => c)))(M(padCst(a, b, c))(x))
///   -> M(padCst(a, b, c))(padCst(l, r, generate(fun(i => c)))(x)).
/// Any other stage fails: a padded row of a stage is not in general the stage
/// of a padded row (padCstBeforeMapGuarded is the exact form for any stage).
std::optional<Expr> padCstBeforeMap(const Expr& e, RuleContext& ctx) {
  auto pad = padCstOf(e);
  if (!pad)
    return std::nullopt;
  std::optional<Stage> st = stageOf(pad->e);
  if (!st)
    return std::nullopt;
  std::optional<Expr> in = constantBefore(st->map.args[0], pad->c, ctx);
  if (!in)
    return std::nullopt;
  return restage(*st, rebuild(pad->spine.head, pad->spine.depArgs, {*in, st->map.args[1]}));
}

/// `select(flag, e, c)` element by element: a map over the elements of e
/// where c is an array of one constant (generate(fun(i => c0))), else the
/// select itself.
Expr selectElements(const Expr& flag, const Expr& e, const Expr& c, RuleContext& ctx) {
  std::optional<Expr> c0 = constantRow(c);
  if (!c0)
    return app(prim(Prim::Select), flag, e, c);
  std::string y = ctx.names.fresh("y");
  return app(prim(Prim::Map), lam(y, selectElements(flag, var(y), *c0, ctx)), e);
}

/// `select(flag, e, c)` (flag and c closed in e: names bound in e are
/// checked, else the select stays outside) pushed through a `let`'s body and
/// under a padding with c's constant; a computed array e (a map) is stored
/// first and then chosen element by element from memory:
/// map(fun(y => select(flag, y, c0)))(toMem(e)). Its loop is then a simple
/// copy-or-fill that a C compiler vectorises, where a select inside e's own
/// loop would keep it from vectorising that loop. Every step keeps the value:
/// e where the flag holds, c where it does not.
Expr guarded(const Expr& flag, const Expr& e, const Expr& c, RuleContext& ctx) {
  std::set<std::string> outside = freeVars(c);
  for (const std::string& v : freeVars(flag))
    outside.insert(v);
  Spine s = spineOf(e);
  if (isPrim(s.head, Prim::Let) && s.args.size() == 2 && s.args[1]->kind() == ExprKind::Lambda &&
      !outside.count(s.args[1]->name())) {
    const Expr& f = s.args[1];
    return rebuild(s.head, s.depArgs,
                   {s.args[0], makeLambda(f->name(), f->paramType(),
                                          guarded(flag, f->body(), c, ctx), f->loc())});
  }
  std::optional<Prim> p = headPrim(e);
  std::optional<Expr> c0 = constantRow(c);
  if (c0 && p && isMapLike(*p) && s.args.size() == 2)
    return selectElements(flag, app(prim(Prim::ToMem), e), c, ctx);
  if (auto pad = padCstOf(e); pad && c0 && rise::alphaEquivalent(pad->c, *c0))
    return rebuild(pad->spine.head, pad->spine.depArgs, {pad->c, guarded(flag, pad->e, c, ctx)});
  return app(prim(Prim::Select), flag, e, c);
}

/// padCst(l, r, c)(M(f)(x))
///   -> M(fun(p => select(snd(p), f(fst(p)), c)))(zip(padClamp(l, r)(x), flags))
/// with flags = padCst(l, r, false)(generate(fun(i => true))); also with the
/// stage stored (toMem(M(f)(x)) -> toMem(M(...)(zip(...)))). The l + r
/// padded elements compute f of a clamped (copied) element of x, and the
/// select replaces the result by c: exact for every f and c. The select is
/// pushed into f's result (guarded) so that it chooses scalars.
std::optional<Expr> padCstBeforeMapGuarded(const Expr& e, RuleContext& ctx) {
  auto pad = padCstOf(e);
  if (!pad)
    return std::nullopt;
  std::optional<Stage> st = stageOf(pad->e);
  if (!st)
    return std::nullopt;
  std::string pv = ctx.names.fresh("p");
  Expr flag = app(prim(Prim::Snd), var(pv));
  Expr body =
      guarded(flag, applied(st->map.args[0], app(prim(Prim::Fst), var(pv)), ctx), pad->c, ctx);
  Expr trueLit = makeLiteral(rise::ScalarValue::makeBool(true), {});
  Expr falseLit = makeLiteral(rise::ScalarValue::makeBool(false), {});
  Expr flags =
      rebuild(pad->spine.head, pad->spine.depArgs, {falseLit, constantArray(trueLit, ctx)});
  Expr clamped = rebuild(prim(Prim::PadClamp), pad->spine.depArgs, {st->map.args[1]});
  Expr stage =
      rebuild(st->map.head, st->map.depArgs, {lam(pv, body), app(prim(Prim::Zip), clamped, flags)});
  return st->store ? app(*st->store, stage) : stage;
}

/// padCst(l, r, c)(e)
///   -> concat(generate(fun(i => c)))(concat(e')(generate(fun(i => c))))
/// (l and r elements in the generates; the concat of a zero-length side left
/// out), e' = e for a computed array M(f)(x), else the copy
/// map(fun(y => y))(e) (e read through views). The same array; written to
/// memory, e' is a loop of its own without a test of the position. Fails for
/// a stored e and for a generate (nothing to gain from a copy).
std::optional<Expr> padCstAsConcat(const Expr& e, RuleContext& ctx) {
  auto pad = padCstOf(e);
  if (!pad || isStore(pad->e) || isPrim(spineOf(pad->e).head, Prim::Generate) ||
      !isArray(pad->e->type()))
    return std::nullopt;
  const Nat* l = std::get_if<Nat>(&pad->spine.depArgs[0]);
  const Nat* r = std::get_if<Nat>(&pad->spine.depArgs[1]);
  if (!l || !r)
    return std::nullopt;
  // the generates' sizes are in their index types: concat alone would leave
  // them open (n + m = l + k + r)
  auto side = [&](const Nat& n) {
    return app(prim(Prim::Generate),
               makeLambda(ctx.names.fresh("ix"), rise::indexType(n), pad->c, {}));
  };
  Expr out = pad->e;
  if (!stageOf(out)) {
    std::string y = ctx.names.fresh("y");
    out = app(prim(Prim::Map), lam(y, var(y)), out);
  }
  if (!(*r)->isConst(0))
    out = app(prim(Prim::Concat), out, side(*r));
  if (!(*l)->isConst(0))
    out = app(prim(Prim::Concat), side(*l), out);
  return out;
}

/// M(h)(T(M2(f)(x))) -> T(M2(fun(y => h(f(y))))(x))
/// A function applied to every element of a stored stage is applied before
/// the store instead: the stage stores h's results (a padded row, say), and
/// its reader reads them without computing h.
std::optional<Expr> mapIntoStore(const Expr& e, RuleContext& ctx) {
  Spine m = spineOf(e);
  std::optional<Prim> p = headPrim(e);
  if (!p || !isMapLike(*p) || m.args.size() != 2 || !isStore(m.args[1]))
    return std::nullopt;
  std::optional<Stage> st = stageOf(m.args[1]);
  if (!st)
    return std::nullopt;
  std::string y = ctx.names.fresh("y");
  Expr fy = applied(st->map.args[0], var(y), ctx);
  Expr f = lam(y, applied(m.args[0], fy, ctx));
  return app(*st->store, rebuild(st->map.head, st->map.depArgs, {f, st->map.args[1]}));
}

/// `unzip(map(fun(r => U(r)))(e))` for e: n_1. ... n_d.(s, t): the d-deep
/// array of pairs as a pair of d-deep arrays (a view; written through, it
/// stores the components in two arrays).
Expr unzipDeep(const Expr& e, int depth, RuleContext& ctx) {
  if (depth == 1)
    return app(prim(Prim::Unzip), e);
  std::string r = ctx.names.fresh("r");
  return app(prim(Prim::Unzip), app(prim(Prim::Map), lam(r, unzipDeep(var(r), depth - 1, ctx)), e));
}

/// The inverse of unzipDeep: `map(fun(r => Z(r)))(zip(fst(v), snd(v)))`.
Expr zipDeep(const Expr& v, int depth, RuleContext& ctx) {
  Expr zipped = app(prim(Prim::Zip), app(prim(Prim::Fst), v), app(prim(Prim::Snd), v));
  if (depth == 1)
    return zipped;
  std::string r = ctx.names.fresh("r");
  return app(prim(Prim::Map), lam(r, zipDeep(var(r), depth - 1, ctx)), zipped);
}

/// toMem(e) -> let(toMem(unzip(...(e))))(fun(v => zip(fst(v), snd(v)) ...))
/// for e an array (of arrays ...) of pairs: the two components stored in two
/// arrays (structure of arrays) instead of one array of pairs, and read back
/// as the same array of pairs (a view). A loop over one component then reads
/// contiguous floats. One level of pairs: a component that is a pair itself
/// stays an array of pairs (the new store is of a pair of arrays, where the
/// rule does not apply again).
std::optional<Expr> storeUnzipped(const Expr& e, RuleContext& ctx) {
  if (!isCall(e, Prim::ToMem, 1) || !e->arg()->type())
    return std::nullopt;
  int depth = 0;
  rise::Type t = e->arg()->type();
  while (isArray(t)) {
    t = t->elem();
    ++depth;
  }
  if (depth == 0 || t->kind() != rise::TypeKind::Pair)
    return std::nullopt;
  std::string v = ctx.names.fresh("v");
  return app(prim(Prim::Let), app(spineOf(e).head, unzipDeep(e->arg(), depth, ctx)),
             lam(v, zipDeep(var(v), depth, ctx)));
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
  r.add(simpleRule("padCstRows", fam,
                   "transpose(map(padCst(l, r, c))(transpose(x)))   (also map(fun(y => "
                   "padCst(l, r, c)(y))))",
                   "padCst(l, r, generate(fun(i => c)))(x)   (l and r rows of c)", padCstRows));
  r.add(simpleRule("padCstBeforeMap", fam,
                   "padCst(l, r, generate(fun(i => c)))(map(padCst(a, b, c))(x)), the same of "
                   "toMem(map(...)(x))   (the same constant c; also a chain of paddings and maps "
                   "of paddings with the same constants; fails for any other stage)",
                   "map(padCst(a, b, c))(padCst(l, r, generate(fun(i => c)))(x)), "
                   "toMem(map(...)(padCst(...)(x)))",
                   padCstBeforeMap));
  r.add(simpleRule("padCstBeforeMapGuarded", fam,
                   "padCst(l, r, c)(map(f)(x)), padCst(l, r, c)(toMem(map(f)(x)))   (any f, c)",
                   "map(fun(p => select(snd(p), f(fst(p)), c)))(zip(padClamp(l, r)(x), "
                   "padCst(l, r, false)(generate(fun(i => true)))))   (toMem(...) if stored; the "
                   "select pushed through let and padCst; a computed array f(...) stored and "
                   "chosen element by element: map(fun(y => select(snd(p), y, c0)))(toMem(...)))",
                   padCstBeforeMapGuarded));
  r.add(simpleRule("padCstAsConcat", fam, "padCst(l, r, c)(e)   (e not stored, not a generate)",
                   "concat(generate(fun(i: idx[l] => c)), concat(e', generate(fun(i: idx[r] => "
                   "c))))   (e' = e if a map, else map(fun(y => y))(e); a side of 0 left out)",
                   padCstAsConcat));
  r.add(simpleRule("mapIntoStore", fam, "map(h)(toMem(map(f)(x)))   (also toGlobal, ...)",
                   "toMem(map(fun(y => h(f(y))))(x))   (the stage stores h's results)",
                   mapIntoStore));
  r.add(simpleRule("mapAfterZip", fam, "zip(map(f)(a))(b)",
                   "map(fun(p => (f(fst(p)), snd(p))))(zip(a)(b))   (f applied after the zip)",
                   mapAfterZip));
  r.add(simpleRule("projectPair", fam, "fst((a, b)), snd((a, b))",
                   "a, b   (the other component not computed)", projectPair));
  r.add(simpleRule("storeUnzipped", fam,
                   "toMem(e)   (e: n.(s, t), n.m.(s, t), ...: an array of pairs)",
                   "let(toMem(unzip(map(unzip)(e))))(fun(v => map(fun(r => zip(fst(r), "
                   "snd(r))))(zip(fst(v), snd(v)))))   (as deep as e's arrays: the two components "
                   "stored apart)",
                   storeUnzipped));
}

} // namespace risec::rules
