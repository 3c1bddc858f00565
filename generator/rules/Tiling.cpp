// Tiling and loop reordering of map nests: tile(x, y), reorder([..]) and
// loopInterchange. Two shapes of 2-D map nest are recognised:
//   nested     map(map(f))(a)                        a: n.m.s (loops over one array)
//   cartesian  map(fun(i => map(g)(eb)))(ea)         i not free in eb (loops over two arrays)
#include "rules/Rule.h"

#include <algorithm>

namespace risec::rules {

using namespace risec::rise;

namespace {

/// The function of a map nest of depth `d` (`map(map(f))` with d = 2 gives f);
/// each level may also be written `fun(y => map(f)(y))`.
std::optional<Expr> peelMapNest(Expr fn, int d) {
  for (int level = 1; level < d; ++level) {
    if (fn->kind() == ExprKind::Lambda && fn->body()->kind() == ExprKind::App &&
        fn->body()->arg()->kind() == ExprKind::Var && fn->body()->arg()->name() == fn->name() &&
        !occursFree(fn->name(), fn->body()->fn()))
      fn = fn->body()->fn();
    Spine s = spineOf(fn);
    if (!isPrim(s.head, Prim::Map) || s.args.size() != 1)
      return std::nullopt;
    fn = s.args[0];
  }
  return fn;
}

Expr mapN(int d, Expr f) {
  for (int i = 0; i < d; ++i)
    f = app(prim(Prim::Map), f);
  return f;
}

/// `map(f)(x)` with the high-level map: (f, x).
std::optional<std::pair<Expr, Expr>> mapApplied(const Expr& e) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Map) || s.args.size() != 2)
    return std::nullopt;
  return std::pair{s.args[0], s.args[1]};
}

struct Cartesian {
  std::string i; ///< outer binder
  Expr g;        ///< inner map's function (may mention i)
  Expr ea, eb;
};

std::optional<Cartesian> cartesian(const Expr& e) {
  auto outer = mapApplied(e);
  if (!outer || outer->first->kind() != ExprKind::Lambda)
    return std::nullopt;
  const Expr& f = outer->first;
  auto inner = mapApplied(f->body());
  if (!inner || occursFree(f->name(), inner->second))
    return std::nullopt;
  return Cartesian{f->name(), inner->first, outer->second, inner->second};
}

RuleFn tile(std::int64_t tx, std::int64_t ty) {
  return [tx, ty](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    if (auto c = cartesian(e)) {
      std::string as = ctx.names.fresh("rows"), bs = ctx.names.fresh("cols");
      Expr block = app(prim(Prim::Map), lam(c->i, app(prim(Prim::Map), c->g, var(bs))), var(as));
      Expr blocks = app(prim(Prim::Map), lam(bs, block), app(depNat(prim(Prim::Split), ty), c->eb));
      Expr row = app(prim(Prim::Map), prim(Prim::Join), app(prim(Prim::Transpose), blocks));
      return app(prim(Prim::Join),
                 app(prim(Prim::Map), lam(as, row), app(depNat(prim(Prim::Split), tx), c->ea)));
    }
    auto m = mapApplied(e);
    if (!m)
      return std::nullopt;
    auto f = peelMapNest(m->first, 2);
    if (!f)
      return std::nullopt;
    Expr t = app(depNat(prim(Prim::Split), tx), m->second);
    t = app(mapN(2, depNat(prim(Prim::Split), ty)), t);
    t = app(mapN(1, prim(Prim::Transpose)), t);
    t = app(mapN(4, *f), t);
    t = app(mapN(1, prim(Prim::Transpose)), t);
    t = app(mapN(2, prim(Prim::Join)), t);
    return app(prim(Prim::Join), t);
  };
}

std::optional<Expr> loopInterchange(const Expr& e, RuleContext& ctx) {
  if (auto c = cartesian(e)) {
    std::string j = ctx.names.fresh("j");
    Expr inner = app(prim(Prim::Map), lam(c->i, app(c->g, var(j))), c->ea);
    return app(prim(Prim::Transpose), app(prim(Prim::Map), lam(j, inner), c->eb));
  }
  auto m = mapApplied(e);
  if (!m)
    return std::nullopt;
  auto f = peelMapNest(m->first, 2);
  if (!f)
    return std::nullopt;
  return app(prim(Prim::Transpose), app(mapN(2, *f), app(prim(Prim::Transpose), m->second)));
}

/// Swaps dimensions `j` and `j + 1` of an array expression.
Expr swapDims(int j, Expr x) {
  return app(mapN(j, prim(Prim::Transpose)), std::move(x));
}

RuleFn reorder(std::vector<std::int64_t> perm) {
  return [perm](const Expr& e, RuleContext&) -> std::optional<Expr> {
    int d = static_cast<int>(perm.size());
    std::vector<std::int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (int k = 0; k < d; ++k)
      if (sorted[k] != k + 1)
        return std::nullopt;
    auto m = mapApplied(e);
    if (!m || d < 2)
      return std::nullopt;
    auto f = peelMapNest(m->first, d);
    if (!f)
      return std::nullopt;
    // Bubble the dimensions into loop order, recording the adjacent swaps.
    std::vector<std::int64_t> cur(d);
    for (int k = 0; k < d; ++k)
      cur[k] = k + 1;
    std::vector<int> swaps;
    for (int k = 0; k < d; ++k) {
      int at = static_cast<int>(std::find(cur.begin(), cur.end(), perm[k]) - cur.begin());
      for (int j = at; j > k; --j) {
        std::swap(cur[j - 1], cur[j]);
        swaps.push_back(j - 1);
      }
    }
    if (swaps.empty())
      return std::nullopt;
    Expr t = m->second;
    for (int j : swaps)
      t = swapDims(j, t);
    t = app(mapN(d, *f), t);
    for (auto it = swaps.rbegin(); it != swaps.rend(); ++it)
      t = swapDims(*it, t);
    return t;
  };
}

/// `padClamp(0, w*((n + w - 1)/w) - n)(e)` for e: n.t: e padded to the next
/// multiple of w by repeating its last element (so a function applied to the
/// padding sees real data and cannot trap where the original would not).
/// When e is `transpose(x)` the padding goes inside, onto each row of x, so
/// that a later splitTranspose still sees the transpose.
Expr padToMultiple(const Expr& e, std::int64_t w) {
  bool transposed = isCall(e, Prim::Transpose, 1);
  const Expr& arrays = transposed ? e->arg() : e;
  const Type& t = arrays->type();
  Nat n = transposed ? t->elem()->size() : t->size();
  Nat padding = paddingToMultiple(n, w);
  Expr pad = depArg(depNat(prim(Prim::PadClamp), 0), padding);
  if (!transposed)
    return app(pad, e);
  return app(prim(Prim::Transpose), app(prim(Prim::Map), pad, arrays));
}

RuleFn padTile(std::int64_t tx, std::int64_t ty) {
  return [tx, ty](const Expr& e, RuleContext&) -> std::optional<Expr> {
    auto c = cartesian(e);
    if (tx < 1 || ty < 1 || !c || !isArray(c->ea->type()) || !isArray(c->eb->type()) ||
        (isCall(c->eb, Prim::Transpose, 1) &&
         !(isArray(c->eb->arg()->type()) && isArray(c->eb->arg()->type()->elem()))))
      return std::nullopt;
    Nat m = c->ea->type()->size(), n = c->eb->type()->size();
    Expr padded =
        app(prim(Prim::Map), lam(c->i, app(prim(Prim::Map), c->g, padToMultiple(c->eb, ty))),
            padToMultiple(c->ea, tx));
    // take(n) of every row: transpose, take the first n rows, transpose back
    Expr cols = app(prim(Prim::Transpose),
                    app(depArg(prim(Prim::Take), n), app(prim(Prim::Transpose), padded)));
    return app(depArg(prim(Prim::Take), m), cols);
  };
}

/// m(f)(xs), xs: n.t, m a map-like primitive
///   -> take(n)(m(f)(padClamp(0, w*((n + w - 1)/w) - n)(xs)))
/// The one-dimensional padTile: the map runs over a whole number of blocks
/// of w (so that splitJoin(w) then needs nothing of n), the padding repeats
/// the last element of xs and its results are discarded (take in acceptor
/// position: the writes of the padded elements are guarded). Element i < n
/// of both sides is f(xs[i]). Fails where w divides n for every n (nothing
/// to pad).
RuleFn padMap(std::int64_t w) {
  return [w](const Expr& e, RuleContext&) -> std::optional<Expr> {
    Spine s = spineOf(e);
    std::optional<Prim> p = headPrim(e);
    if (w < 1 || !p || !isMapLike(*p) || s.args.size() != 2 || !isArray(s.args[1]->type()))
      return std::nullopt;
    const Expr& xs = s.args[1];
    if (isCall(xs, Prim::Transpose, 1) &&
        !(isArray(xs->arg()->type()) && isArray(xs->arg()->type()->elem())))
      return std::nullopt;
    Nat n = xs->type()->size();
    Nat padding = paddingToMultiple(n, w);
    if (padding->isConst(0))
      return std::nullopt;
    Expr head = rebuild(s.head, s.depArgs, {s.args[0]});
    return app(depArg(prim(Prim::Take), n), app(head, padToMultiple(xs, w)));
  };
}

} // namespace

void registerTilingRules(RuleRegistry& r) {
  r.add(RuleInfo{"padMap",
                 "tiling",
                 {ParamKind::Int},
                 "map(f)(xs)   (xs: n.t; also mapSeq, mapPar, mapGlobal, ...)",
                 "take(n)(map(f)(padClamp(0, w*((n+w-1)/w) - n)(xs)))   (the map over a whole "
                 "number of blocks of w, as splitJoin(w) needs; the padding repeats the last "
                 "element and its results are discarded; fails where w divides n)",
                 [](const std::vector<RuleArg>& a) { return padMap(intArg(a, 0)); }});
  r.add(
      RuleInfo{"padTile",
               "tiling",
               {ParamKind::Int, ParamKind::Int},
               "map(fun(i => map(g)(b)))(a)   (i not free in b; a: m.s, b: n.t)",
               "take(m)(transpose(take(n)(transpose(map(fun(i => map(g)(padClamp(0, "
               "y*((n+y-1)/y) - n)(b))))(padClamp(0, x*((m+x-1)/x) - m)(a))))))   (the nest "
               "padded to multiples of x and y, as tile(x, y) needs; the padded results are "
               "computed and discarded; transpose(map(padClamp(..))(c)) when b is transpose(c))",
               [](const std::vector<RuleArg>& a) { return padTile(intArg(a, 0), intArg(a, 1)); }});
  r.add(RuleInfo{"tile",
                 "tiling",
                 {ParamKind::Int, ParamKind::Int},
                 "map(fun(i => map(g)(b)))(a)   (i not free in b)",
                 "join(map(fun(rows => map(join)(transpose(map(fun(cols => map(fun(i => "
                 "map(g)(cols)))(rows)))(split(y)(b)))))(split(x)(a)));  "
                 "map(map(f)) -> split(x) >> map(map(split(y))) >> map(transpose) >> "
                 "map(map(map(map(f)))) >> map(transpose) >> map(map(join)) >> join",
                 [](const std::vector<RuleArg>& a) { return tile(intArg(a, 0), intArg(a, 1)); }});
  r.add(RuleInfo{"reorder",
                 "tiling",
                 {ParamKind::IntList},
                 "map^d(f)(a)   (a map nest of depth d = length of the list)",
                 "permute(a) |> map^d(f) |> unpermute   (loop k runs over dimension p[k] of a; "
                 "the permutations are map^j(transpose) swaps)",
                 [](const std::vector<RuleArg>& a) -> RuleFn {
                   const auto& perm = std::get<std::vector<std::int64_t>>(a.at(0));
                   return [maps = reorder(perm), nest = reorderNest(perm)](const Expr& e,
                                                                           RuleContext& ctx) {
                     auto r = maps(e, ctx);
                     return r ? r : nest(e, ctx);
                   };
                 }});
  r.add(simpleRule("loopInterchange", "tiling", "map(fun(i => map(fun(j => e))(b)))(a)",
                   "transpose(map(fun(j => map(fun(i => e))(a)))(b));  "
                   "map(map(f)) -> transpose >> map(map(f)) >> transpose",
                   loopInterchange));
}

} // namespace risec::rules
