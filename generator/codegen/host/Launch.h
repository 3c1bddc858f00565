// The OpenCL launch configuration of a kernel's host wrapper (docs/host.md):
// the global and local NDRange sizes as Nat expressions over the kernel's size
// parameters, from `risec compile --launch 'global=[n],local=[32]'`, a spec's
// `launch: {global: [n], local: [32]}`, or the default rule below.
//
// Default rule, per dimension d that a parallel map uses (the outermost
// mapWorkGroup(d), mapLocal(d) and mapGlobal(d) of the kernel), with
// cap = 32, 8, 1 for d = 0, 1, 2 (at most 256 work-items per work-group), and
// cap = 128 for a one-dimensional kernel whose only parallel maps are
// mapGlobal(0) (a lone mapGlobal: 4 warps per group, n/128 groups):
//   local(d)  = for a mapWorkGroup(d): the trip count of mapLocal(d) clamped
//               to 1..cap (`max(1, min(cap, L))`), 1 without a mapLocal(d);
//               for a mapGlobal(d): its trip count clamped to 1..cap;
//   global(d) = groups * local(d), groups = the trip count of mapWorkGroup(d);
//               for a mapGlobal(d): its trip count rounded up to local(d).
// Dimensions between used ones get 1 and 1; a kernel without a parallel map
// runs one work-item (global [1], local [1]).
//
// The rule replaces every hand-written `launch:` of the catalogue: for a
// lone mapGlobal they let the runtime choose the local size, which OpenCL 1.2
// must make a divisor of the global size (1 for a prime n: on PoCL scal at a
// prime n = 67108859 took 640 to 740 ms so, 100 to 150 ms with local 32 to
// 4096 and the global size rounded up).
//
// The host wrapper checks the launch against the device before enqueueing
// it (risec_cl_check_launch in host/risec_cl.h: the work-group size against
// CL_DEVICE_MAX_WORK_GROUP_SIZE, CL_DEVICE_MAX_WORK_ITEM_SIZES and
// CL_KERNEL_WORK_GROUP_SIZE, the kernel's local memory against
// CL_DEVICE_LOCAL_MEM_SIZE) and returns 8 with the numbers on a misfit.
//
// The wrapper clamps a given global size to what the work needs (`need`,
// the default rule's global size for the given local size) and rounds it up
// to a multiple of the local size (OpenCL 1.2 has no partial work-groups).
#pragma once

#include "codegen/opencl/GridLoop.h"
#include "rise/ast/Expr.h"
#include "rise/nat/Nat.h"
#include "support/SourceLocation.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace risec::codegen::host {

struct Launch {
  std::vector<rise::Nat> global; ///< 1 to 3 dimensions
  std::vector<rise::Nat> local;  ///< empty: the OpenCL runtime chooses
};

/// One grid-stride loop of an OpenCL kernel as the emitter saw it.
struct GridLoopInfo {
  using Kind = opencl::GridKind;
  Kind kind = Kind::Global;
  int dim = 0;
  rise::Nat count; ///< the trip count, over the size parameters only
  int depth = 0;   ///< the number of enclosing grid loops
};

/// The outermost grid loops of each kind and dimension, as the default rule
/// and the clamp need them.
class GridLoops {
public:
  void add(const GridLoopInfo& loop);
  /// The outermost loop of `kind` in dimension `dim`, or null.
  const GridLoopInfo* outermost(GridLoopInfo::Kind kind, int dim) const;
  /// The work of the outermost loops of `kind` in dimension `dim`: the
  /// largest trip count among the loops at the outermost depth (a kernel may
  /// run several in sequence, e.g. a vector loop and its tail), or none.
  std::optional<rise::Nat> outermostCount(GridLoopInfo::Kind kind, int dim) const;
  /// 1 + the highest dimension used; 0 without grid loops.
  int dims() const;

private:
  std::vector<GridLoopInfo> loops_;
};

/// The default launch configuration of a kernel (rule above).
Launch defaultLaunch(const GridLoops& loops);

/// The global size dimension `d` needs at most for the local size `local`
/// (null: the runtime chooses), or none when unbounded.
std::optional<rise::Nat> neededGlobal(const GridLoops& loops, int d, const rise::Nat& local);

/// Parses `--launch 'global=[n, m/4],local=[32, 1]'` against the entry's size
/// parameters. Errors E0510..E0513 name the option.
Launch parseLaunchOption(const std::string& text, const std::vector<rise::DepBinder>& sizes);

/// Throws E0515 when the given launch puts more than one work-item in a
/// dimension that no parallel map of the kernel uses (`usedDims`): every
/// work-item there would run the whole kernel again, which an in-place
/// update of local or global memory (an accumulator tile) counts twice.
void checkUnusedDimensions(const Launch& launch, const std::set<int>& usedDims);

/// `global=[n],local=[32]`, as parseLaunchOption reads it.
std::string launchToString(const Launch& launch);

} // namespace risec::codegen::host
