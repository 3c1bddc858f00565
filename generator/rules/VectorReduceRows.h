// vectorReduceRows(r, w, k): the reductions of r rows at a time in one loop.
//
//   map(fun(v => B[reduce(op)(init)(map(f)(zip(a(v), b)))]))(rows)
//   ->
//   concat(
//     rows |> take(R) |> split(r) |> map(fun(grp =>
//       zip(grp, toMem(
//         grp |> map(fun(row => zip(asVector(w)(take(K)(a(row))), asVector(w)(take(K)(b)))
//                                |> split(k)))
//             |> transpose
//             |> reduceSeq(fun(accs, c => zip(accs, c) |> mapSeqUnroll(fun(ra =>
//                  <vectorUpdate of fst(ra) by snd(ra)>))), <r x k zero vectors>)
//             |> mapSeqUnroll(<lane sum of one row's k accumulators>)))
//       |> mapSeqUnroll(fun(p => B[v := fst(p)][reduce... := <the row's last
//            n - K elements added to snd(p) one by one>])))
//     |> join,
//     rows |> drop(R) |> map(fun(v => B[...])))
//   with R = r*(N/r), K = w*k*(n/(w*k)); b (not depending on v) is loaded once
//   per block for all r rows, and r*k accumulators are updated per block: r
//   rows are read at the same time (memory-level parallelism of a
//   matrix-vector product). The reduction must be reachable from the body
//   through applications only (BENF first); the rows left over keep the
//   original map (vectorReduce turns their reduction into the vector form).
#pragma once

#include "rules/Rule.h"

namespace risec::rules {

RuleFn vectorReduceRows(std::int64_t r, std::int64_t w, std::int64_t k);

} // namespace risec::rules
