// Pipeline stage 13 (codegen/Compile.cpp): the emitted files formatted with
// libFormat and risec's own .clang-format (timed as "format"), then parsed
// by Clang through LibTooling with -Wall -Wextra -Werror (timed as
// "verify"): C11, C11 + OpenMP, or OpenCL C 1.2 for SYMBOL.cl (formatted by
// stage 12 already: the host wrappers embed it as shipped). An OpenCL
// kernel's header and host wrappers (SYMBOL_host.c) are C11 against the
// OpenCL headers and the risec runtime's header (host/risec_cl.h, embedded).
// A file that fails is a bug in risec: InternalError, the files kept in
// /tmp/risec-failed-* for inspection.
#pragma once

#include "codegen/c/EmitC.h"

#include <string>

namespace risec::codegen {

c::CFiles formatAndVerify(c::CFiles files, const std::string& symbol, Target target);

} // namespace risec::codegen
