// The headers `risec generate` adds to the variants' own: `<kernel>.h`, which
// includes the header of every variant of one kernel, and the umbrella header
// `NAME.h`, which includes every kernel header (docs/usage.md, "Generating").
#pragma once

#include "driver/GeneratedLibrary.h"

#include <string>

namespace risec::driver {

std::string kernelHeader(const GeneratedKernel& kernel, const std::string& version);
std::string umbrellaHeader(const GeneratedLibrary& library, const std::string& version);

} // namespace risec::driver
