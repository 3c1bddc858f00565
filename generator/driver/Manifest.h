// The machine-readable description of a generated library, `NAME.json`
// (docs/usage.md, "The manifest"): kernels, variants, symbols, files,
// parameters in ABI order with their roles and types, preconditions, launch
// configurations and check sizes. Keys are sorted and paths relative, so the
// text is byte-identical for the same inputs.
#pragma once

#include "driver/GeneratedLibrary.h"

#include <string>

namespace risec::driver {

std::string manifestJson(const GeneratedLibrary& library, const std::string& version);

} // namespace risec::driver
