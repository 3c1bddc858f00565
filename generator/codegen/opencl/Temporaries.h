// Where an OpenCL temporary lives (docs/dpia.md, "OpenCL"). The address
// space comes from the primitive that made it (toPrivate/toLocal/toGlobal,
// oclToMem(a), oclReduceSeq(a)'s accumulator; lowerToC's own copies are
// private); messages name that primitive and the temporary's role from the
// origin recorded on the `new` (dpia/Origin.h), never from the source text.
// Private temporaries are declared where they are used, as for C.
// Local and global ones are hoisted out of every loop (dpia::hoistAllocations)
// and placed here:
//   local   `local T name[SIZE]` at kernel scope: one buffer per work-group
//           (were local memory allowed inside a mapLocal loop of constant
//           trip count, one slice per iteration);
//   global  an extra trailing kernel parameter `global T* restrict name` the
//           host allocates, one slice per iteration of each enclosing
//           parallel loop (indexed by the loop indices, never by work-item
//           ids, so it is right for any NDRange).
// Rejections (pointing at the RISE primitive):
//   E0630  an address-space variable (`oclToMem(a)` with `a` unknown)
//   E0631  a private temporary too large for private memory
//   E0633  a local temporary of symbolic size
// (Local memory outside a mapWorkGroup or inside a mapLocal is mapping rule
// 2, E0641, checked before: codegen/opencl/MappingLegality.h.)
#pragma once

#include "dpia/Passes.h"
#include "rise/nat/Nat.h"

namespace risec::codegen::opencl {

struct Placement {
  bool local = false;    ///< local memory (else a global temporary)
  rise::Nat slices;      ///< how many copies (1 outside parallel loops)
  rise::Nat slice;       ///< which copy: a Nat over the enclosing loop indices
  std::string primitive; ///< `toLocal`, `oclToMem(Global)`, ... for messages
};

/// The placement of a hoisted local or global temporary; throws the errors
/// above for one that cannot be placed (a too large private one included).
Placement placeTemporary(const dpia::HoistedAllocation& h);

/// What a temporary is, for messages, from the origin recorded on it
/// (dpia/Origin.h: the primitive that made it and its role): "the double
/// buffer `bufA` of `iterate` at f.rise:3:5", "the accumulator of
/// `oclReduceSeq` at ...", "`toPrivate` at ...", "the temporary `tmp` stored
/// at ..." (a copy lowerToC inserted).
std::string describeTemporary(const dpia::Phrase& newCommand);

/// Whether the OpenCL back end hoists the `new` command `c`: local and
/// global temporaries, and private ones too large for private memory (which
/// placeTemporary then rejects).
bool hoistForOpenCL(const dpia::Phrase& c);

} // namespace risec::codegen::opencl
