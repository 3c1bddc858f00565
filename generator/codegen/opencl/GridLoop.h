// The grid loop of an OpenCL kernel as a typed handle: which work-item grid a
// `mapGlobal/mapWorkGroup/mapLocal(d)` parFor strides over, read from the
// loop's origin (dpia/Origin.h), never from its tag. The C back end prints it
// (codegen/c/EmitOpenCLKernel.cpp); barriers, private memory and the launch
// configuration classify loops by it.
#pragma once

#include "dpia/Phrase.h"

#include <optional>
#include <tuple>

namespace risec::codegen::opencl {

enum class GridKind {
  Global,    ///< mapGlobal: get_global_id / get_global_size
  WorkGroup, ///< mapWorkGroup: get_group_id / get_num_groups
  Local,     ///< mapLocal: get_local_id / get_local_size
};

/// `for (int i = ID(dim); i < n; i += SIZE(dim))`.
struct GridLoop {
  GridKind kind = GridKind::Global;
  int dim = 0; ///< 0, 1 or 2

  friend bool operator==(const GridLoop& a, const GridLoop& b) {
    return a.kind == b.kind && a.dim == b.dim;
  }
  friend bool operator!=(const GridLoop& a, const GridLoop& b) { return !(a == b); }
  friend bool operator<(const GridLoop& a, const GridLoop& b) {
    return std::tie(a.kind, a.dim) < std::tie(b.kind, b.dim);
  }
};

/// The grid kind of a loop made by mapGlobal, mapWorkGroup or mapLocal; none
/// for any other command (`for`, mapPar's parFor).
std::optional<GridKind> gridKind(const dpia::Phrase& loop);

/// The grid loop of a parFor made by `mapGlobal/mapWorkGroup/mapLocal(d)`.
/// Throws CompileError E0632 for a dimension other than 0, 1, 2, InternalError
/// for another loop.
GridLoop gridLoop(const dpia::Phrase& loop);

/// `get_global_id`, `get_group_id` or `get_local_id`.
const char* gridIdFunction(GridKind kind);
/// `get_global_size`, `get_num_groups` or `get_local_size`.
const char* gridSizeFunction(GridKind kind);

} // namespace risec::codegen::opencl
