// The interpreter on small sizes, for the RISE harness: a well-typed def with
// size parameters is evaluated at up to two size choices that meet its
// preconditions, on random inputs, when the evaluation is bounded.
#pragma once

#include "rise/infer/Infer.h"

#include <cstdint>

namespace risec::fuzz {

/// The bound on the estimated work of one evaluation (see SmallEval.cpp).
inline constexpr double kEvalBudget = 2e6;

/// Evaluates `def` as above. The interpreter's run-time errors (E04xx) are
/// user diagnostics; anything else it throws is a finding. Defs without size
/// parameters, with foreign functions, inputs that are not data (functions,
/// type variables) or too much estimated work are not evaluated.
void evaluateOnSmallSizes(const rise::TypedDef& def, std::uint64_t seed);

} // namespace risec::fuzz
