// The OpenCL text of the parallel loops (docs/dpia.md, "OpenCL"): which
// work-item functions a `mapGlobal/mapWorkGroup/mapLocal(d)` loop strides
// over. The C back end prints the loops (codegen/c/EmitOpenCLKernel.cpp);
// this file says what they are.
#pragma once

#include <string>

namespace risec::codegen::opencl {

/// `for (int i = ID(d); i < n; i += SIZE(d))`.
struct GridLoop {
  std::string id;   ///< get_global_id, get_group_id or get_local_id
  std::string size; ///< get_global_size, get_num_groups or get_local_size
  int dim = 0;      ///< 0, 1 or 2
};

/// The grid-stride loop of a parFor whose origin is `mapGlobal(d)`,
/// `mapWorkGroup(d)` or `mapLocal(d)` (dpia/Parallel.h). Throws CompileError
/// E0632 for a dimension other than 0, 1, 2, InternalError for another origin.
GridLoop gridLoop(const std::string& origin);

/// `typedef int int32_t;` etc. for the <stdint.h> names used in `code`
/// (OpenCL C has no <stdint.h>), one per line; empty if none is used.
std::string stdintTypedefs(const std::string& code);

} // namespace risec::codegen::opencl
