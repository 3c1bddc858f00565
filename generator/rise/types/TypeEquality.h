// Structural type equality with a caller's equality of sizes (typeEqual uses
// natEqual; rise/infer/EqualUnderPreconditions.h one that assumes a def's
// size preconditions).
#pragma once

#include "rise/types/Type.h"

#include <functional>

namespace risec::rise {

/// Whether two sizes are equal: `a` with the bound variables of the first
/// type renamed to those of the second, `b` as it is in the second type.
using SizesEqual = std::function<bool(const Nat& a, const Nat& b)>;

/// typeEqual, with the sizes compared by `sizes`.
bool typeEqualBy(const Type& a, const Type& b, const SizesEqual& sizes);

} // namespace risec::rise
