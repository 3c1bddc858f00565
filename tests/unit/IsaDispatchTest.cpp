// ISA variants and run-time dispatch (driver/IsaDispatch.h, docs/usage.md,
// "ISA variants"), end to end: `risec generate` of a spec whose C variant
// asks for every x86-64 level, the library built from the manifest's files
// with each file's `compile_flags`, and for each level that the CPU running
// the test supports, one run forced to that level through RISEC_ISA, checked
// against the interpreter and against dot_c_selected_isa(). A level this CPU
// lacks is skipped (GTEST_SKIP), never assumed: the machines this runs on
// differ (AVX-512 or AVX2 only).
#include "../support/CKernelRunner.h"
#include "../support/Process.h"
#include "../support/TestFiles.h"

#include "driver/SpecLoader.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <unistd.h>

using namespace risec;
using namespace risec::testsupport;
namespace fs = std::filesystem;
namespace interp = risec::rise::interp;

namespace {

const char* kSpec = R"(kernel: dot
source: dot.rise
variants:
  - target: c
    strategy: dot.c.elevate
    isas:
      - {isa: x86-64, params: {vw: 4}}
      - {isa: x86-64-v2, params: {vw: 4}}
      - {isa: x86-64-v3, params: {vw: 8}}
      - x86-64-v4
check:
  - {n: 4099}
)";

const std::vector<std::string> kLevels = {"x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"};

/// The best level the CPU supports.
std::string bestLevel() {
  std::string best = "x86-64";
  for (const std::string& l : kLevels)
    if (cpuSupportsIsa(l))
      best = l;
  return best;
}

/// `compile_flags` of the manifest: file -> flags.
std::map<std::string, std::vector<std::string>> compileFlags(const std::string& manifest) {
  std::string m;
  for (char c : manifest)
    if (!std::isspace(static_cast<unsigned char>(c)))
      m += c;
  std::map<std::string, std::vector<std::string>> flags;
  std::regex entry("\"([A-Za-z0-9_]+\\.c)\":\\[([^\\]]*)\\]"), flag("\"([^\"]*)\"");
  for (std::sregex_iterator it(m.begin(), m.end(), entry), end; it != end; ++it) {
    std::string list = (*it)[2];
    std::vector<std::string>& f = flags[(*it)[1]];
    for (std::sregex_iterator g(list.begin(), list.end(), flag); g != end; ++g)
      f.push_back((*g)[1]);
  }
  return flags;
}

/// The generated library, built once for every test of the suite.
class IsaDispatch : public ::testing::TestWithParam<std::string> {
protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("risec-isa-dispatch-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "specs");
    for (const char* f : {"dot.rise", "dot.c.elevate"})
      fs::copy_file(fs::path(RISEC_SOURCE_DIR) / "specs" / f, dir_ / "specs" / f);
    std::ofstream(dir_ / "specs" / "dot.yaml") << kSpec;
    fs::path out = dir_ / "out";
    test::ProcessResult r = test::runProcess(
        {RISEC_BINARY, "generate", (dir_ / "specs" / "dot.yaml").string(), "-o", out.string()});
    if (r.exitCode != 0) {
      error_ = "risec generate failed: " + r.err;
      return;
    }
    // The library: every C file of the manifest with its own flags.
    auto flags = compileFlags(test::readFile(out / "kernels.json"));
    if (flags.size() != 5) {
      error_ = "expected 5 C files in the manifest, found " + std::to_string(flags.size());
      return;
    }
    std::string objects;
    for (const auto& [file, fileFlags] : flags) {
      std::string cmd = "gcc " + defaultCFlags();
      for (const std::string& f : fileFlags)
        cmd += " " + f;
      std::string object = (out / (file + ".o")).string();
      cmd += " -c " + (out / file).string() + " -o " + object;
      std::string log;
      if (runCommand(cmd, &log) != 0) {
        error_ = cmd + ":\n" + log;
        return;
      }
      objects += " " + object;
    }
    std::string log;
    if (runCommand("ar rcs " + (out / "libdot.a").string() + objects, &log) != 0) {
      error_ = "ar: " + log;
      return;
    }
    // A driver that calls dot_c once and then prints the level it picked.
    spec_ = driver::loadSpec((dir_ / "specs" / "dot.yaml").string());
    std::ofstream(out / "main.c") << "#include \"dot_c.h\"\n\n#include <stdio.h>\n#include "
                                     "<stdlib.h>\n#include <string.h>\n\n"
                                  << kernelCaller("dot_c", spec_.typedEntry, 1)
                                  << "\nint main(int argc, char** argv) {\n"
                                     "  if (argc != 2) return 91;\n"
                                     "  FILE* in = fopen(argv[1], \"r\");\n"
                                     "  if (!in) return 92;\n"
                                     "  int rc = risec_call_dot_c(in);\n"
                                     "  fclose(in);\n"
                                     "  printf(\"\\nisa %s\\n\", dot_c_selected_isa());\n"
                                     "  return rc;\n}\n";
    std::string link = "gcc " + defaultCFlags() + " -I" + out.string() + " " +
                       (out / "main.c").string() + " " + (out / "libdot.a").string() + " -o " +
                       (out / "driver").string();
    if (runCommand(link, &log) != 0)
      error_ = link + ":\n" + log;
  }
  static void TearDownTestSuite() {
    if (error_.empty() && !::testing::UnitTest::GetInstance()->failed_test_count())
      fs::remove_all(dir_);
  }

  /// Runs the driver with RISEC_ISA=`isa` (none if empty) on random inputs
  /// of size n and checks the result against the interpreter; returns the
  /// level the dispatcher reports.
  std::string runAndCheck(const std::string& isa, std::int64_t n) {
    interp::SizeEnv sizes{{"n", n}};
    interp::EntryInterface iface = interp::instantiateEntry(spec_.typedEntry, sizes);
    std::mt19937_64 rng(static_cast<unsigned>(n) + isa.size());
    std::vector<interp::Value> inputs;
    for (const rise::Type& t : iface.inputTypes)
      inputs.push_back(interp::randomValue(t, rng));
    interp::Value expected = interp::evaluate(spec_.typedEntry, sizes, inputs);
    fs::path input = dir_ / "out" / ("input-" + (isa.empty() ? "none" : isa) + ".txt");
    std::ofstream(input) << inputRecord(spec_.typedEntry, {"n"}, sizes, inputs);
    std::string out;
    std::string env = isa.empty() ? "env -u RISEC_ISA " : "env RISEC_ISA='" + isa + "' ";
    int rc = runCommand(env + (dir_ / "out" / "driver").string() + " " + input.string(), &out);
    EXPECT_EQ(rc, 0) << out;
    std::vector<std::string> tok = tokens(out);
    if (tok.size() < 4 || tok[0] + " " + tok[1] != "rc 0" || tok[tok.size() - 2] != "isa") {
      ADD_FAILURE() << "unexpected driver output: " << out.substr(0, 2000);
      return "";
    }
    std::string selected = tok.back();
    tok.resize(tok.size() - 2);
    std::size_t pos = 2;
    interp::Value actual = unflatten(iface.outputType, tok, pos);
    EXPECT_EQ(pos, tok.size()) << "the kernel printed more than its output";
    std::string why;
    EXPECT_TRUE(interp::valuesClose(actual, expected, 1e-4, 1e-4, &why))
        << "RISEC_ISA=" << isa << " (selected " << selected << "): " << why;
    return selected;
  }

  static fs::path dir_;
  static std::string error_;
  static driver::KernelSpec spec_;
};

fs::path IsaDispatch::dir_;
std::string IsaDispatch::error_;
driver::KernelSpec IsaDispatch::spec_;

TEST_P(IsaDispatch, ForcedLevelMatchesTheInterpreter) {
  ASSERT_TRUE(error_.empty()) << error_;
  const std::string& level = GetParam();
  if (!cpuSupportsIsa(level)) {
    // Forcing a level the CPU lacks is ignored: the best level runs.
    EXPECT_EQ(runAndCheck(level, 4099), bestLevel());
    GTEST_SKIP() << "this CPU does not support " << level << "; its function is built but not run";
  }
  for (std::int64_t n : {0, 1, 7, 4099})
    EXPECT_EQ(runAndCheck(level, n), level) << "n = " << n;
}

TEST_F(IsaDispatch, WithoutOverrideTheBestLevelRuns) {
  ASSERT_TRUE(error_.empty()) << error_;
  EXPECT_EQ(runAndCheck("", 1000), bestLevel());
}

TEST_F(IsaDispatch, UnknownOverrideIsIgnored) {
  ASSERT_TRUE(error_.empty()) << error_;
  EXPECT_EQ(runAndCheck("avx9000", 1000), bestLevel());
  EXPECT_EQ(runAndCheck("", 1000), bestLevel());
}

std::string levelName(const ::testing::TestParamInfo<std::string>& info) {
  return driver::isaSuffix(info.param);
}

INSTANTIATE_TEST_SUITE_P(Levels, IsaDispatch, ::testing::ValuesIn(kLevels), levelName);

} // namespace
