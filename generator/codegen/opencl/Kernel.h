// The OpenCL text of a kernel beyond its statements (docs/dpia.md,
// "OpenCL"); the grid loops are codegen/opencl/GridLoop.h.
#pragma once

#include <string>

namespace risec::codegen::opencl {

/// `typedef int int32_t;` etc. for the <stdint.h> names used in `code`
/// (OpenCL C has no <stdint.h>), one per line; empty if none is used.
std::string stdintTypedefs(const std::string& code);

} // namespace risec::codegen::opencl
