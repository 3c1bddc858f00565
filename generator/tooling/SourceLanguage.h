// The languages risec emits, as far as verification and formatting care.
#pragma once

#include <string_view>

namespace risec::tooling {

enum class SourceLanguage {
  C11,           ///< .c and .h files of the C back end and host wrappers
  C11OpenMP,     ///< .c files of the OpenMP back end
  C11OpenCLHost, ///< an OpenCL kernel's .h and _host.c: C11 against the OpenCL headers
  OpenCL12,      ///< .cl kernels: OpenCL C 1.2 with the default header
};

std::string_view
languageName(SourceLanguage l); ///< "C11", "C11+OpenMP", "C11 (OpenCL host)", "OpenCL C 1.2"

} // namespace risec::tooling
