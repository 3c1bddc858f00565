// The reductions of a map's rows on OpenCL, one work-group per row
// (docs/strategies.md, "Row reductions in a work-group"):
// reduceInWorkGroup(local) turns
//   map(fun(v => B[reduce(op)(init)(map(f)(ys))]))(rows)
// (ys a view of the row v, the reduction reachable from the body through
// applications: BENF first) into a mapWorkGroup(0) over the rows whose
// reduction is computed by the work-group's `local` work-items:
//   1. work-item l reduces the elements l, l + local, l + 2*local, ... of the
//      first local*(m/local) into a private accumulator (strided: neighbouring
//      work-items read neighbouring elements, coalesced on a GPU);
//   2. the `local` partials go into local memory (toLocal, with the barrier
//      the back end inserts) and are summed there, then the last m % local
//      elements; every work-item of the group computes the same sum (and B of
//      it), so one kernel suffices: no second phase.
// As for reduceToWorkGroups, the elements are combined in another order: op
// must be associative and commutative with init its neutral element (add
// with 0, mul with 1, max/min with any literal), on floats.
#include "rules/Rule.h"
#include "rules/VectorReduction.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// A reduction of the row found in a map's body.
struct RowReduce {
  Expr op, init;
  std::vector<Expr> fs; ///< the maps computing the elements, outermost first
  Expr ys;              ///< the array under them
  SourceLocation loc;
};

/// `reduce(op)(init)(map(f)...(ys))` with op and init as reduceToWorkGroups
/// needs them, ys an array that uses the row `v`.
std::optional<RowReduce> matchRowReduce(const Expr& e, const std::string& v) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Reduce) || !s.depArgs.empty() || s.args.size() != 3)
    return std::nullopt;
  const Expr &op = s.args[0], &init = s.args[1];
  std::optional<Prim> p = binaryPrim(op);
  if (!p || !laneInit(*p, init) || !isArray(s.args[2]->type()) || !occursFree(v, s.args[2]))
    return std::nullopt;
  RowReduce r{op, init, {}, s.args[2], e->loc()};
  for (Spine m = spineOf(r.ys); isPrim(m.head, Prim::Map) && m.depArgs.empty() &&
                                m.args.size() == 2 && isArray(m.args[1]->type());
       m = spineOf(r.ys)) {
    r.fs.push_back(m.args[0]);
    r.ys = m.args[1];
  }
  return r;
}

/// Replaces the first row reduction reachable through applications by `hole`.
Expr cutOut(const Expr& e, const std::string& v, const std::string& hole,
            std::optional<RowReduce>& found) {
  if (found)
    return e;
  if (e->kind() == ExprKind::App) {
    if (auto r = matchRowReduce(e, v)) {
      found = std::move(r);
      return var(hole);
    }
    Expr fn = cutOut(e->fn(), v, hole, found);
    Expr arg = cutOut(e->arg(), v, hole, found);
    return found ? app(fn, arg) : e;
  }
  if (e->kind() == ExprKind::DepApp) {
    Expr fn = cutOut(e->fn(), v, hole, found);
    return found ? depArg(fn, e->typeArg()) : e;
  }
  return e;
}

/// The work-group's reduction of r.ys:
///   reduceSeq(op)(reduceSeq(op)(init)(toLocal(
///     ys |> take(W) |> split(local) |> transpose
///        |> mapLocal(0)(fun(c => reduceSeq(op)(init)(map(f)(c)))))))
///   (map(f)(drop(W)(ys)))      W = local*(m/local); no tail where local divides m
Expr groupReduce(const RowReduce& r, std::int64_t local, RuleContext& ctx) {
  auto mapped = [&](Expr x) {
    for (auto it = r.fs.rbegin(); it != r.fs.rend(); ++it)
      x = app(prim(Prim::Map), *it, x);
    return x;
  };
  auto reduceSeq = [&](Expr from, Expr over) {
    return app(prim(Prim::ReduceSeq), r.op, std::move(from), std::move(over));
  };
  Nat m = r.ys->type()->size();
  Nat whole = wholeMultiple(m, local);
  Expr columns = app(prim(Prim::Transpose), app(depNat(prim(Prim::Split), local),
                                                app(depArg(prim(Prim::Take), whole), r.ys)));
  std::string c = ctx.names.fresh("col");
  Expr partials =
      app(depNat(prim(Prim::MapLocal), 0), lam(c, reduceSeq(r.init, mapped(var(c)))), columns);
  // the temporary at the reduction's location, for the kernel's comments
  Expr toLocal = rise::makePrimitive(Prim::ToLocal, r.loc);
  Expr result = reduceSeq(r.init, app(toLocal, partials));
  if (!(m - whole)->isConst(0))
    result = reduceSeq(result, mapped(app(depArg(prim(Prim::Drop), whole), r.ys)));
  return result;
}

RuleFn reduceInWorkGroup(std::int64_t local) {
  return [local](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (local < 1 || !isPrim(s.head, Prim::Map) || !s.depArgs.empty() || s.args.size() != 2)
      return std::nullopt;
    const Expr& f = s.args[0];
    const Expr& rows = s.args[1];
    if (f->kind() != ExprKind::Lambda || !isArray(rows->type()))
      return std::nullopt;
    const std::string& v = f->name();
    std::string hole = ctx.names.fresh("rowSum");
    std::optional<RowReduce> found;
    Expr body = cutOut(f->body(), v, hole, found);
    if (!found)
      return std::nullopt;
    Expr perRow = lam(v, substitute(body, hole, groupReduce(*found, local, ctx), ctx.names));
    return app(depNat(prim(Prim::MapWorkGroup), 0), perRow, rows);
  };
}

} // namespace

void registerReduceInWorkGroupRules(RuleRegistry& r) {
  r.add(RuleInfo{
      "reduceInWorkGroup",
      "lowering",
      {ParamKind::Int},
      "map(fun(v => B[reduce(op)(init)(map(f)(ys))]))(rows)   (ys: m.t uses v, any number of "
      "maps; the reduction reachable from the body through applications; op add with 0, mul "
      "with 1, or max/min: associative, commutative, init neutral)",
      "mapWorkGroup(0)(fun(v => B[reduceSeq(op)(reduceSeq(op)(init)(toLocal(ys |> take(w) |> "
      "split(l) |> transpose |> mapLocal(0)(fun(c => reduceSeq(op)(init)(map(f)(c)))))))("
      "map(f)(drop(w)(ys)))]))(rows)   (l = local, w = l*(m/l); no drop where l divides m; one "
      "work-group per row, work-item i reads i, i + l, ...)",
      [](const std::vector<RuleArg>& a) { return reduceInWorkGroup(intArg(a, 0)); }});
}

} // namespace risec::rules
