// Type equality under a def's size preconditions.
//
// A rewrite that introduces `split(32)` gives a size as `32*(m/32)`, which is
// `m` only where the new precondition `m%32 == 0` holds. The rewrite engine
// (and the strategy fuzzer) accept such a type only where the preconditions
// prove it equal to the original one: each equation is solved for one of its
// size variables (m := 32*m' for `m%32 == 0`, n := k + 2 for `n - k == 2`)
// and the two types are compared after substituting the solutions.
#pragma once

#include "rise/infer/Infer.h"

namespace risec::rise {

/// Whether `a` equals `b` (up to renaming of bound variables, as typeEqual)
/// for every choice of sizes that meets the `==` preconditions in `pre`,
/// which refer to the size variables bound in `a`. Sound, not complete: an
/// equation of a form it cannot solve for a variable is not used, so the
/// answer is then false.
bool typeEqualUnder(const Type& a, const Type& b, const std::vector<Precondition>& pre);

} // namespace risec::rise
