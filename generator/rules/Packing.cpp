// Packing rules: an operand laid out in memory once, in the order a loop nest
// reads it (the B panels of mm, docs/strategies.md "The mm ladder").
// - splitTranspose: the column blocks of a matrix, as a view of its
//   row-major blocks (whose rows are what a register tile reads);
// - hoistToMem: a `toMem` of a value the map's function does not depend on
//   is computed once, before the map (`let`), instead of on every iteration;
// - storeTransposed: the elements (matrices) of a map's input stored
//   transposed, and read back through a transpose view (the mr-row blocks of
//   A in mm, stored k-major so that a register tile reads them in order);
// - isTransposedInput: a predicate, the transpose of an input read through
//   views (B in mm, padded or not), where Shine's tvmGemm packs B
//   (`storeInMemory(isTransposedB, permuteB)`), but not a transpose of a
//   computed array (padTile's of C);
// - storeBeforeViews: a stored value kept in the layout it is computed in
//   and read through the views that were applied to it (Shine's packed B as
//   32-column panels rather than transposed back into B^T).
#include "rules/Rule.h"

#include <set>

namespace risec::rules {

using namespace risec::rise;

namespace {

/// split(n)(transpose(x)) -> map(transpose)(transpose(map(split(n))(x)))
/// (x: k.(N*n).t; both sides are (N).n.k.t with [j][c][l] = x[l][j*n + c]).
std::optional<Expr> splitTranspose(const Expr& e, RuleContext&) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Split) || s.depArgs.size() != 1 || s.args.size() != 1 ||
      !isCall(s.args[0], Prim::Transpose, 1))
    return std::nullopt;
  const Expr& x = s.args[0]->arg();
  Expr splitN = depArg(prim(Prim::Split), s.depArgs[0]);
  return app(prim(Prim::Map), prim(Prim::Transpose),
             app(prim(Prim::Transpose), app(prim(Prim::Map), splitN, x)));
}

/// The first `toMem(c)` in `e` (left to right) whose free variables are not
/// bound inside the map's function (`bound`); not below a `depFun`.
std::optional<Expr> findClosedToMem(const Expr& e, std::set<std::string>& bound) {
  switch (e->kind()) {
  case ExprKind::App: {
    if (isCall(e, Prim::ToMem, 1)) {
      bool closed = true;
      for (const std::string& v : freeVars(e->arg()))
        closed = closed && !bound.count(v);
      if (closed)
        return e;
    }
    if (auto r = findClosedToMem(e->fn(), bound))
      return r;
    return findClosedToMem(e->arg(), bound);
  }
  case ExprKind::DepApp:
    return findClosedToMem(e->fn(), bound);
  case ExprKind::Lambda: {
    bool added = bound.insert(e->name()).second;
    auto r = findClosedToMem(e->body(), bound);
    if (added)
      bound.erase(e->name());
    return r;
  }
  default:
    return std::nullopt;
  }
}

/// `e` with the node `target` replaced by `by`.
Expr replaceNode(const Expr& e, const ExprNode* target, const Expr& by) {
  if (e.get() == target)
    return by;
  switch (e->kind()) {
  case ExprKind::App:
    return makeApp(replaceNode(e->fn(), target, by), replaceNode(e->arg(), target, by), e->loc());
  case ExprKind::DepApp:
    return makeDepApp(replaceNode(e->fn(), target, by), e->typeArg(), e->implicitArg(), e->loc());
  case ExprKind::Lambda:
    return makeLambda(e->name(), e->paramType(), replaceNode(e->body(), target, by), e->loc());
  default:
    return e;
  }
}

/// map(fun(x => ... toMem(c) ...))(xs)   (c independent of x and of every
/// variable bound inside the function)
///   -> let(toMem(c))(fun(v => map(fun(x => ... v ...))(xs)))
/// Any map flavour. `toMem` is the identity and `let` binds its value, so
/// the meaning is unchanged; the value is computed once instead of once per
/// element of xs.
std::optional<Expr> hoistToMem(const Expr& e, RuleContext& ctx) {
  Spine m = spineOf(e);
  if (!m.head || m.head->kind() != ExprKind::Primitive || !isMapLike(m.head->prim()) ||
      m.args.size() != 2 || m.args[0]->kind() != ExprKind::Lambda)
    return std::nullopt;
  const Expr& f = m.args[0];
  std::set<std::string> bound = {f->name()};
  auto stored = findClosedToMem(f->body(), bound);
  if (!stored)
    return std::nullopt;
  std::string v = ctx.names.fresh("packed");
  Expr body = replaceNode(e, stored->get(), var(v));
  return app(prim(Prim::Let), *stored, lam(v, body));
}

/// map(f)(xs)   (xs: N.a.b.t; any map flavour)
///   -> map(fun(y => f(transpose(y))))(toMem(map(transpose)(xs)))
/// Each element of xs is stored transposed (b.a, row-major) and read back as
/// transpose(y), a view: the meaning is unchanged. f is applied by
/// substitution when it is a lambda.
std::optional<Expr> storeTransposed(const Expr& e, RuleContext& ctx) {
  Spine m = spineOf(e);
  if (!m.head || m.head->kind() != ExprKind::Primitive || !isMapLike(m.head->prim()) ||
      m.args.size() != 2)
    return std::nullopt;
  const Expr& xs = m.args[1];
  const Type& t = xs->type();
  if (!t || t->kind() != TypeKind::Array || t->elem()->kind() != TypeKind::Array ||
      t->elem()->elem()->kind() != TypeKind::Array)
    return std::nullopt;
  const Expr& f = m.args[0];
  std::string y = ctx.names.fresh("y");
  Expr view = app(prim(Prim::Transpose), var(y));
  Expr body = f->kind() == ExprKind::Lambda ? substitute(f->body(), f->name(), view, ctx.names)
                                            : app(f, view);
  Expr stored = app(prim(Prim::ToMem), app(prim(Prim::Map), prim(Prim::Transpose), xs));
  return rebuild(m.head, m.depArgs, {lam(y, body), stored});
}

/// A view of the program's inputs: a variable, or view primitives
/// (transpose, padClamp, padCst, take, drop, split, join, zip, fst, snd) and
/// maps of them applied to views; no computation.
bool inputView(const Expr& e);

/// A function that a map of views applies: a view primitive applied to
/// fewer than its value arguments, or a lambda whose body is a view of its
/// parameter (and of the inputs).
bool viewFunction(const Expr& f) {
  if (f->kind() == ExprKind::Lambda)
    return inputView(f->body());
  Spine s = spineOf(f);
  if (!s.head || s.head->kind() != ExprKind::Primitive)
    return false;
  static const std::set<Prim> views = {Prim::Transpose, Prim::PadClamp, Prim::Take, Prim::Drop,
                                       Prim::Split,     Prim::Join,     Prim::Fst,  Prim::Snd};
  if (!views.count(s.head->prim()))
    return false;
  for (const Expr& a : s.args)
    if (!inputView(a))
      return false;
  return true;
}

bool inputView(const Expr& e) {
  if (e->kind() == ExprKind::Var)
    return true;
  if (e->kind() != ExprKind::App && e->kind() != ExprKind::DepApp)
    return false;
  Spine s = spineOf(e);
  if (!s.head || s.head->kind() != ExprKind::Primitive)
    return false;
  switch (s.head->prim()) {
  case Prim::Map:
    return s.args.size() == 2 && viewFunction(s.args[0]) && inputView(s.args[1]);
  case Prim::PadCst: // its constant, then the array
    return s.args.size() == 2 && s.args[0]->kind() == ExprKind::Literal && inputView(s.args[1]);
  case Prim::Transpose:
  case Prim::PadClamp:
  case Prim::Take:
  case Prim::Drop:
  case Prim::Split:
  case Prim::Join:
  case Prim::Zip:
  case Prim::Fst:
  case Prim::Snd:
    for (const Expr& a : s.args)
      if (!inputView(a))
        return false;
    return !s.args.empty();
  default:
    return false;
  }
}

/// transpose(x), x a view of the inputs: unchanged (a predicate).
std::optional<Expr> isTransposedInput(const Expr& e, RuleContext&) {
  if (!isCall(e, Prim::Transpose, 1) || !inputView(e->arg()))
    return std::nullopt;
  return e;
}

/// let(toMem(V(e)))(fun(x => b))   (V: views, outermost first: transpose,
/// join, split, asScalar and maps of view functions, any map flavour; e
/// computed)
///   -> let(toMem(e))(fun(y => b[x := V'(y)]))   (V' the same views, maps
/// as plain `map`)
/// The value is stored in e's own layout and read back through the views,
/// instead of written through them into the layout of V(e): Shine's packB
/// stores B's 32-column panels `join(mapPar(transpose)(panels))`, which the
/// C back end writes as a transposed copy of the panels (B^T, read by the
/// vector loop k floats apart); stored as panels, each row of 32 columns is
/// contiguous. A map of views becomes a view, so a parallel one no longer
/// runs a loop.
std::optional<Expr> storeBeforeViews(const Expr& e, RuleContext& ctx) {
  Spine let = spineOf(e);
  if (!isPrim(let.head, Prim::Let) || let.args.size() != 2 ||
      let.args[1]->kind() != ExprKind::Lambda || !isCall(let.args[0], Prim::ToMem, 1))
    return std::nullopt;
  Expr w = let.args[0]->arg();
  std::vector<Spine> views; // outermost first
  for (;;) {
    Spine v = spineOf(w);
    if (!v.head || v.head->kind() != ExprKind::Primitive || v.args.empty())
      break;
    Prim p = v.head->prim();
    bool view =
        (p == Prim::Transpose || p == Prim::Join || p == Prim::Split || p == Prim::AsScalar) &&
        v.args.size() == 1;
    bool mapOfViews = isMapLike(p) && v.args.size() == 2 && viewFunction(v.args[0]);
    if (!view && !mapOfViews)
      break;
    views.push_back(v);
    w = v.args.back();
  }
  if (views.empty() || inputView(w))
    return std::nullopt;
  std::string y = ctx.names.fresh("stored");
  Expr read = var(y);
  for (auto it = views.rbegin(); it != views.rend(); ++it) {
    std::vector<Expr> args = it->args;
    args.back() = read;
    read = isMapLike(it->head->prim()) ? rebuild(prim(Prim::Map), {}, args)
                                       : rebuild(it->head, it->depArgs, args);
  }
  const Expr& f = let.args[1];
  Expr body = substitute(f->body(), f->name(), read, ctx.names);
  return app(prim(Prim::Let), app(prim(Prim::ToMem), w), lam(y, body));
}

} // namespace

void registerPackingRules(RuleRegistry& r) {
  r.add(simpleRule("storeBeforeViews", "lowering",
                   "let(toMem(V(e)))(fun(x => b))   (V: transpose, join, split, asScalar and "
                   "maps of views; e computed)",
                   "let(toMem(e))(fun(y => b[x := V(y)]))", storeBeforeViews));
  r.add(simpleRule("isTransposedInput", "predicate",
                   "transpose(x)   (x a view of the inputs: variables, transpose, padClamp, "
                   "padCst, take, drop, split, join, zip, fst, snd and maps of them)",
                   "transpose(x)   (unchanged)", isTransposedInput));
  r.add(simpleRule("splitTranspose", "movement", "split(n)(transpose(x))",
                   "map(transpose)(transpose(map(split(n))(x)))", splitTranspose));
  r.add(simpleRule("hoistToMem", "lowering", "map(fun(x => ... toMem(c) ...))(xs)",
                   "let(toMem(c))(fun(v => map(fun(x => ... v ...))(xs)))   (c independent of "
                   "the variables bound in the map's function)",
                   hoistToMem));
  r.add(simpleRule("storeTransposed", "lowering", "map(f)(xs)   (xs: N.a.b.t)",
                   "map(fun(y => f(transpose(y))))(toMem(map(transpose)(xs)))", storeTransposed));
}

} // namespace risec::rules
