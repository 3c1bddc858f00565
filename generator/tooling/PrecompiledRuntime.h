// Verifying an OpenCL kernel's header and host wrappers is mostly parsing the
// OpenCL host runtime's header, risec_cl.h, with CL/cl.h. It is precompiled
// (a Clang PCH, in a temporary directory removed at exit) once per process
// and passed with -include-pch to the files whose parse starts by including
// it, directly or through the first include of a sibling, and only when it is
// wholly inside an include guard: for those, the PCH changes nothing but the
// time (tests: ToolingTest, Verifier.*PrecompiledRuntime*).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace risec::tooling {

/// The arguments that add the precompiled risec_cl.h of `siblings` to the
/// verification of `code` (parsed with `languageFlags`, e.g. `-x c
/// -std=c11`), or none if that could change the outcome or the PCH cannot be
/// built. Thread-safe.
std::vector<std::string>
precompiledRuntimeArguments(const std::string& code,
                            const std::map<std::string, std::string>& siblings,
                            const std::vector<std::string>& languageFlags);

} // namespace risec::tooling
