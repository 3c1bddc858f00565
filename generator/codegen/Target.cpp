#include "codegen/Target.h"

namespace risec::codegen {

std::string_view targetName(Target t) {
  switch (t) {
  case Target::C:
    return "c";
  case Target::OpenMP:
    return "openmp";
  case Target::OpenCL:
    return "opencl";
  }
  return "?";
}

std::optional<Target> parseTarget(std::string_view name) {
  for (Target t : {Target::C, Target::OpenMP, Target::OpenCL})
    if (targetName(t) == name)
      return t;
  return std::nullopt;
}

rules::Backend backendFor(Target t) {
  switch (t) {
  case Target::OpenMP:
    return rules::Backend::OpenMP;
  case Target::OpenCL:
    return rules::Backend::OpenCL;
  case Target::C:
    break;
  }
  return rules::Backend::C;
}

} // namespace risec::codegen
