// The OpenCL text of a kernel beyond its statements (docs/dpia.md,
// "OpenCL"); the grid loops are codegen/opencl/GridLoop.h.
#pragma once

#include "codegen/c/CAst.h"

#include <string>
#include <vector>

namespace risec::codegen::opencl {

/// `typedef int int32_t;` etc. for the <stdint.h> names used in `code`
/// (OpenCL C has no <stdint.h>), one per line; empty if none is used.
std::string stdintTypedefs(const std::string& code);

// ---- kernel phases (docs/dpia.md, "Kernel phases") ------------------------------------
//
// A program whose outermost sequence has a dependency between work-groups
// (insertBarriers, codegen/opencl/Barriers.h) is emitted as one list of
// statements with a marker at each phase boundary; the kernel file then has
// one __kernel per phase, cut at the markers, that the host wrapper launches
// in order.

/// The statement that marks a phase boundary in the emitted statements;
/// `why` says which temporary the next phase reads.
c::CStmt phaseMarker(const std::string& why);

/// One phase of a kernel: its statements, and (after the first) why it
/// starts.
struct Phase {
  std::vector<c::CStmt> statements;
  std::string why;
};

/// `body` cut at its phase markers (which are at its top level: an
/// InternalError otherwise): one phase without a marker.
std::vector<Phase> splitPhases(const std::vector<c::CStmt>& body);

/// The name of the kernel of phase `index` (from 0) of `count`: `symbol`
/// for the first, `symbol_phase2`, `symbol_phase3`, ... after it.
std::string phaseKernelName(const std::string& symbol, std::size_t index);

/// The comment above the kernel of phase `index` of `count` (several).
std::string phaseComment(const std::string& symbol, std::size_t index, std::size_t count,
                         const std::string& why);

} // namespace risec::codegen::opencl
