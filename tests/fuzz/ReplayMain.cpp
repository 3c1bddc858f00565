// Replays inputs through a libFuzzer harness of tests/fuzz without libFuzzer:
// the harness's LLVMFuzzerInitialize (where it has one) and then
// LLVMFuzzerTestOneInput on every file named on the command line, in the
// order given (a folder stands for its files, recursively, sorted by name).
// Built with the project's own compiler as part of the tests, so that CI
// checks every regression input of tests/fuzz-findings/libfuzzer/ and the
// seeds named in tests/CMakeLists.txt, under the sanitizers in the
// sanitizer build (docs/fuzzing.md, "Replaying in the tests"). A finding
// aborts (FuzzSupport.h), which fails the test.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> inputs(int argc, char** argv) {
  std::vector<fs::path> out;
  for (int i = 1; i < argc; ++i) {
    fs::path p = argv[i];
    if (fs::is_directory(p)) {
      std::vector<fs::path> files;
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file())
          files.push_back(e.path());
      std::sort(files.begin(), files.end());
      out.insert(out.end(), files.begin(), files.end());
    } else if (fs::is_regular_file(p)) {
      out.push_back(p);
    } else {
      std::fprintf(stderr, "replay: no such file or folder: %s\n", argv[i]);
      std::exit(2);
    }
  }
  return out;
}

} // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> files = inputs(argc, argv);
  if (files.empty()) {
    std::fprintf(stderr, "replay: no input (usage: %s FILE|FOLDER...)\n", argv[0]);
    return 2;
  }
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay: %s\n", f.string().c_str());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  }
  std::fprintf(stderr, "replay: %zu inputs, no finding\n", files.size());
  return 0;
}
