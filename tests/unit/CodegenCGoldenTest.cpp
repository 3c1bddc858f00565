// Golden tests of the generated C: tests/golden/NAME.rise compiles to exactly
// tests/golden/NAME.c and NAME.h, so that every change to the output shows up
// in review. After an intended change, regenerate them with
//
//   RISEC_UPDATE_GOLDEN=1 ./tests/CodegenCGoldenTest
//
// and review the diff.
#include "codegen/Compile.h"
#include "rise/infer/Infer.h"
#include "rise/parse/Parser.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace risec;
namespace fs = std::filesystem;

namespace {

fs::path goldenDir() {
  return fs::path(RISEC_TEST_DATA) / "golden";
}

using risec::test::readFile;

class CodegenCGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(CodegenCGolden, MatchesTheCheckedInOutput) {
  const std::string name = GetParam();
  fs::path rise = goldenDir() / (name + ".rise");
  rise::Program program =
      rise::parseProgram(rise::makeSourceFile("tests/golden/" + name + ".rise", readFile(rise)));
  rise::TypedDef def = rise::inferDef(program, program.defs.back().name);
  codegen::c::CFiles files =
      codegen::compileToC(program, def, {name, "tests/golden/" + name + ".rise", "golden", ""})
          .files;
  bool update = std::getenv("RISEC_UPDATE_GOLDEN") != nullptr;
  for (const auto& [ext, text] : {std::pair{".c", files.source}, std::pair{".h", files.header}}) {
    fs::path golden = goldenDir() / (name + ext);
    if (update) {
      std::ofstream(golden, std::ios::binary) << text;
      continue;
    }
    ASSERT_TRUE(fs::exists(golden)) << golden << " is missing; run with RISEC_UPDATE_GOLDEN=1";
    EXPECT_EQ(text, readFile(golden))
        << "the generated " << ext << " of " << name
        << " changed; if intended, regenerate with RISEC_UPDATE_GOLDEN=1 and review the diff";
  }
}

INSTANTIATE_TEST_SUITE_P(Programs, CodegenCGolden,
                         ::testing::Values("mv", "dot", "transpose", "stencil2d", "tree_sum"));

} // namespace
