// Lifting scalar arithmetic to SIMD vectors: the body of a scalar function of
// `x` rewritten so that it computes on vec[s, n] lanes (`x` a vector, or a
// pair of vectors read with fst/snd). Used by `vectorize` (a map over vectors)
// and by `vectorReduce` (the accumulation of a reduction over vectors).
#pragma once

#include "rules/RiseUtil.h"

namespace risec::rules {

/// The scalar primitives that also apply lane-wise to vectors.
bool liftableToVector(Prim p);

/// The projection path of `e` from `x` ("" for x, "sf" for fst(snd(x))), if
/// `e` is x or fst/snd applied to it.
std::optional<std::string> projectionPath(const Expr& e, const std::string& x);

/// The body `e` of a scalar function of `x`, lifted to vectors: literals and
/// free scalars become `vectorFromScalar(...)`; nothing if `e` uses anything
/// but liftable primitives, `x`, its projections (`fst(x)`, `snd(fst(x))`,
/// ...: pairs of vectors) and scalars.
std::optional<Expr> liftToVector(const Expr& e, const std::string& x);

} // namespace risec::rules
