// Barriers for OpenCL local memory and global temporaries (docs/dpia.md,
// "OpenCL"; mapping-parallelism-constraints §4.3, §4.6). An imperative DPIA
// pass (pipeline stage 8, codegen/Compile.cpp), run after the shared
// temporaries are hoisted and named by the prologue:
//
//   - a `barrier` goes between two statements of a sequence when the later
//     one accesses a shared temporary that the earlier one accessed, one of
//     them writes it, and one of the accesses is distributed over work-items
//     (inside a mapLocal, mapWorkGroup or mapGlobal loop nested in the
//     statement): read-after-write or write-after-read (two writes with no
//     read between need none: a RISE program writes each element of a
//     temporary once);
//   - a `barrier` goes at the end of a loop body (a sequential loop, or a
//     mapWorkGroup grid-stride iteration for the local memory allocated in
//     it) when the end of one iteration and the start of the next conflict
//     in the same way (the next iteration would overwrite memory still being
//     read); the iterations of parallel loops are otherwise independent;
//   - nowhere else: not at the end of the kernel, not between statements
//     whose accesses are all by one work-item.
//
// A barrier is legal only where every work-item of the group reaches it
// (synchronizability, §4.6):
//   E0634  the barrier would be inside a mapLocal or mapGlobal loop (work-items
//          run different numbers of iterations);
//   E0635  the dependency is between work-groups (a distributed access by a
//          mapWorkGroup or mapGlobal loop): OpenCL has no global barrier,
//          and the work-group barriers of either side do not order it, so
//          such accesses are compared with every access before and after
//          them, across barriers.
//
// Except at the top level: where two statements of the kernel's outermost
// sequence depend on each other between work-groups, a phase boundary goes
// between them instead of E0635 (docs/dpia.md, "Kernel phases"): the kernel
// ends there and the next one starts, the host wrapper launching them in
// order on the in-order queue (codegen/opencl/Kernel.h splits the emitted
// statements). Local memory does not outlive a kernel: a local temporary
// accessed on both sides of a boundary keeps the E0635.
#pragma once

#include "dpia/Phrase.h"
#include "support/SourceLocation.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace risec::codegen::opencl {

/// A temporary in local memory or a global temporary.
struct SharedTemporary {
  bool local = true;       ///< local memory (else global)
  std::string description; ///< `tmp (toLocal)`, for messages
  std::string comment;     ///< `tmp (toLocal at f.rise:4:7)`, for barrier comments
  SourceLocation loc;      ///< the RISE primitive that made it
  /// The index ids of the parallel loops it was allocated in: each of their
  /// iterations has its own copy.
  std::set<std::uint64_t> ownLoops;
};

/// Inserts the barriers and phase boundaries `command` needs for the
/// temporaries `shared` (by the id of their `new` variable). Throws
/// CompileError E0634/E0635.
dpia::Phrase insertBarriers(const dpia::Phrase& command,
                            const std::map<std::uint64_t, SharedTemporary>& shared);

/// Whether `command` contains a barrier (a phase boundary is none).
bool hasBarrier(const dpia::Phrase& command);

/// A phase boundary: a `barrier` command with no fence; `why` names the
/// temporary that the next phase reads (`tmp (toGlobal at f.rise:3:5)`).
dpia::Phrase phaseBoundary(const std::string& why);
bool isPhaseBoundary(const dpia::Phrase& command);

} // namespace risec::codegen::opencl
