// Rule 1 of the mapping constraints (private memory belongs to one
// work-item) checked on every private temporary of an OpenCL kernel, whoever
// made it: toPrivate and oclToMem(Private), the accumulators of oclReduceSeq
// and reduceSeq, the double buffers of iterate, the copies lowerToC inserts,
// circularBuffer's buffer (docs/dpia.md, "Temporaries"). The mapping rules on
// the RISE program (MappingLegality.h, E0640) see the temporaries the
// program names; this check sees the generated loops and the index of every
// access, as the C back end emits them.
//
// A private temporary exists once per work-item. Inside a grid-stride loop
// (mapGlobal, mapLocal, mapWorkGroup) that encloses an access but not the
// temporary's declaration, the work-items share the iterations, so each
// work-item only sees what it wrote itself:
//   - accessed outside such loops only: every work-item computes it whole;
//     fine;
//   - read inside such loops but never written there: every work-item reads
//     its own complete copy; fine;
//   - written inside such loops: the first such write says which grid loops
//     own which dimension of the array (`acc[i][j]` in `mapLocal(1)` over `i`
//     and `mapLocal(0)` over `j`: dimension 1 belongs to `mapLocal(1)`,
//     dimension 2 to `mapLocal(0)`). Every other access must be inside loops
//     of the same kinds and dimensions, each at its own index in the
//     dimension it owns (iteration j of every `mapLocal(0)` loop runs on the
//     same work-item); a read may be inside further grid loops (fewer
//     work-items read it), a write may not; a write outside every grid loop
//     writes the whole copy of every work-item. Otherwise E0648. This accepts
//     the private accumulators of Shine's and LIFT's gemv and nbody.
//
// Such a temporary can be distributed (Shine's idxDistribute): when no access
// is outside the grid loops, each work-item needs only the elements of its
// own iterations, element i of a dimension owned by `mapLocal(d)` at i /
// get_local_size(d), so the array shrinks to ceil(n / local size) in that
// dimension. That needs the local size at compile time (the --launch
// configuration); layouts() computes the layouts and checks the size per
// work-item against the limit for private memory (E0631).
#pragma once

#include "codegen/opencl/GridLoop.h"
#include "dpia/Phrase.h"
#include "rise/nat/Nat.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace risec::codegen::opencl {

/// A grid-stride loop: the id of its index variable, its C name, its tag
/// for messages (`mapLocal(0)`) and which grid loop it is.
struct GridLoopRef {
  std::uint64_t index = 0;
  std::string name;
  std::string origin;
  GridLoop grid;
};

/// The layout of a private array in each work-item: `divisors[k]` for the
/// k-th array dimension of its type, outermost first; element i of that
/// dimension is stored at i / divisors[k] (1: every element, undistributed).
struct PrivateLayout {
  std::vector<std::int64_t> divisors;
};

/// Collects the accesses to private temporaries while a kernel is emitted,
/// then checks them.
class PrivateMemoryCheck {
public:
  /// A private temporary: the `new` command (its type is the temporary's)
  /// and its C name (for messages), declared inside the grid loops `around`.
  void declare(std::uint64_t id, const dpia::Phrase& newCommand, const std::string& name,
               const std::vector<GridLoopRef>& around);
  /// An access inside the grid loops `around`: to the element at `indices`
  /// (one per array or vector dimension of the temporary's type, outermost
  /// first; empty for a scalar variable or an element the emitter does not
  /// name), spelled `spelled` in C (`i][k` for `tmp[i][k]`; "" when
  /// unknown), a read, a write or (both false) either.
  void access(std::uint64_t id, const std::vector<rise::Nat>& indices, const std::string& spelled,
              bool read, bool write, const std::vector<GridLoopRef>& around);
  /// The same for a one-dimensional array (`index` null: unknown).
  void access(std::uint64_t id, const rise::Nat& index, const std::string& spelled, bool read,
              bool write, const std::vector<GridLoopRef>& around);
  /// Throws CompileError E0648 for the first temporary that two work-items
  /// may share.
  void check() const;
  /// After check(): the layout of every private array that can be
  /// distributed over the grid loops whose number of work-items `strides`
  /// gives ({Local, 0} -> 64, known at compile time), by the id of the
  /// temporary; only those with a divisor above 1. Throws E0631 for the
  /// first private array larger than the limit for private memory
  /// (c::kStackLimitBytes) in each work-item.
  std::map<std::uint64_t, PrivateLayout>
  layouts(const std::map<GridLoop, std::int64_t>& strides) const;

private:
  struct Access {
    std::vector<rise::Nat> indices;
    std::string spelled;
    bool read = true, write = true;
    std::vector<GridLoopRef> loops; ///< the grid loops between declaration and access
  };
  struct Temporary {
    dpia::Phrase command;
    std::string name;
    std::size_t depth = 0; ///< grid loops around the declaration
    std::vector<Access> accesses;
  };
  /// Which grid loop owns each dimension of `t`'s type (null: none; pointing
  /// into `t`); empty when no grid loop writes it. Throws E0648 when two
  /// work-items may share an element. `whole`: some write is outside every
  /// grid loop.
  std::vector<const GridLoopRef*> owners(const Temporary& t, bool& whole) const;

  std::map<std::uint64_t, Temporary> temporaries_;
  std::vector<std::uint64_t> order_; ///< declaration order, for deterministic messages
};

} // namespace risec::codegen::opencl
