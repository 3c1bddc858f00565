// A kernel spec (docs/usage.md, "Writing a spec") after loading and
// validation: the program it names, type-checked, and its variants with their
// strategies and launch configurations resolved.
#pragma once

#include "codegen/Target.h"
#include "rise/ast/Expr.h"
#include "rise/infer/Infer.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace risec::driver {

using codegen::Target;     // the back end of a variant
using codegen::targetName; // "c", "openmp", "opencl"

/// OpenCL NDRange sizes as Nat expressions over the entry's size parameters.
struct LaunchConfig {
  std::vector<rise::Nat> global;
  std::vector<rise::Nat> local; ///< empty: chosen by the OpenCL runtime
  SourceLocation loc;
};

/// The optimisation level of a variant whose `cflags:` name none.
inline constexpr const char* kDefaultOptimisationFlag = "-O3";
/// Floating-point contraction for a variant whose `cflags:` do not choose:
/// `a + b * c` may become one fused multiply-add (one rounding instead of
/// two). GCC in ISO C mode does not contract at all (-ffp-contract=on is off
/// before GCC 14), which halves the arithmetic throughput of a kernel on a
/// CPU whose adds and FMAs share their ports (Intel's AVX-512 cores).
inline constexpr const char* kDefaultContractionFlag = "-ffp-contract=fast";

struct VariantSpec {
  Target target = Target::C;
  std::string strategyPath; ///< resolved against the spec's folder; empty: lowerToC
  std::string symbol;       ///< `<kernel>_<target>` unless the spec sets `symbol:`
  std::optional<LaunchConfig> launch;
  /// The C compiler flags of the variant's C files (recorded in the manifest,
  /// applied by risec_add_kernel_library): the variant's `cflags:`, else the
  /// spec's, with kDefaultOptimisationFlag first when they name no -O level and
  /// kDefaultContractionFlag last when they name no -ffp-contract.
  std::vector<std::string> cflags;
  /// The x86-64 levels of `isas:` (docs/usage.md, "ISA variants"), in the
  /// order of kIsaLevels, the baseline `x86-64` always first; empty: one
  /// function, no dispatch. Each level is its own function SYMBOL_<suffix>
  /// (isaSuffix), compiled with -march=LEVEL; SYMBOL dispatches at run time.
  std::vector<std::string> isas;
  /// Whether `isas` came from the spec (the variant's or the spec's `isas:`);
  /// `risec generate --isas` (IsaRequest.h) fills only variants without.
  bool isasFromSpec = false;
  /// `params:`: values of the strategy's parameters (docs/strategies.md,
  /// "Parameters"); the others keep the strategy file's defaults.
  std::map<std::string, std::int64_t> params;
  /// Per ISA level (an `isas:` entry `{isa: LEVEL, params: {...}}`): values
  /// that override `params` in that level's function.
  std::map<std::string, std::map<std::string, std::int64_t>> isaParams;
  SourceLocation loc;

  /// The values the strategy of the function for `level` is loaded with:
  /// `params`, then the level's `isaParams`, and the level's machine facts
  /// (isaFacts). `level` empty, or the baseline of levels that `--isas`
  /// added: the variant's single function, no facts.
  std::map<std::string, std::int64_t> strategyBindings(const std::string& level) const;
};

/// The machine facts a strategy's `require` may name, for an x86-64 level:
/// `vector_lanes` (f32 lanes of the widest vector register) and
/// `vector_registers` (how many there are).
std::map<std::string, std::int64_t> isaFacts(const std::string& level);

/// The x86-64 levels a spec's `isas:` may name, from the baseline up.
inline const std::vector<std::string>& isaLevels() {
  static const std::vector<std::string> levels = {"x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"};
  return levels;
}

/// The position of `level` in isaLevels() (0 for the baseline); isaLevels().size()
/// when it is not a level.
inline int isaLevelIndex(const std::string& level) {
  const auto& l = isaLevels();
  return static_cast<int>(std::find(l.begin(), l.end(), level) - l.begin());
}

/// The suffix of a level's function: `x86-64-v3` -> `x86_64_v3`.
inline std::string isaSuffix(const std::string& level) {
  std::string s = level;
  for (char& c : s)
    if (c == '-')
      c = '_';
  return s;
}

/// One `check:` entry: a value for every size parameter of the entry.
struct CheckSizes {
  std::map<std::string, std::int64_t> sizes;
  SourceLocation loc;
};

struct KernelSpec {
  std::string path;       ///< the spec file as given
  std::string kernel;     ///< symbol prefix
  std::string sourcePath; ///< the .rise file, resolved against the spec's folder
  std::string entry;      ///< the def to compile
  std::string doc;
  std::vector<std::string> cflags; ///< the spec's `cflags:` as written (validated)
  std::vector<std::string> isas;   ///< the spec's `isas:` (validated; c and openmp variants)
  /// The `params:` of the spec's `isas:` entries, per level (VariantSpec::isaParams).
  std::map<std::string, std::map<std::string, std::int64_t>> isaParams;
  std::vector<VariantSpec> variants;
  std::vector<CheckSizes> checks;
  /// `bench:`: the sizes `risec tune` and the benchmarks measure at.
  std::optional<CheckSizes> bench;
  SourceLocation loc;

  rise::Program program;
  rise::TypedDef typedEntry;
  /// The entry's size parameters, in depFun order.
  std::vector<rise::DepBinder> sizeParameters;
};

} // namespace risec::driver
