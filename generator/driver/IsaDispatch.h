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
#include <vector>

namespace risec::driver {

/// The CPU features that set each x86-64 level above the baseline apart, as
/// `__builtin_cpu_supports` names them in both GCC and Clang (x86-64-v3's
/// F16C, LZCNT and MOVBE come with every CPU that has AVX2, BMI2 and FMA):
/// X(level, "feature") for level 2 (x86-64-v2), 3 and 4, in that order. A
/// level needs its own features and those of the levels below. The one list
/// behind the generated dispatchers (IsaDispatch.cpp) and `--isas native`
/// (IsaRequest.cpp, where the names must be string literals).
// clang-format off
#define RISEC_ISA_LEVEL_FEATURES(X)                                                   \
  X(2, "sse3") X(2, "ssse3") X(2, "sse4.1") X(2, "sse4.2") X(2, "popcnt")             \
  X(3, "avx") X(3, "avx2") X(3, "bmi") X(3, "bmi2") X(3, "fma")                       \
  X(4, "avx512f") X(4, "avx512bw") X(4, "avx512cd") X(4, "avx512dq") X(4, "avx512vl")
// clang-format on

struct IsaFeature {
  int level; ///< 2 for x86-64-v2, 3 for x86-64-v3, 4 for x86-64-v4
  const char* name;
};

/// RISEC_ISA_LEVEL_FEATURES as a table.
inline const std::vector<IsaFeature>& isaLevelFeatures() {
#define RISEC_ISA_FEATURE_ENTRY(level, name) IsaFeature{level, name},
  static const std::vector<IsaFeature> features = {
      RISEC_ISA_LEVEL_FEATURES(RISEC_ISA_FEATURE_ENTRY)};
#undef RISEC_ISA_FEATURE_ENTRY
  return features;
}

/// The environment variable that overrides the choice of the dispatchers.
inline constexpr const char* kIsaOverrideVariable = "RISEC_ISA";

/// Sets `v.files` and `v.compileFlags`: the variant's files as
/// codegen::outputFiles writes them, or, with `isas:`, the dispatcher
/// SYMBOL.c, SYMBOL.h (with SYMBOL_selected_isa) and every level's .c and .h.
void setVariantFiles(GeneratedVariant& v, const std::string& specName, const std::string& version);

} // namespace risec::driver
