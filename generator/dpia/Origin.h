// The RISE primitive an imperative command was made from, kept as data on
// the command (PhraseNode::origin): the map behind a parallel loop
// (`mapLocal` and its dimension), the primitive behind a `new` (`toLocal`,
// `oclReduceSeq`'s accumulator). Back ends read it instead of parsing a
// loop's tag or the source text at the command's location.
#pragma once

#include "rise/ast/Primitive.h"
#include "rise/nat/Nat.h"

#include <optional>

namespace risec::dpia {

struct Origin {
  /// The RISE primitive; none for a command the translation made on its own.
  std::optional<rise::Prim> prim;
  /// mapGlobal/mapWorkGroup/mapLocal(d): d as translated; null otherwise.
  rise::Nat dim;
};

} // namespace risec::dpia
