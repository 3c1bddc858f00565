// OpenCL tiling rules: the tiles of a work-group staged in local memory
// (issue 19; docs/strategies.md, "OpenCL tiles in local memory").
// - stageTiles(kt, ta, tb): a tile of dot products (the block of C that a
//   work-group computes, after `tile`) becomes a reduction over the tiles of
//   its two operands along k, kt at a time, each pair of tiles copied into
//   memory first (`toMem` of a copy nest: the strategy makes the copies
//   cooperative, mapLocal, and the memory local, toMemIn(Local)), then every
//   element of the block updated from the stored tiles; the last k % kt
//   products are added from the operands themselves afterwards (a tail, no
//   precondition on k).
// - stageTransposed: a map over a 2-D array reads it transposed from a copy
//   stored in the array's own order (the tile of transpose read row by row,
//   coalesced, and written row by row from memory).
// - reduceSeqToOcl(a): the accumulator of a reduceSeq in address space a.
// - padNest(x, y): padTile for a nest `map(map(f))(x)` over one 2-D array.
#include "rules/Rule.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

Expr fstOf(Expr e) {
  return app(prim(Prim::Fst), std::move(e));
}
Expr sndOf(Expr e) {
  return app(prim(Prim::Snd), std::move(e));
}
Expr zipOf(Expr a, Expr b) {
  return app(prim(Prim::Zip), std::move(a), std::move(b));
}
Expr transposeOf(Expr e) {
  return app(prim(Prim::Transpose), std::move(e));
}

/// `map(fun(x => map(fun(y => body(x, y)))(inner(x))))(outer)`: the 2-D nests
/// the strategy maps to mapLocal(1) / mapLocal(0).
Expr nest2(NameSupply& names, const Expr& outer, const std::function<Expr(const Expr&)>& inner,
           const std::function<Expr(const Expr&, const Expr&)>& body) {
  std::string x = names.fresh("r"), y = names.fresh("c");
  Expr in = app(prim(Prim::Map), lam(y, body(var(x), var(y))), inner(var(x)));
  return app(prim(Prim::Map), lam(x, in), outer);
}

/// A copy of the 2-D array `e` (a copy nest, which `toMem` stores).
Expr copy2(NameSupply& names, const Expr& e) {
  return nest2(
      names, e, [](const Expr& row) { return row; }, [](const Expr&, const Expr& v) { return v; });
}

/// A contraction tile: `map(fun(i => map(fun(j => R))(cs)))(rs)` with R =
/// `reduce(op)(init)(zip(i)(j))` (or reduceSeq), op and init independent of
/// i and j, i not free in cs, rs: ty.k.s and cs: tx.k.t.
struct DotTile {
  Expr head; ///< the reduce primitive
  Expr op, init, rs, cs;
};

std::optional<DotTile> dotTile(const Expr& e) {
  Spine outer = spineOf(e);
  if (!isPrim(outer.head, Prim::Map) || !outer.depArgs.empty() || outer.args.size() != 2 ||
      outer.args[0]->kind() != ExprKind::Lambda)
    return std::nullopt;
  const Expr& fi = outer.args[0];
  Spine inner = spineOf(fi->body());
  if (!isPrim(inner.head, Prim::Map) || !inner.depArgs.empty() || inner.args.size() != 2 ||
      inner.args[0]->kind() != ExprKind::Lambda || occursFree(fi->name(), inner.args[1]))
    return std::nullopt;
  const Expr& fj = inner.args[0];
  Spine r = spineOf(fj->body());
  if (!(isPrim(r.head, Prim::Reduce) || isPrim(r.head, Prim::ReduceSeq)) || !r.depArgs.empty() ||
      r.args.size() != 3)
    return std::nullopt;
  for (const std::string& x : {fi->name(), fj->name()})
    if (occursFree(x, r.args[0]) || occursFree(x, r.args[1]))
      return std::nullopt;
  Spine z = spineOf(r.args[2]);
  if (!isPrim(z.head, Prim::Zip) || z.args.size() != 2 || z.args[0]->kind() != ExprKind::Var ||
      z.args[0]->name() != fi->name() || z.args[1]->kind() != ExprKind::Var ||
      z.args[1]->name() != fj->name())
    return std::nullopt;
  const Expr &rs = outer.args[1], &cs = inner.args[1];
  if (!isArray(rs->type()) || !isArray(rs->type()->elem()) || !isArray(cs->type()) ||
      !isArray(cs->type()->elem()))
    return std::nullopt;
  return DotTile{r.head, r.args[0], r.args[1], rs, cs};
}

/// map(fun(i => map(fun(j => reduce(op)(init)(zip(i)(j))))(cs)))(rs)
///   (rs: ty.k.s, cs: tx.k.t; also reduceSeq)
///   -> zip(S)(rs) |> map(fun(p => zip(fst(p))(cs) |> map(fun(q =>
///        reduce(op)(fst(q))(zip(drop(K)(snd(p)))(drop(K)(snd(q))))))))
/// with K = kt*(k/kt) and S the reduction over the K/kt pairs of tiles
///   zip(split(kt)(take(K)(transpose(rs))))(split(kt)(take(K)(transpose(cs))))
///   |> reduceSeq(fun(acc, t =>
///        let(toMem(copy(A(fst(t)))))(fun(va => let(toMem(copy(B(snd(t)))))(fun(vb =>
///          zip(acc)(A'(va)) |> map(fun(p => zip(fst(p))(B'(vb)) |> map(fun(q =>
///            reduce(op)(fst(q))(zip(snd(p))(snd(q)))))))))))
///     (map(fun(i => map(fun(j => init))(cs)))(rs))
/// The tiles are stored in the order ta (of rs's tiles) and tb (of cs's): 1,
/// row order (ty.kt, A = transpose, A' = id: a copy that reads the rows of
/// rs), 2, column order (kt.ty, as split gives it: A = id, A' = transpose; a
/// copy that reads along the columns of rs, the rows of B when cs is
/// transpose(B)). Element (i, j) folds op over the same products in the
/// same order on both sides: exact for any op.
RuleFn stageTiles(std::int64_t kt, std::int64_t ta, std::int64_t tb) {
  return [kt, ta, tb](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    if (kt < 1 || ta < 1 || ta > 2 || tb < 1 || tb > 2)
      return std::nullopt;
    auto t = dotTile(e);
    if (!t)
      return std::nullopt;
    NameSupply& names = ctx.names;
    Nat k = t->rs->type()->elem()->size();
    Nat whole = wholeMultiple(k, kt);
    auto tiles = [&](const Expr& x) {
      return app(depNat(prim(Prim::Split), kt),
                 app(depArg(prim(Prim::Take), whole), transposeOf(x)));
    };
    // order 1: the tile stored in row order (ty.kt), 2: in column order (kt.ty)
    auto store = [&](const Expr& tile, std::int64_t order) {
      return app(prim(Prim::ToMem), copy2(names, order == 2 ? tile : transposeOf(tile)));
    };
    auto rows = [](const Expr& stored, std::int64_t order) {
      return order == 2 ? transposeOf(stored) : stored;
    };
    auto dots = [&](const Expr& accs, const Expr& as, const Expr& bs,
                    const std::function<Expr(const Expr&)>& part) {
      return nest2(
          names, zipOf(accs, as), [&](const Expr& p) { return zipOf(fstOf(p), bs); },
          [&](const Expr& p, const Expr& q) {
            return app(t->head, t->op, fstOf(q), zipOf(part(sndOf(p)), part(sndOf(q))));
          });
    };
    std::string acc = names.fresh("acc"), tp = names.fresh("tiles"), va = names.fresh("tileA"),
                vb = names.fresh("tileB");
    Expr update =
        dots(var(acc), rows(var(va), ta), rows(var(vb), tb), [](const Expr& row) { return row; });
    Expr op = lam(
        acc,
        lam(tp, app(prim(Prim::Let), store(fstOf(var(tp)), ta),
                    lam(va, app(prim(Prim::Let), store(sndOf(var(tp)), tb), lam(vb, update))))));
    Expr init = nest2(
        names, t->rs, [&](const Expr&) { return t->cs; },
        [&](const Expr&, const Expr&) { return t->init; });
    Expr staged = app(prim(Prim::ReduceSeq), op, init, zipOf(tiles(t->rs), tiles(t->cs)));
    return dots(staged, t->rs, t->cs,
                [&](const Expr& row) { return app(depArg(prim(Prim::Drop), whole), row); });
  };
}

/// map(f)(x) (x: n.m.t, any map flavour)
///   -> map(f)(transpose(toMem(map(fun(r => map(fun(c => c))(r)))(transpose(x)))))
/// The same elements in the same order: x read through a stored copy of its
/// transpose, which the copy nest fills in the order of transpose(x).
std::optional<Expr> stageTransposed(const Expr& e, RuleContext& ctx) {
  Spine s = spineOf(e);
  if (!s.head || s.head->kind() != ExprKind::Primitive || !isMapLike(s.head->prim()) ||
      s.args.size() != 2 || !isArray(s.args[1]->type()) || !isArray(s.args[1]->type()->elem()))
    return std::nullopt;
  Expr stored = app(prim(Prim::ToMem), copy2(ctx.names, transposeOf(s.args[1])));
  return rebuild(s.head, s.depArgs, {s.args[0], transposeOf(stored)});
}

Expr padClampBy(const Nat& n, std::int64_t w) {
  Nat padding = paddingToMultiple(n, w);
  return depArg(depNat(prim(Prim::PadClamp), 0), padding);
}

/// map(map(f))(x) (x: m.n.t; also map(fun(r => map(f)(r))))
///   -> take(m)(transpose(take(n)(transpose(map(map(f))(X)))))
/// with X = padClamp(0, px)(map(padClamp(0, py))(x)) padded to x*(..) rows
/// and y*(..) columns by repeating the last row and column, and when x is
/// transpose(z), X = transpose(padClamp(0, py)(map(padClamp(0, px))(z))) (the
/// same elements, z's rows padded: its transpose stays a transpose). Element
/// (i, j) < (m, n) of both sides is f(x[i][j]).
RuleFn padNest(std::int64_t tx, std::int64_t ty) {
  return [tx, ty](const Expr& e, RuleContext&) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (tx < 1 || ty < 1 || !isPrim(s.head, Prim::Map) || !s.depArgs.empty() ||
        s.args.size() != 2 || !isArray(s.args[1]->type()) || !isArray(s.args[1]->type()->elem()))
      return std::nullopt;
    const Expr& f = s.args[0];
    bool nested =
        isCall(f, Prim::Map, 1) ||
        (f->kind() == ExprKind::Lambda && isCall(f->body(), Prim::Map, 2) &&
         f->body()->arg()->kind() == ExprKind::Var && f->body()->arg()->name() == f->name() &&
         !occursFree(f->name(), f->body()->fn()));
    if (!nested)
      return std::nullopt;
    const Expr& x = s.args[1];
    Nat m = x->type()->size(), n = x->type()->elem()->size();
    Expr padded;
    if (isCall(x, Prim::Transpose, 1) && isArray(x->arg()->type()) &&
        isArray(x->arg()->type()->elem()))
      padded =
          transposeOf(app(padClampBy(n, ty), app(prim(Prim::Map), padClampBy(m, tx), x->arg())));
    else
      padded = app(padClampBy(m, tx), app(prim(Prim::Map), padClampBy(n, ty), x));
    Expr result = app(prim(Prim::Map), f, padded);
    Expr cols = transposeOf(app(depArg(prim(Prim::Take), n), transposeOf(result)));
    return app(depArg(prim(Prim::Take), m), cols);
  };
}

/// reduceSeq(op)(init) -> oclReduceSeq(a)(op)(init)
RuleFn reduceSeqToOcl(AddrSpace space) {
  return [space](const Expr& e, RuleContext&) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (!isPrim(s.head, Prim::ReduceSeq) || !s.depArgs.empty() || s.args.empty())
      return std::nullopt;
    return withHead(s, Prim::OclReduceSeq, {space});
  };
}

} // namespace

void registerOpenClTilingRules(RuleRegistry& r) {
  r.add(RuleInfo{
      "stageTiles",
      "tiling",
      {ParamKind::Int, ParamKind::Int, ParamKind::Int},
      "map(fun(i => map(fun(j => reduce(op)(init)(zip(i)(j))))(cs)))(rs)   (rs: ty.k.s, cs: "
      "tx.k.t; op, init independent of i, j; also reduceSeq)",
      "zip(S)(rs) |> map(fun(p => zip(fst(p))(cs) |> map(fun(q => reduce(op)(fst(q))(zip(drop(K)"
      "(snd(p)))(drop(K)(snd(q)))))))),  S = zip(split(kt)(take(K)(transpose(rs))))(split(kt)"
      "(take(K)(transpose(cs)))) |> reduceSeq(fun(acc, t => let(toMem(copy(A(fst(t)))))(fun(va "
      "=> let(toMem(copy(B(snd(t)))))(fun(vb => zip(acc)(A'(va)) |> map(fun(p => zip(fst(p))"
      "(B'(vb)) |> map(fun(q => reduce(op)(fst(q))(zip(snd(p))(snd(q)))))))))))(map(fun(i => "
      "map(fun(j => init))(cs)))(rs)),  K = kt*(k/kt); the tiles of rs stored in the order "
      "ta, those of cs in the order tb: 1, row order (ty.kt: A = transpose, A' = id), 2, column "
      "order (kt.ty: A = id, A' = transpose); the last k % kt products added from rs and cs",
      [](const std::vector<RuleArg>& a) {
        return stageTiles(intArg(a, 0), intArg(a, 1), intArg(a, 2));
      }});
  r.add(simpleRule("stageTransposed", "tiling", "map(f)(x)   (x: n.m.t; any map flavour)",
                   "map(f)(transpose(toMem(map(fun(r => map(fun(c => c))(r)))(transpose(x)))))",
                   stageTransposed));
  r.add(
      RuleInfo{"padNest",
               "tiling",
               {ParamKind::Int, ParamKind::Int},
               "map(map(f))(x)   (x: m.n.t)",
               "take(m)(transpose(take(n)(transpose(map(map(f))(padClamp(0, x*((m+x-1)/x) - "
               "m)(map(padClamp(0, y*((n+y-1)/y) - n))(x)))))))   (the padding inside when x "
               "is transpose(z): transpose(padClamp(..)(map(padClamp(..))(z))))",
               [](const std::vector<RuleArg>& a) { return padNest(intArg(a, 0), intArg(a, 1)); }});
  r.add(RuleInfo{
      "reduceSeqToOcl",
      "lowering",
      {ParamKind::AddrSpace},
      "reduceSeq(op)(init)",
      "oclReduceSeq(a)(op)(init)",
      [](const std::vector<RuleArg>& a) { return reduceSeqToOcl(std::get<AddrSpace>(a.at(0))); }});
}

} // namespace risec::rules
