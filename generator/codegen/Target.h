// The back ends of risec: which language a kernel is compiled to. Target names
// are parsed once, where a user wrote them (the CLI, a spec's `target:`);
// everything after works on the enum.
#pragma once

#include "rules/Rule.h"

#include <optional>
#include <string_view>

namespace risec::codegen {

enum class Target {
  C,      ///< sequential C11
  OpenMP, ///< C11 + OpenMP: mapPar, reducePar
  OpenCL, ///< OpenCL C 1.2 kernel + C host wrappers
};

/// "c", "openmp" or "opencl".
std::string_view targetName(Target t);

/// The target named `name` ("c", "openmp", "opencl"); none for another name.
std::optional<Target> parseTarget(std::string_view name);

/// The back end a strategy is applied for when compiling for `target`
/// (what `lowerToC` in it keeps parallel).
rules::Backend backendFor(Target target);

} // namespace risec::codegen
