// The names a generated function may not take: the functions and macros of
// the headers the generated files include (the C library's math.h, stdlib.h,
// string.h, ..., OpenMP's omp_*, the OpenCL host API's cl*), and in an
// OpenCL kernel the built-in functions of OpenCL C. A kernel named `exp`
// would not compile against math.h (or, linked into a program, would
// replace libm's exp); one named `dot` is refused by the OpenCL compiler.
#pragma once

#include "codegen/Target.h"

#include <string>
#include <string_view>

namespace risec::codegen {

/// Why `symbol` cannot name a kernel of `target` ("the C library's `exp`
/// (math.h)"), or "" if it can.
std::string reservedSymbol(std::string_view symbol, Target target);

} // namespace risec::codegen
