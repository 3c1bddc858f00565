// ISA variants and run-time dispatch (docs/usage.md, "ISA variants"). A c or
// openmp variant with `isas:` is compiled once per x86-64 level, as
// SYMBOL_<isaSuffix(level)> in its own SYMBOL_<suffix>.c (compiled with
// -march=LEVEL; the dispatcher with the variant's flags alone), and
// SYMBOL.c becomes a dispatcher with SYMBOL's unchanged prototype: at the
// first call it picks the best level the running CPU supports, or the one
// the environment variable RISEC_ISA names (if the CPU supports it), and
// calls that level's function from then on. SYMBOL_selected_isa() names the
// level it picked.
#pragma once

#include "driver/GeneratedLibrary.h"

#include <string>

namespace risec::driver {

/// The environment variable that overrides the choice of the dispatchers.
inline constexpr const char* kIsaOverrideVariable = "RISEC_ISA";

/// Sets `v.files` and `v.compileFlags`: the variant's files as
/// codegen::outputFiles writes them, or, with `isas:`, the dispatcher
/// SYMBOL.c, SYMBOL.h (with SYMBOL_selected_isa) and every level's .c and .h.
void setVariantFiles(GeneratedVariant& v, const std::string& specName, const std::string& version);

} // namespace risec::driver
