// libFuzzer harness of kernel specs (docs/fuzzing.md, "libFuzzer
// harnesses"). The input is a spec file (.yaml), loaded with
// driver::loadSpec: YAML, keys and values, the program it names parsed and
// its entry inferred, the strategies it names read for their parameters and
// requirements, launch sizes, check sizes against the preconditions.
//
// The files a spec names resolve against specs/, read-only: at start-up the
// harness makes a private temporary folder with a symbolic link to every
// file of specs/ and writes each input there as `input.yaml` (so
// `source: dot.rise` reads specs/dot.rise). The folder is removed at exit.
// Anything but a loaded spec or a CompileError with a code and a location
// aborts (FuzzSupport.h).
#include "FuzzSupport.h"

#include "driver/SpecLoader.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using namespace risec;
namespace fs = std::filesystem;

namespace {

fs::path& workDir() {
  static fs::path dir;
  return dir;
}

void removeWorkDir() {
  std::error_code ec;
  if (!workDir().empty())
    fs::remove_all(workDir(), ec);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::string templ = (fs::temp_directory_path() / "risec-fuzz-spec-XXXXXX").string();
  if (!mkdtemp(templ.data())) {
    std::perror("risec_fuzz_spec: mkdtemp");
    std::exit(1);
  }
  workDir() = templ;
  std::atexit(removeWorkDir);
  for (const auto& f : fs::directory_iterator(fs::path(fuzz::sourceDir()) / "specs"))
    if (f.is_regular_file())
      fs::create_symlink(f.path(), workDir() / f.path().filename());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fs::path spec = workDir() / "input.yaml";
  {
    std::ofstream out(spec, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  fuzz::resultOrDiagnostic("loadSpec", [&] { driver::loadSpec(spec.string()); });
  return 0;
}
