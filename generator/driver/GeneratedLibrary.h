// The result of `risec generate` before anything is written: every kernel of
// the library with its compiled variants, sorted by kernel name and symbol.
// The headers (LibraryHeaders.h) and the manifest (Manifest.h) are made from
// it.
#pragma once

#include "codegen/Compile.h"
#include "driver/KernelSpec.h"

#include <map>
#include <string>
#include <vector>

namespace risec::driver {

/// One ISA level's function of a variant with `isas:` (driver/IsaDispatch.h).
struct IsaFunction {
  std::string level;             ///< e.g. x86-64-v3
  codegen::CompileResult result; ///< compiled as SYMBOL_<isaSuffix(level)>
};

struct GeneratedVariant {
  const VariantSpec* spec = nullptr;
  std::string strategyName; ///< the strategy file relative to the spec's folder; empty: lowerToC
  /// The variant as SYMBOL; with `isas:` only its header is written (SYMBOL.c
  /// is the dispatcher, driver/IsaDispatch.h).
  codegen::CompileResult result;
  std::vector<IsaFunction> isaFunctions; ///< in spec->isas order; empty: no dispatch
  /// Every file the variant writes (setVariantFiles), and the compiler flags
  /// of each C file.
  std::vector<codegen::OutputFile> files;
  std::map<std::string, std::vector<std::string>> compileFlags;

  const codegen::KernelAbi& abi() const { return result.files.abi; }
};

struct GeneratedKernel {
  const KernelSpec* spec = nullptr;
  std::string specName;                   ///< the spec file's name (no folder)
  std::string sourceName;                 ///< the .rise file relative to the spec's folder
  std::vector<GeneratedVariant> variants; ///< sorted by symbol

  std::string headerName() const { return spec->kernel + ".h"; }
};

struct GeneratedLibrary {
  std::string name = "kernels";         ///< the umbrella header is NAME.h, the manifest NAME.json
  std::vector<GeneratedKernel> kernels; ///< sorted by kernel name
};

} // namespace risec::driver
