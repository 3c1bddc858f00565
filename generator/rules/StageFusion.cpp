// Stage fusion: the rewrites that take a pipeline of stencil stages, each
// stored once for the whole image, to one computation per output element
// that recomputes the part of the producer stage it reads (OpenCL has no
// global barrier within a kernel, so a stored h x w stage cannot be shared
// between work-items):
//   - fuseStage: the windows of a consumer read the producer stage recomputed
//     per window, from the windows of the producer's input (the padding of
//     the stage's result moved onto its input, exactly: a clamp is a clamp
//     of the input, a constant is selected by a flag that marks the border);
//   - fuseStageTransposed: a consumer over the columns of a stage computed
//     row by row (`transpose`) reads, per column, the stage recomputed from
//     that column of its input;
//   - recompute: a stored value recomputed where it is read.
// docs/strategies.md, "Stages fused per pixel", derives gaussian's per-pixel
// blur (specs/gaussian.fused.*.elevate) with them.
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

/// `e` without a store around it.
Expr unstored(const Expr& e) {
  return isStore(e) ? e->arg() : e;
}

/// `M(f)(x)` with M map-like (mapSeq, mapPar, ... included).
std::optional<Spine> appliedMap(const Expr& e) {
  std::optional<Prim> p = headPrim(e);
  Spine s = spineOf(e);
  if (!p || !isMapLike(*p) || s.args.size() != 2)
    return std::nullopt;
  return s;
}

Expr boolLit(bool b) {
  return makeLiteral(ScalarValue::makeBool(b), {});
}

/// What fuseStage knows while it walks the views between the consumer and
/// the stage.
struct Fusion {
  NameSupply& names;
  Expr border;   ///< padCst's constant, where one pads the stage (else null)
  Expr f;        ///< the stage's function on one element
  int depth = 0; ///< the stage's map nest: d in map^d(f)(x)
  Expr x;        ///< the stage's input
};

/// A variable of a view function standing for an array of the stage's
/// elements nested `depth` deep: `rows` in `map(fun(rows => ...))`.
struct Hole {
  std::string name;
  int depth;
  std::string x, flag; ///< its counterparts over the input and the flags
};

/// A view of the stage, pushed onto the stage's input: the view is
/// map^depth(f)(vx) (the stage's elements `depth` deep), with flags vflag
/// (true inside the stage, false in a constant border) of the same shape.
struct Pushed {
  int depth;
  Expr vx, vflag;
};

/// The stage `S(N(map(...map(f)))(x))` (S a store, optional): its function
/// on one element, its depth and its input.
bool stageOf(const Expr& e, Fusion& st) {
  std::optional<Spine> s = appliedMap(unstored(e));
  if (!s || !isArray(s->args[1]->type()))
    return false;
  st.depth = 1;
  st.f = s->args[0];
  st.x = s->args[1];
  for (;;) {
    Spine inner = spineOf(st.f);
    std::optional<Prim> p = headPrim(st.f);
    if (!p || !isMapLike(*p) || inner.args.size() != 1)
      break;
    st.f = inner.args[0];
    ++st.depth;
  }
  return true;
}

std::optional<Pushed> push(const Expr& e, Fusion& st, const std::vector<Hole>& holes);

/// `e` as a view the rule knows (of the stage or of a hole), pushed.
std::optional<Pushed> pushView(const Expr& e, Fusion& st, const std::vector<Hole>& holes) {
  if (e->kind() == ExprKind::Var) {
    for (const Hole& h : holes)
      if (h.name == e->name())
        return Pushed{h.depth, var(h.x), var(h.flag)};
    return std::nullopt;
  }
  Spine s = spineOf(e);
  std::optional<Prim> p = headPrim(e);
  if (!p)
    return std::nullopt;
  if ((*p == Prim::Slide || *p == Prim::PadClamp) && s.args.size() == 1 && s.depArgs.size() == 2) {
    std::optional<Pushed> in = push(s.args[0], st, holes);
    if (!in || in->depth < 1)
      return std::nullopt;
    return Pushed{in->depth + (*p == Prim::Slide ? 1 : 0), rebuild(s.head, s.depArgs, {in->vx}),
                  rebuild(s.head, s.depArgs, {in->vflag})};
  }
  if (*p == Prim::Transpose && s.args.size() == 1) {
    std::optional<Pushed> in = push(s.args[0], st, holes);
    if (!in || in->depth < 2)
      return std::nullopt;
    return Pushed{in->depth, app(prim(Prim::Transpose), in->vx),
                  app(prim(Prim::Transpose), in->vflag)};
  }
  if (*p == Prim::PadCst && s.args.size() == 2 && s.depArgs.size() == 2) {
    // a border of the stage's elements (not of arrays of them) only, the
    // same constant everywhere, that the moved selection can see
    Expr z = s.args[0];
    for (const Hole& h : holes)
      if (occursFree(h.name, z))
        return std::nullopt;
    if (st.border && !alphaEquivalent(st.border, z))
      return std::nullopt;
    std::optional<Pushed> in = push(s.args[1], st, holes);
    if (!in || in->depth != 1)
      return std::nullopt;
    st.border = z;
    return Pushed{1, rebuild(prim(Prim::PadClamp), s.depArgs, {in->vx}),
                  rebuild(s.head, s.depArgs, {boolLit(false), in->vflag})};
  }
  if (*p == Prim::Map && s.args.size() == 2 && s.depArgs.empty()) {
    // map(v)(e1), v a view of each element array of e1: fun(r => view of r)
    // or a view primitive partially applied (slide(3, 1), padCst(1, 1, z))
    std::optional<Pushed> in = push(s.args[1], st, holes);
    if (!in || in->depth < 2)
      return std::nullopt;
    Expr fn = s.args[0];
    std::string r;
    Expr body;
    if (fn->kind() == ExprKind::Lambda) {
      r = fn->name();
      body = fn->body();
    } else {
      r = st.names.fresh("r");
      body = app(fn, var(r));
    }
    Hole h{r, in->depth - 1, st.names.fresh("rx"), st.names.fresh("rf")};
    std::vector<Hole> inner = holes;
    inner.push_back(h);
    std::optional<Pushed> b = push(body, st, inner);
    if (!b)
      return std::nullopt;
    return Pushed{b->depth + 1, app(prim(Prim::Map), lam(h.x, b->vx), in->vx),
                  app(prim(Prim::Map), lam(h.flag, b->vflag), in->vflag)};
  }
  return std::nullopt;
}

/// The view `e` of the stage (or of a hole) pushed onto the stage's input,
/// or nothing where `e` is neither a view the rule knows nor the stage.
std::optional<Pushed> push(const Expr& e, Fusion& st, const std::vector<Hole>& holes) {
  Expr border = st.border;
  if (std::optional<Pushed> v = pushView(e, st, holes))
    return v;
  st.border = border; // a view that failed half-way leaves nothing behind
  if (!holes.empty() || !stageOf(e, st))
    return std::nullopt;
  // the flags of the stage: true everywhere, of the stage's shape
  Expr flags = lam(st.names.fresh("i"), boolLit(true));
  for (int k = 1; k < st.depth; ++k)
    flags = lam(st.names.fresh("i"), app(prim(Prim::Generate), flags));
  return Pushed{st.depth, st.x, app(prim(Prim::Generate), flags)};
}

/// `f` nested in `depth` maps: map(map(f)) for 2.
Expr nestMap(Expr f, int depth) {
  for (int k = 0; k < depth; ++k)
    f = app(prim(Prim::Map), f);
  return f;
}

/// zip(a, b) at every one of `depth` levels: an array of pairs.
Expr zipNest(const Expr& a, const Expr& b, int depth, NameSupply& names) {
  Expr z = app(prim(Prim::Zip), a, b);
  if (depth == 1)
    return z;
  std::string q = names.fresh("q");
  return app(
      prim(Prim::Map),
      lam(q, zipNest(app(prim(Prim::Fst), var(q)), app(prim(Prim::Snd), var(q)), depth - 1, names)),
      z);
}

/// g applied to map^level(f)(arg); where g is itself a map M(g') and level
/// >= 1, M(fun(v => g'(map^(level-1)(f)(v))))(arg): the stage fused as deep
/// as the consumer maps.
Expr applyFused(const Expr& g, int level, const Expr& f, const Expr& arg, NameSupply& names) {
  Spine gs = spineOf(g);
  std::optional<Prim> p = headPrim(g);
  if (level >= 1 && p && isMapLike(*p) && gs.args.size() == 1) {
    std::string v = names.fresh("v");
    return rebuild(gs.head, gs.depArgs,
                   {lam(v, applyFused(gs.args[0], level - 1, f, var(v), names)), arg});
  }
  return app(g, app(nestMap(f, level), arg));
}

/// M(g)(V(S(map^d(f)(x))))
///   -> M(fun(w => g(map^(k-1)(f')(w))))(V'(x))    (k: the depth of V's elements)
/// V: the views between the consumer and the stage (slide, padClamp,
/// transpose, padCst of the stage's elements, and maps of views over rows);
/// S: a store, dropped; V' = V with each padCst(l, r, z) a padClamp(l, r),
/// and f' = f, where V has no padCst. Where it has: V'(x) is zipped (at every
/// level) with V'' of flags (generate(... true)), V'' = V with each padCst
/// a padCst(l, r, false), and f' = fun(p => select(snd(p), f(fst(p)), z)).
/// Every view only moves elements, so it commutes with the element-wise
/// stage, and padCst's border, z, is selected where the flag is false (f of a
/// clamped element computed and discarded). g = M2(g2) is fused into as
/// deep as the views allow.
std::optional<Expr> fuseStage(const Expr& e, RuleContext& ctx) {
  std::optional<Spine> m = appliedMap(e);
  if (!m)
    return std::nullopt;
  Fusion st{ctx.names, nullptr, nullptr, 0, nullptr};
  std::optional<Pushed> v = push(m->args[1], st, {});
  if (!v || v->depth < 1)
    return std::nullopt;
  Expr f = st.f;
  Expr input = v->vx;
  if (st.border) {
    std::string p = ctx.names.fresh("p");
    f = lam(p, app(prim(Prim::Select), app(prim(Prim::Snd), var(p)),
                   app(f, app(prim(Prim::Fst), var(p))), st.border));
    input = zipNest(v->vx, v->vflag, v->depth, ctx.names);
  }
  std::string w = ctx.names.fresh("w");
  Expr perWindow = lam(w, applyFused(m->args[0], v->depth - 1, f, var(w), ctx.names));
  return rebuild(m->head, m->depArgs, {perWindow, input});
}

/// M(g)(transpose(S(N(fun(r => K(k)(v)))(rows))))
///   -> M(fun(c => g(map(k)(c))))(transpose(N(fun(r => v))(rows)))   (r not free in k)
/// M(g)(transpose(S(N(K(k))(rows)))) -> M(fun(c => g(map(k)(c))))(transpose(rows))
/// Column j of the stage is k of column j of its input (element i of it,
/// k(v(rows[i])[j])), so the consumer of a column computes it from that
/// column; S (a store) is dropped.
std::optional<Expr> fuseStageTransposed(const Expr& e, RuleContext& ctx) {
  std::optional<Spine> m = appliedMap(e);
  if (!m || !isCall(m->args[1], Prim::Transpose, 1))
    return std::nullopt;
  std::optional<Spine> stage = appliedMap(unstored(m->args[1]->arg()));
  if (!stage)
    return std::nullopt;
  Expr rowFn = stage->args[0];
  Expr inner = rowFn;
  if (rowFn->kind() == ExprKind::Lambda)
    inner = rowFn->body();
  Spine ks = spineOf(inner);
  std::optional<Prim> kp = headPrim(inner);
  if (!kp || !isMapLike(*kp))
    return std::nullopt;
  Expr columns;
  if (rowFn->kind() == ExprKind::Lambda) {
    if (ks.args.size() != 2 || occursFree(rowFn->name(), ks.args[0]))
      return std::nullopt;
    columns =
        rebuild(stage->head, stage->depArgs,
                {makeLambda(rowFn->name(), rowFn->paramType(), ks.args[1], {}), stage->args[1]});
  } else {
    if (ks.args.size() != 1)
      return std::nullopt;
    columns = stage->args[1];
  }
  std::string c = ctx.names.fresh("c");
  Expr perColumn = lam(c, app(m->args[0], app(prim(Prim::Map), ks.args[0], var(c))));
  return rebuild(m->head, m->depArgs, {perColumn, app(prim(Prim::Transpose), columns)});
}

/// toMem(e) -> e (also toGlobal, toLocal, toPrivate): the value recomputed
/// where it is read instead of stored once.
std::optional<Expr> recompute(const Expr& e, RuleContext&) {
  if (!isStore(e))
    return std::nullopt;
  return e->arg();
}

/// fun(x => b)(a) -> let(toMem(a))(fun(x => b))   (a data): the argument
/// stored once, where b reads x more than once (a fused stage recomputed
/// per window would otherwise be recomputed for every read: BENF substitutes
/// it).
std::optional<Expr> storeArgument(const Expr& e, RuleContext&) {
  if (e->kind() != ExprKind::App || e->fn()->kind() != ExprKind::Lambda || !e->arg()->type() ||
      !e->arg()->type()->isData())
    return std::nullopt;
  return app(prim(Prim::Let), app(prim(Prim::ToMem), e->arg()), e->fn());
}

} // namespace

void registerStageFusionRules(RuleRegistry& r) {
  const std::string fam = "stencil";
  r.add(simpleRule(
      "fuseStage", fam,
      "map(g)(slide(sz, sp)(P(toMem(map(f)(x)))))   (P: nothing, padClamp(l, r) or padCst(l, r, "
      "z); the toMem optional; any map-like primitives)",
      "map(fun(w => g(map(f')(w))))(slide(sz, sp)(P'(x))): the stage recomputed per window of its "
      "input; P'(x) = padClamp(l, r)(x) for both paddings, f' = f except for padCst: f' = fun(p "
      "=> select(snd(p), f(fst(p)), z)) over zip(padClamp(l, r)(x), padCst(l, r, "
      "false)(generate(fun(i => true))))",
      fuseStage));
  r.add(simpleRule("fuseStageTransposed", fam,
                   "map(g)(transpose(toMem(map(fun(r => map(k)(v)))(rows))))   (r not free in k; "
                   "the toMem optional; also map(map(k)))",
                   "map(fun(c => g(map(k)(c))))(transpose(map(fun(r => v))(rows))): each column "
                   "of the stage recomputed from the column of its input",
                   fuseStageTransposed));
  r.add(simpleRule("storeArgument", fam, "fun(x => b)(a)   (a data)",
                   "let(toMem(a))(fun(x => b)): the argument stored once, not substituted into "
                   "every use of x",
                   storeArgument));
  r.add(simpleRule("recompute", fam, "toMem(e)   (also toGlobal, toLocal, toPrivate)",
                   "e: recomputed where it is read instead of stored once", recompute));
}

} // namespace risec::rules
