// The RISE primitive an imperative command was made from, kept as data on
// the command (PhraseNode::origin): the map behind a parallel loop
// (`mapLocal` and its dimension), the primitive behind a `new` (`toLocal`,
// `oclReduceSeq`'s accumulator) and what the temporary is to it (its role:
// the stored value, an accumulator, a double buffer). Back ends read it
// instead of parsing a loop's tag, a temporary's name or the source text at
// the command's location.
#pragma once

#include "rise/ast/Primitive.h"
#include "rise/nat/Nat.h"

#include <cstdint>
#include <optional>

namespace risec::dpia {

/// What a `new` holds for the primitive that made it: set where the
/// translation makes the temporary (dpia/primitives/*.cpp), read by the
/// back ends' messages (codegen/opencl/Temporaries.h).
enum class TempRole : std::uint8_t {
  Value,        ///< the stored value itself (toMem, toLocal, oclToMem(a), lowerToC's copies)
  Accumulator,  ///< a reduction's or scan's accumulator (reduceSeq, oclReduceSeq, reducePar)
  DoubleBuffer, ///< one of iterate's two buffers (iterate, oclIterate(a))
  Buffer,       ///< the values of a window buffer (circularBuffer, rotateValues)
};

struct Origin {
  /// The RISE primitive; none for a command the translation made on its own.
  std::optional<rise::Prim> prim;
  /// mapGlobal/mapWorkGroup/mapLocal(d): d as translated; null otherwise.
  rise::Nat dim;
  /// A `new`: what it holds for `prim` (also when the translation made it
  /// on its own, as reducePar's accumulator).
  TempRole role = TempRole::Value;
};

} // namespace risec::dpia
