// Vectorised reductions: `reduce(op)(init)(map(f)(xs))` or `reduce(op)(init)(xs)`
// (op add with 0, mul with 1, or max/min with any literal: max and min are
// idempotent, so `init` may start every lane; f scalar arithmetic) computed with k independent
// vector accumulators of w lanes over the longest prefix of xs whose length is a multiple of w*k,
// then the lanes combined, then the remaining elements added one by one. GCC keeps the k
// accumulators (an array indexed with constants only, thanks to mapSeqUnroll) in registers and
// issues k independent vector FMAs per iteration; a single accumulator would be bound by the FMA
// latency.
//
//   vectorReduce(w, k):
//     drop(K)(xs) |> reduceSeq(fun(acc, y => op(acc)(f(y))))(
//       asVector(w)(take(K)(xs)) |> split(k)
//         |> reduceSeq(fun(accs, blk => zip(accs, blk)
//                          |> mapSeqUnroll(fun(q => op(fst(q))(f'(snd(q)))))),
//                      generate(fun(i => vectorFromScalar(init))))
//         |> split(k) |> mapSeqUnroll(reduceSeqUnroll(op)(vectorFromScalar(init)))
//         |> asScalar |> reduceSeqUnroll(op)(init))
//   where K = w*k*(n/(w*k)) and f' is f lifted to vectors.
//
//   vectorReduceChunks(w, k, c): the same vector prefix cut into chunks of c
//   blocks (K = w*k*c*(n/(w*k*c))), one partial sum per chunk in a `map`
//   (made parallel by `parallel`), the partial sums added in order, and the
//   rest left as `reduce(op)(init)(map(f)(drop(K)(xs)))` for vectorReduce.
//   The chunks do not depend on the number of threads: the result is the
//   same for every thread count.
#include "rules/VectorReduceRows.h"
#include "rules/VectorReduction.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// The sum of `blocks: b.k.vec[s, w]` (or pairs of vectors) with k vector accumulators.
Expr vectorSum(const Reduction& red, std::int64_t k, const Expr& blocks, RuleContext& ctx) {
  Expr accumulated =
      app(prim(Prim::ReduceSeq), vectorStep(red, ctx), vectorZeros(red, ctx), blocks);
  return laneSum(red, k, accumulated, ctx);
}

RuleFn vectorReduce(std::int64_t w, std::int64_t k) {
  return [w, k](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    auto red = matchReduction(e, ctx);
    if (!red || w < 1 || k < 1)
      return std::nullopt;
    Nat len = natConst(w * k) * (red->length / (w * k));
    Expr blocks = app(depNat(prim(Prim::Split), k), viewOfArrays(red->arrays, Prim::Take, len, w));
    Expr prefix = vectorSum(*red, k, blocks, ctx);
    return app(prim(Prim::ReduceSeq), scalarStep(*red, ctx), prefix,
               viewOfArrays(red->arrays, Prim::Drop, len));
  };
}

RuleFn vectorReduceChunks(std::int64_t w, std::int64_t k, std::int64_t c) {
  return [w, k, c](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    auto red = matchReduction(e, ctx);
    if (!red || w < 1 || k < 1 || c < 1)
      return std::nullopt;
    Nat len = natConst(w * k * c) * (red->length / (w * k * c));
    Expr chunks =
        app(depNat(prim(Prim::Split), c),
            app(depNat(prim(Prim::Split), k), viewOfArrays(red->arrays, Prim::Take, len, w)));
    std::string ch = ctx.names.fresh("chunk");
    Expr partials = app(prim(Prim::Map), lam(ch, vectorSum(*red, k, var(ch), ctx)), chunks);
    Expr prefix = app(prim(Prim::ReduceSeq), opLambda(*red, ctx), red->init, partials);
    std::string y = ctx.names.fresh("y");
    Expr rest = app(prim(Prim::Reduce), prim(red->op), red->init,
                    app(prim(Prim::Map), lam(y, substitute(red->body, red->x, var(y), ctx.names)),
                        viewOfArrays(red->arrays, Prim::Drop, len)));
    return app(prim(red->op), prefix, rest);
  };
}

} // namespace

void registerVectorReduceRules(RuleRegistry& r) {
  r.add(vectoriseRule(
      "vectorReduce", 2,
      "map(f) >> reduce(op)(init), or reduce(op)(init)   (op add with 0, mul with 1, "
      "max or min with any literal; f scalar arithmetic)",
      "k accumulators of vec[s, w] over the first w*k*(n/(w*k)) elements, their lanes "
      "combined, then reduceSeq over the rest",
      [](const std::vector<std::int64_t>& a) { return vectorReduce(a[0], a[1]); }));
  r.add(vectoriseRule(
      "vectorReduceChunks", 3, "map(f) >> reduce(op)(init)   (as vectorReduce)",
      "op(map over chunks of c*w*k elements of vectorReduce's prefix sum >> "
      "reduceSeq(op)(init), reduce(op)(init)(map(f)(the rest)))",
      [](const std::vector<std::int64_t>& a) { return vectorReduceChunks(a[0], a[1], a[2]); }));
  r.add(vectoriseRule(
      "vectorReduceRows", 3,
      "map(fun(v => ... reduce(op)(init)(map(f)(zip(a, b))) ...))(rows)   (a a row of v, b "
      "shared)",
      "groups of r rows whose reductions share one loop of r*k vector accumulators (the loads "
      "of b shared), then the other rows as before",
      [](const std::vector<std::int64_t>& a) { return vectorReduceRows(a[0], a[1], a[2]); }));
}

} // namespace risec::rules
