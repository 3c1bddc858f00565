// lowerToC: the lowering stage, between the rewrite rules (generator/rules)
// and DPIA (docs/dpia.md, "1. lowerToC"; docs/architecture.md). It is the
// fixed pass that compileToC runs after the strategy, and the rule `lowerToC`
// of the strategy language (lower/LowerRule.h; docs/strategies.md, "Rules"):
//   0. a `map` whose function computes (a reduction, ...) and that zips hand
//      element by element to a sequential map is computed in that loop
//      (`zip(map(f)(a), b) |> mapSeq(g)` -> `zip(a, b) |> mapSeq(fun(p =>
//      g(makePair(f(fst(p)), snd(p)))))`), instead of being stored whole;
//   1. every remaining choice of implementation is made sequentially:
//      map, mapPar, mapGlobal/mapWorkGroup/mapLocal -> mapSeq;
//      reduce, reducePar, oclReduceSeq -> reduceSeq;
//      toGlobal/toLocal/toPrivate/oclToMem -> toMem (C has one address space);
//   2. the copies DPIA needs are inserted, found by the access analysis
//      (lower/AccessAnalysis.h, from the read/write facts of the primitive
//      table; no DPIA translation): `toMem` where a written result is read,
//      and an explicit copy `mapSeq(fun(x => x))` (nested per array
//      dimension) where a view of memory must be written; repeated until
//      nothing is missing (at most 8 rounds);
//   For the OpenMP target (LowerTarget::OpenMP) `mapPar` and `reducePar` are
//   kept: they are the parallel loops of the OpenMP back end; every other
//   choice is made as for C. For the OpenCL target (LowerTarget::OpenCL)
//   mapGlobal/mapWorkGroup/mapLocal, oclReduceSeq and the address-space
//   choices toGlobal/toLocal/toPrivate/oclToMem are kept (docs/dpia.md,
//   "OpenCL"); the copies lowerToC inserts are `toMem` (private memory);
//   every other choice is made as for C.
//   3. the result is type-checked again (re-inferred from its AST,
//      rules::retype); a failure is a bug in the pass (InternalError).
#pragma once

#include "rise/ast/Expr.h"
#include "rise/infer/Infer.h"
#include "rules/Rule.h"

namespace risec::lower {

/// The back end the lowering is for: the strategy language's (a strategy's
/// `lowerToC` lowers for the back end it is applied for).
using LowerTarget = rules::Backend;

/// Lowers the typed def `def` of `program` for the C (or OpenMP) target.
rise::TypedDef lowerToC(const rise::Program& program, const rise::TypedDef& def,
                        LowerTarget target = LowerTarget::C);

} // namespace risec::lower
