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
//   - recompute: a stored value recomputed where it is read;
//   - storeArgument: a value that a function reads more than once (a
//     recomputed window) stored once instead of substituted.
// docs/strategies.md, "Stages fused per pixel", derives gaussian's per-pixel
// blur and harris's per-pixel response (specs/gaussian.fused.*.elevate,
// specs/harris.fused.*.elevate) with them.
#include "rules/Rule.h"

#include "rise/ast/Traverse.h"

#include <functional>
#include <set>

namespace risec::rules {

using namespace risec::rise;

namespace {

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
  /// The padClamps that stand for a padCst's border on the input side: their
  /// elements are never used (the flag selects the constant there), so any
  /// padding will do (sinkPadding chooses a cheaper one).
  std::set<const rise::ExprNode*> dontCare;
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
    // a padCst inside this one (nested paddings) set the border too: one
    // constant is selected for every flag, so theirs must be the same
    // (rewrite fuzz finding R7: 1.0f inside 0.0f read 0.0f)
    if (st.border && !alphaEquivalent(st.border, z))
      return std::nullopt;
    st.border = z;
    Expr pad = rebuild(prim(Prim::PadClamp), s.depArgs, {in->vx});
    st.dontCare.insert(pad.get());
    return Pushed{1, pad, rebuild(s.head, s.depArgs, {boolLit(false), in->vflag})};
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

// ---- padding whose elements are never read ----------------------------------------
//
// fuseStage pads the stage's input where a padCst padded the stage's result;
// the flag selects the constant there, so the padded elements are computed
// and discarded and any padding will do. A padClamp of a view of a padded
// image costs a clamp per index; sinkPadding moves such a padding down the
// views of the input instead, into the padding the input already has
// (harris: the windows of the zero-padded image become windows of an image
// padded by one more zero), and keeps a padClamp where it cannot.

/// A padding of dimension `dim` by l and r that belongs to the array whose
/// elements the variable `var` (a map's parameter) stands for.
struct PadRequest {
  std::string var;
  int dim;
  Nat l, r;
};

struct Sunk {
  Expr e;
  std::optional<PadRequest> request;
};

const Nat* natArg(const Spine& s, std::size_t i) {
  return i < s.depArgs.size() ? std::get_if<Nat>(&s.depArgs[i]) : nullptr;
}

/// `e` with dimension `dim` padded by l and r elements, as a padClamp.
Expr clampAt(const Expr& e, int dim, const Nat& l, const Nat& r, NameSupply& names) {
  if (dim == 0)
    return app(depArg(depArg(prim(Prim::PadClamp), l), r), e);
  std::string q = names.fresh("q");
  return app(prim(Prim::Map), lam(q, clampAt(var(q), dim - 1, l, r, names)), e);
}

/// The parameter and body of a map's function (a primitive partially
/// applied, `slide(3, 1)`, as `fun(e => slide(3, 1)(e))`); null where the
/// parameter is not used exactly once.
std::optional<std::pair<Expr, Expr>> onceUsedParam(const Expr& fn, NameSupply& names) {
  Expr param, body;
  if (fn->kind() == ExprKind::Lambda) {
    param = makeLambda(fn->name(), fn->paramType(), nullptr, {});
    body = fn->body();
  } else {
    std::string x = names.fresh("e");
    param = makeLambda(x, nullptr, nullptr, {});
    body = app(fn, var(x));
  }
  int uses = 0;
  std::function<void(const Expr&)> count = [&](const Expr& n) {
    if (n->kind() == ExprKind::Var && n->name() == param->name())
      ++uses;
    rise::forEachChild(n, count);
  };
  count(body);
  if (uses != 1)
    return std::nullopt;
  return std::make_pair(param, body);
}

Expr withBody(const Expr& param, const Expr& body) {
  return makeLambda(param->name(), param->paramType(), body, {});
}

/// `e` with dimension `dim` padded by l and r elements of any value; a
/// request where the padding belongs to the array that a variable in
/// `sinkable` (a map's parameter, used once) stands for an element of.
Sunk sinkPadding(const Expr& e, int dim, const Nat& l, const Nat& r,
                 const std::set<std::string>& sinkable, NameSupply& names) {
  auto fallback = [&] { return Sunk{clampAt(e, dim, l, r, names), std::nullopt}; };
  if (e->kind() == ExprKind::Var) {
    if (sinkable.count(e->name()))
      return Sunk{e, PadRequest{e->name(), dim, l, r}};
    return fallback();
  }
  Spine s = spineOf(e);
  std::optional<Prim> p = headPrim(e);
  if (!p)
    return fallback();
  auto inner = [&](const Expr& y, int d, const std::function<Expr(const Expr&)>& build) {
    Sunk in = sinkPadding(y, d, l, r, sinkable, names);
    return Sunk{build(in.e), in.request};
  };
  if (isStore(e))
    return inner(e->arg(), dim, [&](const Expr& y) { return rebuild(s.head, s.depArgs, {y}); });
  if (*p == Prim::Slide && s.args.size() == 1 && natArg(s, 1) && (*natArg(s, 1))->isConst(1) &&
      dim != 1)
    return inner(s.args[0], dim == 0 ? 0 : dim - 1,
                 [&](const Expr& y) { return rebuild(s.head, s.depArgs, {y}); });
  if (*p == Prim::Transpose && s.args.size() == 1)
    return inner(s.args[0],
                 dim == 0   ? 1
                 : dim == 1 ? 0
                            : dim,
                 [&](const Expr& y) { return app(prim(Prim::Transpose), y); });
  if ((*p == Prim::PadCst || *p == Prim::PadClamp) && natArg(s, 0) && natArg(s, 1) &&
      !s.args.empty()) {
    if (dim == 0) // one padding: the extra elements are any elements
      return Sunk{rebuild(s.head, {*natArg(s, 0) + l, *natArg(s, 1) + r}, s.args), std::nullopt};
    if (*p == Prim::PadClamp) // (a padCst's constant would lack the padding)
      return inner(s.args[0], dim, [&](const Expr& y) { return rebuild(s.head, s.depArgs, {y}); });
    return fallback();
  }
  if (*p == Prim::Map && s.args.size() == 2 && s.depArgs.empty()) {
    const Expr& y = s.args[1];
    if (dim == 0) // the view of each extra element: any value
      return inner(y, 0, [&](const Expr& z) { return rebuild(s.head, {}, {s.args[0], z}); });
    std::optional<std::pair<Expr, Expr>> pb = onceUsedParam(s.args[0], names);
    if (!pb)
      return fallback();
    const std::string& x = pb->first->name();
    std::set<std::string> inside = sinkable;
    inside.insert(x);
    Sunk b = sinkPadding(pb->second, dim - 1, l, r, inside, names);
    if (b.request && b.request->var != x)
      return fallback(); // an outer variable: not an element of y
    if (!b.request)
      return Sunk{rebuild(s.head, {}, {withBody(pb->first, b.e), y}), std::nullopt};
    Sunk ys = sinkPadding(y, b.request->dim + 1, l, r, sinkable, names);
    bool identity = b.e->kind() == ExprKind::Var && b.e->name() == x;
    return Sunk{identity ? ys.e : rebuild(s.head, {}, {withBody(pb->first, b.e), ys.e}),
                ys.request};
  }
  return fallback();
}

/// `e` (the input side of fuseStage) with its don't-care paddings sunk as
/// far as they go; `failed` where two would meet in one expression.
Sunk resolvePadding(const Expr& e, Fusion& st, const std::set<std::string>& sinkable,
                    bool& failed) {
  if (failed)
    return Sunk{e, std::nullopt};
  Spine s = spineOf(e);
  if (st.dontCare.count(e.get())) {
    Sunk y = resolvePadding(s.args[0], st, sinkable, failed);
    if (y.request) {
      failed = true;
      return y;
    }
    return sinkPadding(y.e, 0, *natArg(s, 0), *natArg(s, 1), sinkable, st.names);
  }
  if (isPrim(s.head, Prim::Map) && s.args.size() == 2 && s.depArgs.empty()) {
    std::optional<std::pair<Expr, Expr>> pb = onceUsedParam(s.args[0], st.names);
    Sunk y = resolvePadding(s.args[1], st, sinkable, failed);
    if (!pb) {
      Sunk fn = resolvePadding(s.args[0], st, sinkable, failed);
      if (fn.request || (y.request && fn.request))
        failed = true;
      return Sunk{rebuild(s.head, {}, {fn.e, y.e}), y.request};
    }
    const std::string& x = pb->first->name();
    std::set<std::string> inside = sinkable;
    inside.insert(x);
    Sunk b = resolvePadding(pb->second, st, inside, failed);
    if (!b.request)
      return Sunk{rebuild(s.head, {}, {withBody(pb->first, b.e), y.e}), y.request};
    if (b.request->var != x || y.request) {
      failed = true;
      return b;
    }
    Sunk ys = sinkPadding(y.e, b.request->dim + 1, b.request->l, b.request->r, sinkable, st.names);
    bool identity = b.e->kind() == ExprKind::Var && b.e->name() == x;
    return Sunk{identity ? ys.e : rebuild(s.head, {}, {withBody(pb->first, b.e), ys.e}),
                ys.request};
  }
  std::optional<PadRequest> request;
  Expr out = rise::mapChildren(e, [&](const Expr& c) {
    Sunk r = resolvePadding(c, st, sinkable, failed);
    if (r.request) {
      if (request)
        failed = true;
      request = r.request;
    }
    return r.e;
  });
  return Sunk{out, request};
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
/// padded element computed and discarded). That padding of the input is
/// never read, so it is merged into a padding of x's own views where it can
/// be (resolvePadding), else it is a padClamp. g = M2(g2) is fused into as
/// deep as the views allow.
std::optional<Expr> fuseStage(const Expr& e, RuleContext& ctx) {
  std::optional<Spine> m = appliedMap(e);
  if (!m)
    return std::nullopt;
  Fusion st{ctx.names, nullptr, nullptr, 0, nullptr, {}};
  std::optional<Pushed> v = push(m->args[1], st, {});
  if (!v || v->depth < 1)
    return std::nullopt;
  Expr f = st.f;
  Expr input = v->vx;
  if (!st.dontCare.empty()) {
    bool failed = false;
    Sunk sunk = resolvePadding(v->vx, st, {}, failed);
    if (!failed && !sunk.request)
      input = sunk.e;
  }
  if (st.border) {
    std::string p = ctx.names.fresh("p");
    f = lam(p, app(prim(Prim::Select), app(prim(Prim::Snd), var(p)),
                   app(f, app(prim(Prim::Fst), var(p))), st.border));
    input = zipNest(input, v->vflag, v->depth, ctx.names);
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

/// fun(x => b)(a) -> let(toMem(a))(fun(x => b))   (a and b data): the argument
/// stored once, where b reads x more than once (a fused stage recomputed
/// per window would otherwise be recomputed for every read: BENF substitutes
/// it).
std::optional<Expr> storeArgument(const Expr& e, RuleContext&) {
  // let's argument and result are data: fun(x => b)(a) of a function type
  // stays as it is
  if (e->kind() != ExprKind::App || e->fn()->kind() != ExprKind::Lambda || !e->arg()->type() ||
      !e->arg()->type()->isData() || !e->type() || !e->type()->isData())
    return std::nullopt;
  return app(prim(Prim::Let), app(prim(Prim::ToMem), e->arg()), e->fn());
}

} // namespace

void registerStageFusionRules(RuleRegistry& r) {
  const std::string fam = "stencil";
  r.add(simpleRule(
      "fuseStage", fam,
      "map(g)(V(toMem(map^d(f)(x))))   (V: views of the stage's elements: slide, padClamp, "
      "transpose, padCst of its elements, maps of views; the toMem optional; any map-like "
      "primitives)",
      "map(fun(w => g(map^(k-1)(f')(w))))(V'(x)): the stage recomputed per element of the "
      "consumer (k: the depth of V's elements; fused into g as deep as g is a map); without "
      "padCst V' = V, f' = f; with padCst(l, r, z): V' has a padding of l, r there whose "
      "elements are never read (merged into a padding of x's views where it can, else "
      "padClamp(l, r)), zipped with V of flags (generate(... true), padCst(l, r, false)), and "
      "f' = fun(p => select(snd(p), f(fst(p)), z))",
      fuseStage));
  r.add(simpleRule("fuseStageTransposed", fam,
                   "map(g)(transpose(toMem(map(fun(r => map(k)(v)))(rows))))   (r not free in k; "
                   "the toMem optional; also map(map(k)))",
                   "map(fun(c => g(map(k)(c))))(transpose(map(fun(r => v))(rows))): each column "
                   "of the stage recomputed from the column of its input",
                   fuseStageTransposed));
  r.add(simpleRule("storeArgument", fam, "fun(x => b)(a)   (a and b data)",
                   "let(toMem(a))(fun(x => b)): the argument stored once, not substituted into "
                   "every use of x",
                   storeArgument));
  r.add(simpleRule("recompute", fam, "toMem(e)   (also toGlobal, toLocal, toPrivate)",
                   "e: recomputed where it is read instead of stored once", recompute));
}

} // namespace risec::rules
