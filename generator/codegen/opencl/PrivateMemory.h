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
//   - written inside such a loop: accepted only when every access to it is
//     inside exactly one such loop, all of the same kind and dimension
//     (`mapLocal(0)`), at the loop's own index: iteration i writes and reads
//     element i, which the same work-item runs in every such loop (the
//     private accumulators of Shine's and LIFT's gemv). Otherwise E0648.
#pragma once

#include "dpia/Phrase.h"
#include "rise/nat/Nat.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace risec::codegen::opencl {

/// A grid-stride loop: the id of its index variable, its C name and its
/// origin (`mapLocal(0)`).
struct GridLoopRef {
  std::uint64_t index = 0;
  std::string name;
  std::string origin;
};

/// Collects the accesses to private temporaries while a kernel is emitted,
/// then checks them.
class PrivateMemoryCheck {
public:
  /// A private temporary: the `new` command and its C name (for messages),
  /// declared inside the grid loops `around`.
  void declare(std::uint64_t id, const dpia::Phrase& newCommand, const std::string& name,
               const std::vector<GridLoopRef>& around);
  /// An access inside the grid loops `around`: to element `index` of an
  /// array, spelled `spelled` in C (null and "" for a scalar variable, or an
  /// element the emitter does not name), a read, a write or (both false)
  /// either.
  void access(std::uint64_t id, const rise::Nat& index, const std::string& spelled, bool read,
              bool write, const std::vector<GridLoopRef>& around);
  /// Throws CompileError E0648 for the first temporary that two work-items
  /// may share.
  void check() const;

private:
  struct Access {
    rise::Nat index;
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
  std::map<std::uint64_t, Temporary> temporaries_;
  std::vector<std::uint64_t> order_; ///< declaration order, for deterministic messages
};

} // namespace risec::codegen::opencl
