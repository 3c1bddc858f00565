#include "rules/VectorReduceRows.h"

#include "rules/VectorReduction.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// A reduction of the row `v` with a shared operand, found in a map's body.
struct RowReduction {
  Reduction red;
  std::size_t rowSide = 0; ///< which of the two zipped arrays is the row's
};

/// Replaces the first vectorisable reduction of the row `v` (zip of a view of
/// v with an array not using v) reachable through applications by `hole`.
Expr cutOut(const Expr& e, const std::string& v, const std::string& hole,
            std::optional<RowReduction>& found, RuleContext& ctx) {
  if (found)
    return e;
  if (e->kind() == ExprKind::App) {
    if (auto red = matchReduction(e, ctx); red && red->arrays.size() == 2) {
      bool in0 = occursFree(v, red->arrays[0]), in1 = occursFree(v, red->arrays[1]);
      if (in0 != in1) {
        found = RowReduction{*red, in0 ? 0u : 1u};
        return var(hole);
      }
    }
    Expr fn = cutOut(e->fn(), v, hole, found, ctx);
    Expr arg = cutOut(e->arg(), v, hole, found, ctx);
    return found ? app(fn, arg) : e;
  }
  if (e->kind() == ExprKind::DepApp) {
    Expr fn = cutOut(e->fn(), v, hole, found, ctx);
    return found ? depArg(fn, e->typeArg()) : e;
  }
  return e;
}

/// The two arrays of the reduction with the row's one taken from `row`.
std::vector<Expr> arraysOf(const RowReduction& rr, const std::string& v, const Expr& row,
                           RuleContext& ctx) {
  std::vector<Expr> arrays = rr.red.arrays;
  arrays[rr.rowSide] = substitute(arrays[rr.rowSide], v, row, ctx.names);
  return arrays;
}

/// The vector sums of the rows of `grp` (r rows): one loop over the column
/// blocks updating every row's k accumulators (the shared operand's block is
/// the same for all rows), then each row's lanes.
Expr groupSums(const RowReduction& rr, const std::string& v, const Expr& grp, const Nat& len,
               std::int64_t w, std::int64_t k, RuleContext& ctx) {
  const Reduction& red = rr.red;
  // The blocks of k vectors of every row of the group, block-major.
  std::string row = ctx.names.fresh("row");
  Expr rowBlocks = lam(row, app(depNat(prim(Prim::Split), k),
                                viewOfArrays(arraysOf(rr, v, var(row), ctx), Prim::Take, len, w)));
  Expr blocks = app(prim(Prim::Transpose), app(prim(Prim::Map), rowBlocks, grp));
  // One step: every row's k accumulators by the row's block.
  std::string accs = ctx.names.fresh("accs"), c = ctx.names.fresh("c"), ra = ctx.names.fresh("ra");
  Expr perRow =
      lam(ra, vectorUpdate(red, app(prim(Prim::Fst), var(ra)), app(prim(Prim::Snd), var(ra)), ctx));
  Expr step = lam(
      accs, lam(c, app(prim(Prim::MapSeqUnroll), perRow, app(prim(Prim::Zip), var(accs), var(c)))));
  std::string i = ctx.names.fresh("rowIndex");
  Expr zeros = app(prim(Prim::Generate), lam(i, vectorZeros(red, ctx)));
  Expr accumulated = app(prim(Prim::ReduceSeq), step, zeros, blocks);
  std::string racc = ctx.names.fresh("racc");
  return app(prim(Prim::MapSeqUnroll), lam(racc, laneSum(red, k, var(racc), ctx)), accumulated);
}

} // namespace

RuleFn vectorReduceRows(std::int64_t r, std::int64_t w, std::int64_t k) {
  return [r, w, k](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (r < 1 || w < 1 || k < 1 || !isPrim(s.head, Prim::Map) || s.args.size() != 2 ||
        !s.depArgs.empty())
      return std::nullopt;
    const Expr& f = s.args[0];
    const Expr& rows = s.args[1];
    if (f->kind() != ExprKind::Lambda || !rows->type() || rows->type()->kind() != TypeKind::Array ||
        !isView(rows))
      return std::nullopt;
    const std::string& v = f->name();
    std::string hole = ctx.names.fresh("rowSum");
    std::optional<RowReduction> found;
    Expr body = cutOut(f->body(), v, hole, found, ctx);
    if (!found)
      return std::nullopt;
    const Reduction& red = found->red;

    Nat nRows = natConst(r) * (rows->type()->size() / r);
    Nat len = natConst(w * k) * (red.length / (w * k));
    std::string grp = ctx.names.fresh("rows");
    Expr sums = groupSums(*found, v, var(grp), len, w, k, ctx);
    // Each row: its tail added to its vector sum, in the original body.
    std::string p = ctx.names.fresh("p");
    Expr rowOfP = app(prim(Prim::Fst), var(p));
    Expr tail = app(prim(Prim::ReduceSeq), scalarStep(red, ctx), app(prim(Prim::Snd), var(p)),
                    viewOfArrays(arraysOf(*found, v, rowOfP, ctx), Prim::Drop, len));
    Expr rowBody = substitute(substitute(body, v, rowOfP, ctx.names), hole, tail, ctx.names);
    Expr group = app(prim(Prim::MapSeqUnroll), lam(p, rowBody),
                     app(prim(Prim::Zip), var(grp), app(prim(Prim::ToMem), sums)));
    Expr groups =
        app(prim(Prim::Map), lam(grp, group),
            app(depNat(prim(Prim::Split), r), app(depArg(prim(Prim::Take), nRows), rows)));
    Expr rest = app(prim(Prim::Map), f, app(depArg(prim(Prim::Drop), nRows), rows));
    return app(prim(Prim::Concat), app(prim(Prim::Join), groups), rest);
  };
}

} // namespace risec::rules
