// The result of `risec generate` before anything is written: every kernel of
// the library with its compiled variants, sorted by kernel name and symbol.
// The headers (LibraryHeaders.h) and the manifest (Manifest.h) are made from
// it.
#pragma once

#include "codegen/Compile.h"
#include "driver/KernelSpec.h"

#include <string>
#include <vector>

namespace risec::driver {

struct GeneratedVariant {
  const VariantSpec* spec = nullptr;
  std::string strategyName; ///< the strategy file relative to the spec's folder; empty: lowerToC
  codegen::CompileResult result;

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
