// Parallel loops of imperative DPIA (the OpenMP back end, docs/dpia.md
// "OpenMP"). They are made by the OpenMP primitives `mapPar` and `reducePar`
// (dpia/primitives/Parallel.cpp) and printed by the OpenMP flavour of the C
// back end:
//   parFor(n, i, body)                  every iteration independent
//                                       -> `#pragma omp parallel for`
//   parForReduce(n, i, body, acc) op    body is `acc = acc op x[i]`, op one of
//                                       + * min max on a scalar
//                                       -> `... reduction(op:acc)`
//   parForCombine(n, i, step, first, combine, part)
//                                       any other operator: per-chunk partial
//                                       results combined in chunk order
// The OpenCL primitives mapGlobal/mapWorkGroup/mapLocal(d) are parFor loops
// too, tagged `mapGlobal(d)` etc. and with that origin (dpia/Origin.h); the
// OpenCL back end prints them as grid-stride loops (docs/dpia.md, "OpenCL").
// Each carries its loop index and trip count like `for` (forIndex, forCount).
#pragma once

#include "dpia/Phrase.h"

#include <functional>
#include <string>

namespace risec::dpia {

/// `parFor(n, fun(i => body))`; `tag` names the RISE primitive for
/// comments (`mapLocal(0)`), `origin` is the same as data.
Phrase parFor(const rise::Nat& n, const std::function<Phrase(const Phrase& i)>& body,
              const std::string& tag, Origin origin = {});

/// `parForReduce(n, fun(i => body), acc)` with the OpenMP reduction operator
/// `op` (`+`, `*`, `min`, `max`); `acc` is the (Exp x Acc) variable.
Phrase parForReduce(const rise::Nat& n, const std::function<Phrase(const Phrase& i)>& body,
                    const Phrase& acc, const std::string& op);

/// The explicit combine of a reduction. `part` is a fresh (Exp x Acc)
/// variable holding one chunk's partial result; `first(i)` sets it to the
/// chunk's first element i, `step(i)` adds element i to it, `combine` adds
/// it to the result.
Phrase parForCombine(const rise::Nat& n, const std::function<Phrase(const Phrase& i)>& step,
                     const std::function<Phrase(const Phrase& i)>& first, const Phrase& combine,
                     const Phrase& part);

/// Whether `c` is one of the parallel loops above.
bool isParallelLoop(const Phrase& c);
/// Whether `c` is a loop (`for` or a parallel loop).
bool isLoop(const Phrase& c);

} // namespace risec::dpia
