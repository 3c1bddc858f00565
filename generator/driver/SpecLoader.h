// Loading kernel specs: YAML parsed with yaml-cpp and validated key by key.
// Every problem is a CompileError (E08xx) at the file, line and column of the
// offending key or value: unknown keys, missing keys or files, bad targets,
// launch expressions over unknown sizes, check sizes that violate the
// kernel's preconditions.
#pragma once

#include "driver/KernelSpec.h"

#include <string>

namespace risec::driver {

KernelSpec loadSpec(const std::string& path);

} // namespace risec::driver
