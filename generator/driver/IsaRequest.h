// `risec generate --isas LIST` (docs/usage.md, "ISA variants"): x86-64 levels
// for every c and openmp variant whose spec names no `isas:`, so that a build
// (risec_add_kernel_library's ISAS, `native` by default) can ask for the
// building machine's level behind a run-time dispatcher (IsaDispatch.h)
// without editing the specs. A spec's own `isas:` always wins.
#pragma once

#include "driver/KernelSpec.h"

#include <string>
#include <vector>

namespace risec::driver {

/// The levels of a comma-separated `--isas` list of x86-64 levels
/// (isaLevels()) and/or `native`, the best level of the CPU risec runs on
/// (none on a host that is not x86-64), in isaLevels() order with the
/// baseline x86-64 first, as VariantSpec::isas holds them. Empty when the
/// list is empty or asks for nothing above the baseline: then no variant
/// dispatches. E0819: an item that is neither a level nor `native`.
std::vector<std::string> resolveIsaRequest(const std::string& list);

/// The best x86-64 level of the CPU risec runs on (`x86-64-v3`), tested with
/// `__builtin_cpu_supports` on the features of RISEC_ISA_LEVEL_FEATURES (the
/// dispatchers' tests); empty on a host that is not x86-64.
std::string nativeIsaLevel();

/// Gives `levels` (resolveIsaRequest's result) as `isas` to every c and
/// openmp variant that has none from its spec (neither the spec's nor the
/// variant's `isas:`) and whose `cflags` set no `-march=` (the spec chose its
/// CPU). Does nothing when `levels` names no level above the baseline.
/// The baseline function of such a variant is the variant's single function
/// (no machine facts, VariantSpec::strategyBindings); a level above it whose
/// machine facts fail a `require` of the variant's strategy (the spec binds
/// no values per level) is left out, with a warning in the result: asking
/// for the building machine's level never breaks a build.
std::vector<std::string> applyIsaRequest(std::vector<KernelSpec>& specs,
                                         const std::vector<std::string>& levels);

} // namespace risec::driver
