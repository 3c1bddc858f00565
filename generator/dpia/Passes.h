// Imperative DPIA passes (pipeline stage "imperative", after accT/conT):
//   - unrollLoops: `mapSeqUnroll` / `reduceSeqUnroll` loops with a small
//     constant trip count become one copy of the body per index, the index
//     substituted and every index expression re-simplified;
//   - hoistAllocations: allocations the back end places on the heap move to
//     the top of the program (allocated once, before any loop; freed at the
//     end), which requires their size not to depend on a loop index.
// Index simplification itself is the Nat normal form: every Nat is built by
// the simplifying constructors, and loop indices carry their range [0, n).
#pragma once

#include "dpia/Program.h"

#include <functional>
#include <vector>

namespace risec::dpia {

/// Largest trip count that is unrolled.
constexpr std::int64_t kMaxUnroll = 64;

Phrase unrollLoops(const Phrase& command);

struct HoistedAllocation {
  Phrase var;      ///< the `new` variable (Exp x Acc pair identifier)
  rise::Type type; ///< its data type
  std::string name;
  /// The id of the index of the innermost parallel loop (dpia/Parallel.h)
  /// the allocation was inside; 0 if none. Such a temporary is private to
  /// each iteration: the back end gives every thread its own copy.
  std::uint64_t parallelLoop = 0;
  Phrase command;                    ///< the `new` (its address space and RISE location)
  std::vector<Phrase> parallelLoops; ///< the enclosing parallel loops, outermost first
};

/// Removes every `new` for which `hoist(dataType)` holds from `command` and
/// returns them in `out` (outermost first). Throws InternalError if such an
/// allocation's size depends on a variable bound inside the command.
Phrase hoistAllocations(const Phrase& command, const std::function<bool(const rise::Type&)>& hoist,
                        std::vector<HoistedAllocation>& out);
/// The same, deciding on the `new` command itself (e.g. its address space).
Phrase hoistAllocationsIf(const Phrase& command, const std::function<bool(const Phrase&)>& hoist,
                          std::vector<HoistedAllocation>& out);

} // namespace risec::dpia
