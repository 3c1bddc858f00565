// Shine's rules over pairs, zips and slides that its CGO 2021 Harris schedules
// use (rise-lang/shine, src/main/scala/rise/elevate/rules/algorithmic.scala,
// movement.scala and package.scala at commit 7212084e), ported with Shine's
// names and rewrites: `gentleBetaReduction`, `fstReduction`, `sndReduction`,
// `slideInsideZip`, `slideOutsideZip`, `zipUnzipAccessSimplification`,
// `mapProjZipUnification`, `mapOutsideZip`, `mapOutsidePair`, `zipSame`,
// `takeOutsidePair`, `normalizeZipInput` (cameraPipelineRewrite.scala's
// strategy of that name as one rule), and the predicates of harrisCornerDetectionHalideRewrite
// (`isAppliedZip`, `isAppliedUnzip`, `isAppliedPair`) as rules that leave a
// matching focus unchanged (risec's predicates are builtins of the strategy
// language; these are Shine's shapes of applied primitives).
#include "rise/nat/Nat.h"
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// `p(a)(b)` -> (a, b) for a primitive of two value arguments.
std::optional<std::pair<Expr, Expr>> call2(const Expr& e, Prim p) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, p) || s.args.size() != 2)
    return std::nullopt;
  return std::pair{s.args[0], s.args[1]};
}

/// `p(a)` -> a for a primitive of one value argument.
std::optional<Expr> call1(const Expr& e, Prim p) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, p) || s.args.size() != 1)
    return std::nullopt;
  return s.args[0];
}

bool sameArgs(const std::vector<TypeArg>& a, const std::vector<TypeArg>& b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Nat* x = std::get_if<Nat>(&a[i]);
    const Nat* y = std::get_if<Nat>(&b[i]);
    if (!x || !y || !natEqual(*x, *y))
      return false;
  }
  return true;
}

/// The number of free occurrences of x in e.
int occurrences(const std::string& x, const Expr& e) {
  switch (e->kind()) {
  case ExprKind::Var:
    return e->name() == x ? 1 : 0;
  case ExprKind::Lambda:
    return e->name() == x ? 0 : occurrences(x, e->body());
  case ExprKind::App:
    return occurrences(x, e->fn()) + occurrences(x, e->arg());
  case ExprKind::DepLambda:
    return occurrences(x, e->body());
  case ExprKind::DepApp:
    return occurrences(x, e->fn());
  default:
    return 0;
  }
}

/// Arrays of the same length (Shine leaves it to its type checker).
bool sameLength(const Expr& a, const Expr& b) {
  const Type &s = a->type(), &t = b->type();
  return isArray(s) && isArray(t) && natEqual(s->size(), t->size());
}

// fun(x => b)(v) -> b[x := v] where v is a variable or a pair, or x occurs at
// most once in b; depFun(n => b)(N) -> b[n := N] (Shine's
// gentleBetaReduction: a beta-reduction that duplicates no computation, but
// for pairs)
std::optional<Expr> gentleBetaReduction(const Expr& e, RuleContext& ctx) {
  if (std::optional<Expr> r = depBetaReduction(e))
    return r;
  if (e->kind() != ExprKind::App || e->fn()->kind() != ExprKind::Lambda)
    return std::nullopt;
  const Expr& f = e->fn();
  const Expr& v = e->arg();
  if (v->kind() != ExprKind::Var && !isCall(v, Prim::MakePair, 2) &&
      occurrences(f->name(), f->body()) > 1)
    return ctx.refuse("the parameter is used more than once and the argument is neither a "
                      "variable nor a pair");
  return substitute(f->body(), f->name(), v, ctx.names);
}

// fst(makePair(a)(b)) -> a
std::optional<Expr> fstReduction(const Expr& e, RuleContext&) {
  auto x = call1(e, Prim::Fst);
  if (!x)
    return std::nullopt;
  auto p = call2(*x, Prim::MakePair);
  if (!p)
    return std::nullopt;
  return p->first;
}

// snd(makePair(a)(b)) -> b
std::optional<Expr> sndReduction(const Expr& e, RuleContext&) {
  auto x = call1(e, Prim::Snd);
  if (!x)
    return std::nullopt;
  auto p = call2(*x, Prim::MakePair);
  if (!p)
    return std::nullopt;
  return p->second;
}

// zip(slide(n, m)(a))(slide(n, m)(b)) -> map(unzip)(slide(n, m)(zip(a)(b)))
std::optional<Expr> slideOutsideZip(const Expr& e, RuleContext& ctx) {
  auto z = call2(e, Prim::Zip);
  if (!z)
    return std::nullopt;
  Spine a = spineOf(z->first), b = spineOf(z->second);
  if (!isPrim(a.head, Prim::Slide) || !isPrim(b.head, Prim::Slide) || a.args.size() != 1 ||
      b.args.size() != 1)
    return std::nullopt;
  if (!sameArgs(a.depArgs, b.depArgs))
    return ctx.refuse("the two slides have different sizes or steps");
  return app(prim(Prim::Map), prim(Prim::Unzip),
             rebuild(a.head, a.depArgs, {app(prim(Prim::Zip), a.args[0], b.args[0])}));
}

// slide(n, m)(zip(a)(b)) -> map(fun(p => zip(fst(p))(snd(p))))(zip(slide(n, m)(a))(slide(n, m)(b)))
std::optional<Expr> slideInsideZip(const Expr& e, RuleContext& ctx) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Slide) || s.args.size() != 1)
    return std::nullopt;
  auto z = call2(s.args[0], Prim::Zip);
  if (!z)
    return std::nullopt;
  std::string p = ctx.names.fresh("p");
  return app(
      prim(Prim::Map),
      lam(p, app(prim(Prim::Zip), app(prim(Prim::Fst), var(p)), app(prim(Prim::Snd), var(p)))),
      app(prim(Prim::Zip), rebuild(s.head, s.depArgs, {z->first}),
          rebuild(s.head, s.depArgs, {z->second})));
}

/// `fst(unzip(e))` or `snd(unzip(e))` -> (fst or snd, e)
std::optional<std::pair<Prim, Expr>> projOfUnzip(const Expr& e) {
  for (Prim p : {Prim::Fst, Prim::Snd})
    if (auto x = call1(e, p))
      if (auto u = call1(*x, Prim::Unzip))
        return std::pair{p, *u};
  return std::nullopt;
}

// zip(a1(unzip(e)))(a2(unzip(e))) -> map(fun(p => makePair(a1(p))(a2(p))))(e)
// (a1, a2: fst or snd)
std::optional<Expr> zipUnzipAccessSimplification(const Expr& e, RuleContext& ctx) {
  auto z = call2(e, Prim::Zip);
  if (!z)
    return std::nullopt;
  auto a = projOfUnzip(z->first), b = projOfUnzip(z->second);
  if (!a || !b)
    return std::nullopt;
  if (!alphaEquivalent(a->second, b->second))
    return ctx.refuse("the two unzips are of different arrays");
  std::string p = ctx.names.fresh("p");
  return app(
      prim(Prim::Map),
      lam(p, app(prim(Prim::MakePair), app(prim(a->first), var(p)), app(prim(b->first), var(p)))),
      a->second);
}

// map(fun(p => g(fst(p))(snd(p))))(zip(a(e))(a(e)))
//   -> map(fun(p => g(a(p))(a(p))))(zip(fst(e))(snd(e)))   (a: fst or snd;
// Shine's rule, as written: e is a pair of arrays of the same length)
std::optional<Expr> mapProjZipUnification(const Expr& e, RuleContext& ctx) {
  auto m = call2(e, Prim::Map);
  if (!m || m->first->kind() != ExprKind::Lambda)
    return std::nullopt;
  const Expr& f = m->first;
  const std::string& p = f->name();
  Spine g = spineOf(f->body());
  if (g.args.size() < 2)
    return std::nullopt;
  auto isProj = [&](const Expr& x, Prim q) {
    auto y = call1(x, q);
    return y && (*y)->kind() == ExprKind::Var && (*y)->name() == p;
  };
  if (!isProj(g.args[g.args.size() - 2], Prim::Fst) || !isProj(g.args.back(), Prim::Snd))
    return std::nullopt;
  std::vector<Expr> front(g.args.begin(), g.args.end() - 2);
  Expr gf = rebuild(g.head, g.depArgs, front);
  if (occursFree(p, gf))
    return std::nullopt;
  auto z = call2(m->second, Prim::Zip);
  if (!z)
    return std::nullopt;
  std::optional<Prim> a;
  Expr e1;
  for (Prim q : {Prim::Fst, Prim::Snd})
    if (auto x = call1(z->first, q))
      if (auto y = call1(z->second, q)) {
        a = q;
        e1 = *x;
        if (!alphaEquivalent(*x, *y))
          return ctx.refuse("the zipped projections are of different pairs");
      }
  if (!a)
    return std::nullopt;
  const Type& t = e1->type();
  if (!t || t->kind() != TypeKind::Pair || !isArray(t->first()) || !isArray(t->second()) ||
      !natEqual(t->first()->size(), t->second()->size()))
    return ctx.refuse("the projected value is not a pair of arrays of the same length");
  std::string q = ctx.names.fresh("p");
  return app(prim(Prim::Map), lam(q, app(gf, app(prim(*a), var(q)), app(prim(*a), var(q)))),
             app(prim(Prim::Zip), app(prim(Prim::Fst), e1), app(prim(Prim::Snd), e1)));
}

/// `fun(p => makePair(fa(fst(p)))(fb(snd(p))))`
Expr pairOfMaps(const Expr& fa, const Expr& fb, NameSupply& names) {
  std::string p = names.fresh("p");
  return lam(p, app(prim(Prim::MakePair), app(fa, app(prim(Prim::Fst), var(p))),
                    app(fb, app(prim(Prim::Snd), var(p)))));
}

// zip(map(fa)(a))(map(fb)(b)) -> map(fun(p => makePair(fa(fst(p)))(fb(snd(p)))))(zip(a)(b))
std::optional<Expr> mapOutsideZip(const Expr& e, RuleContext& ctx) {
  auto z = call2(e, Prim::Zip);
  if (!z)
    return std::nullopt;
  auto a = call2(z->first, Prim::Map), b = call2(z->second, Prim::Map);
  if (!a || !b)
    return std::nullopt;
  return app(prim(Prim::Map), pairOfMaps(a->first, b->first, ctx.names),
             app(prim(Prim::Zip), a->second, b->second));
}

// makePair(map(fa)(a))(map(fb)(b))
//   -> unzip(map(fun(p => makePair(fa(fst(p)))(fb(snd(p)))))(zip(a)(b)))
std::optional<Expr> mapOutsidePair(const Expr& e, RuleContext& ctx) {
  auto z = call2(e, Prim::MakePair);
  if (!z)
    return std::nullopt;
  auto a = call2(z->first, Prim::Map), b = call2(z->second, Prim::Map);
  if (!a || !b)
    return std::nullopt;
  if (!sameLength(a->second, b->second))
    return ctx.refuse("the two mapped arrays differ in length");
  return app(prim(Prim::Unzip), app(prim(Prim::Map), pairOfMaps(a->first, b->first, ctx.names),
                                    app(prim(Prim::Zip), a->second, b->second)));
}

// zip(a)(a) -> map(fun(x => makePair(x)(x)))(a)
std::optional<Expr> zipSame(const Expr& e, RuleContext& ctx) {
  auto z = call2(e, Prim::Zip);
  if (!z)
    return std::nullopt;
  if (!alphaEquivalent(z->first, z->second))
    return ctx.refuse("the two zipped arrays are not the same term");
  std::string x = ctx.names.fresh("x");
  return app(prim(Prim::Map), lam(x, app(prim(Prim::MakePair), var(x), var(x))), z->first);
}

// makePair(take(n)(a))(take(m)(b)) -> mapSnd(take(m))(mapFst(take(n))(makePair(a)(b)))
std::optional<Expr> takeOutsidePair(const Expr& e, RuleContext&) {
  auto z = call2(e, Prim::MakePair);
  if (!z)
    return std::nullopt;
  Spine a = spineOf(z->first), b = spineOf(z->second);
  if (!isPrim(a.head, Prim::Take) || !isPrim(b.head, Prim::Take) || a.args.size() != 1 ||
      b.args.size() != 1)
    return std::nullopt;
  Expr pair = app(prim(Prim::MakePair), a.args[0], b.args[0]);
  return app(prim(Prim::MapSnd), rebuild(b.head, b.depArgs, {}),
             app(prim(Prim::MapFst), rebuild(a.head, a.depArgs, {}), pair));
}

/// The element of a tree of zips and maps over its leaves (Shine's "single
/// inputs"): each distinct leaf (alpha-equivalent ones are one) gets a
/// variable, in the order the leaves first occur.
Expr flattenZipTree(const Expr& t, std::vector<Expr>& leaves, std::vector<std::string>& vars,
                    bool& changed, NameSupply& names) {
  if (auto z = call2(t, Prim::Zip)) {
    Expr a = flattenZipTree(z->first, leaves, vars, changed, names);
    if (call2(z->first, Prim::Zip))
      changed = true; // not nested to the right
    Expr b = flattenZipTree(z->second, leaves, vars, changed, names);
    return app(prim(Prim::MakePair), a, b);
  }
  if (auto m = call2(t, Prim::Map)) {
    changed = true;
    return app(m->first, flattenZipTree(m->second, leaves, vars, changed, names));
  }
  for (std::size_t i = 0; i < leaves.size(); ++i)
    if (alphaEquivalent(leaves[i], t)) {
      changed = true; // a duplicate
      return var(vars[i]);
    }
  leaves.push_back(t);
  vars.push_back(names.fresh("in"));
  return var(vars.back());
}

// A tree of zips and maps over its leaves -> map(fun(p => element))(zip(l1)(zip(l2)(... ln)))
// with the distinct leaves l1..ln in the order they first occur (Shine's
// cameraPipelineRewrite.normalizeZipInput: maps out of the zips, the zips
// nested to the right, equal inputs merged; Shine orders the inputs by the
// numbers of their Scala identifiers instead)
std::optional<Expr> normalizeZipInput(const Expr& e, RuleContext& ctx) {
  if (!call2(e, Prim::Zip))
    return std::nullopt;
  std::vector<Expr> leaves;
  std::vector<std::string> vars;
  bool changed = false;
  Expr element = flattenZipTree(e, leaves, vars, changed, ctx.names);
  if (!changed)
    return ctx.refuse("the zip is already of distinct inputs nested to the right, without maps");
  std::string p = ctx.names.fresh("p");
  std::size_t n = leaves.size();
  Expr body = element;
  for (std::size_t k = 0; k < n; ++k) {
    Expr access = var(p);
    for (std::size_t j = 0; j < k; ++j)
      access = app(prim(Prim::Snd), access);
    if (n > 1 && k + 1 < n)
      access = app(prim(Prim::Fst), access);
    body = substitute(body, vars[k], access, ctx.names);
  }
  Expr zipped = leaves.back();
  for (std::size_t k = n - 1; k-- > 0;)
    zipped = app(prim(Prim::Zip), leaves[k], zipped);
  return app(prim(Prim::Map), lam(p, body), zipped);
}

/// A rule that leaves its focus as it is where the focus is `p` applied to
/// `n` value arguments: Shine's isAppliedZip and the like.
RuleFn appliedPredicate(Prim p, std::size_t n) {
  return [p, n](const Expr& e, RuleContext&) -> std::optional<Expr> {
    if (!isCall(e, p, n))
      return std::nullopt;
    return e;
  };
}

} // namespace

void registerShineHarrisRules(RuleRegistry& r) {
  const std::string fam = "algorithmic";
  r.add(simpleRule("gentleBetaReduction", fam,
                   "fun(x => b)(v) (v a variable or a pair, or x used at most once in b), "
                   "depFun(n => b)(N)",
                   "b[x := v], b[n := N]", gentleBetaReduction));
  r.add(simpleRule("fstReduction", fam, "fst(makePair(a)(b))", "a", fstReduction));
  r.add(simpleRule("sndReduction", fam, "snd(makePair(a)(b))", "b", sndReduction));
  r.add(simpleRule("slideOutsideZip", fam, "zip(slide(n, m)(a))(slide(n, m)(b))",
                   "map(unzip)(slide(n, m)(zip(a)(b)))", slideOutsideZip));
  r.add(simpleRule("slideInsideZip", fam, "slide(n, m)(zip(a)(b))",
                   "map(fun(p => zip(fst(p))(snd(p))))(zip(slide(n, m)(a))(slide(n, m)(b)))",
                   slideInsideZip));
  r.add(simpleRule("zipUnzipAccessSimplification", fam,
                   "zip(a1(unzip(e)))(a2(unzip(e)))   (a1, a2: fst or snd)",
                   "map(fun(p => makePair(a1(p))(a2(p))))(e)", zipUnzipAccessSimplification));
  r.add(simpleRule("mapProjZipUnification", fam,
                   "map(fun(p => g(fst(p))(snd(p))))(zip(a(e))(a(e)))   (a: fst or snd)",
                   "map(fun(p => g(a(p))(a(p))))(zip(fst(e))(snd(e)))", mapProjZipUnification));
  r.add(simpleRule("mapOutsideZip", fam, "zip(map(fa)(a))(map(fb)(b))",
                   "map(fun(p => makePair(fa(fst(p)))(fb(snd(p)))))(zip(a)(b))", mapOutsideZip));
  r.add(simpleRule("mapOutsidePair", fam, "makePair(map(fa)(a))(map(fb)(b))",
                   "unzip(map(fun(p => makePair(fa(fst(p)))(fb(snd(p)))))(zip(a)(b)))",
                   mapOutsidePair));
  r.add(simpleRule("zipSame", fam, "zip(a)(a)", "map(fun(x => makePair(x)(x)))(a)", zipSame));
  r.add(simpleRule("takeOutsidePair", fam, "makePair(take(n)(a))(take(m)(b))",
                   "makePair(a)(b) |> mapFst(take(n)) |> mapSnd(take(m))", takeOutsidePair));
  r.add(simpleRule("normalizeZipInput", fam,
                   "a tree of zip(a)(b) and map(f)(a) over inputs l (any other terms)",
                   "map(fun(p => element))(zip(l1)(zip(l2)(... ln)))   (distinct inputs, in "
                   "the order they occur)",
                   normalizeZipInput));
  r.add(simpleRule("isAppliedZip", "predicate", "zip(a)(b)", "zip(a)(b)   (unchanged)",
                   appliedPredicate(Prim::Zip, 2)));
  r.add(simpleRule("isAppliedUnzip", "predicate", "unzip(e)", "unzip(e)   (unchanged)",
                   appliedPredicate(Prim::Unzip, 1)));
  r.add(simpleRule("isAppliedPair", "predicate", "makePair(a)(b)", "makePair(a)(b)   (unchanged)",
                   appliedPredicate(Prim::MakePair, 2)));
}

} // namespace risec::rules
