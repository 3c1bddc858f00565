// The OpenCL kernels of Shine's apps and tests (rise-lang/shine,
// src/main/scala/apps/ and src/test/scala/apps/), ported to the RISE text
// syntax in tests/shine/*.rise, compiled for OpenCL and run on PoCL against
// the interpreter (issue 13, deliverable 5).
//
// Every file starts with a comment naming its origin (`// Origin: ...`) and
// carries its run configuration in comment lines:
//
//   // sizes: n=8192 | n=16384,m=3     size environments, separated by `|`;
//                                      each is `name=value` pairs separated by `,`
//   // launch: global=[128] local=[128] | global=[5,3] local=[2,2]
//                                      NDRanges of 1 to 3 dimensions, separated by `|`
//   // tolerance: 1e-3                 relative and absolute tolerance of the
//                                      comparison (default 1e-4)
//   // expect: rejected E0642          the program must be rejected by the
//                                      compiler with this code (nothing runs;
//                                      the file says why Shine's program is
//                                      racy or unsupported by design)
//   // compile: per launch             compile once per launch, with it known
//                                      at compile time (`risec compile
//                                      --launch`), as Shine generates a kernel
//                                      per launch configuration: private
//                                      arrays are then distributed over the
//                                      work-items (docs/dpia.md, "Temporaries")
//   // known-gap: E0640                risec rejects a valid program with this
//                                      code because it lacks a feature (the
//                                      file says which); the test fails once
//                                      the program compiles, so that the gap
//                                      is closed by turning it into a run
//
// Every size environment runs at every launch, on random inputs (seeded per
// file), and each result must match the interpreter's value. The launches
// use global and local sizes that do not divide the iteration counts of the
// maps they run (fewer or more work-groups than chunks, fewer or more local
// work-items than elements: the generated grid-stride loops cover the rest),
// besides Shine's own configurations. The local size always divides the
// global size: PoCL 3.1 has no non-uniform work-groups and answers
// CL_INVALID_WORK_GROUP_SIZE otherwise, even for -cl-std=CL2.0 or CL3.0.
#include "OclRunner.h"
#include "TestFiles.h"

#include "rise/interp/Interpreter.h"
#include "rise/interp/Value.h"
#include "rise/interp/ValueIO.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace risec;
using namespace risec::testsupport;
namespace fs = std::filesystem;

fs::path shineDir() {
  return fs::path(RISEC_TEST_DATA) / "shine";
}

std::vector<std::string> shineFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(shineDir()))
    if (e.path().extension() == ".rise")
      files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> splitOn(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep))
    if (!trim(part).empty())
      parts.push_back(trim(part));
  return parts;
}

/// The run configuration of a file (see the top of this file).
struct Config {
  bool hasOrigin = false;
  std::vector<rise::interp::SizeEnv> sizes;
  std::vector<Launch> launches;
  std::vector<std::string> launchTexts; ///< as written, for --launch
  bool perLaunch = false;               ///< `// compile: per launch`
  double tolerance = 1e-4;
  std::string expectRejected; ///< a diagnostic code, or empty
  std::string knownGap;       ///< a diagnostic code, or empty
};

/// `[4,2]` as numbers.
std::vector<std::size_t> bracketList(const std::string& s) {
  std::size_t open = s.find('['), close = s.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open)
    throw std::runtime_error("expected [..] in `" + s + "`");
  std::vector<std::size_t> out;
  for (const std::string& v : splitOn(s.substr(open + 1, close - open - 1), ','))
    out.push_back(std::stoul(v));
  return out;
}

Launch parseLaunch(const std::string& text) {
  std::size_t g = text.find("global="), l = text.find("local=");
  if (g == std::string::npos || l == std::string::npos)
    throw std::runtime_error("a launch needs global=[..] and local=[..]: `" + text + "`");
  std::vector<std::size_t> global = bracketList(text.substr(g)),
                           local = bracketList(text.substr(l));
  if (global.empty() || global.size() > 3 || global.size() != local.size())
    throw std::runtime_error("global and local need 1 to 3 equal dimensions: `" + text + "`");
  Launch launch;
  launch.dims = static_cast<unsigned>(global.size());
  for (std::size_t d = 0; d < global.size(); ++d) {
    launch.global[d] = global[d];
    launch.local[d] = local[d];
  }
  return launch;
}

Config parseConfig(const std::string& text) {
  Config c;
  std::istringstream in(text);
  std::string line;
  auto field = [&](const std::string& key, std::string& value) {
    std::string prefix = "// " + key + ":";
    if (line.rfind(prefix, 0) != 0)
      return false;
    value = trim(line.substr(prefix.size()));
    return true;
  };
  while (std::getline(in, line)) {
    std::string value;
    if (line.rfind("// Origin: rise-lang/shine,", 0) == 0)
      c.hasOrigin = true;
    if (field("sizes", value)) {
      for (const std::string& env : splitOn(value, '|')) {
        rise::interp::SizeEnv s;
        for (const std::string& kv : splitOn(env, ',')) {
          std::size_t eq = kv.find('=');
          if (eq == std::string::npos)
            throw std::runtime_error("a size is name=value: `" + kv + "`");
          s[trim(kv.substr(0, eq))] = std::stoll(kv.substr(eq + 1));
        }
        c.sizes.push_back(s);
      }
    } else if (field("launch", value)) {
      for (const std::string& l : splitOn(value, '|')) {
        c.launches.push_back(parseLaunch(l));
        std::string t; // `global=[256,1],local=[256,1]`
        for (char ch : l)
          if (ch != ' ')
            t += ch;
        std::size_t local = t.find("local=");
        if (local != std::string::npos && local > 0 && t[local - 1] != ',')
          t.insert(local, ",");
        c.launchTexts.push_back(t);
      }
    } else if (field("compile", value)) {
      if (value != "per launch")
        throw std::runtime_error("compile: per launch, not `" + value + "`");
      c.perLaunch = true;
    } else if (field("tolerance", value)) {
      c.tolerance = std::stod(value);
    } else if (field("expect", value)) {
      std::string prefix = "rejected ";
      if (value.rfind(prefix, 0) != 0)
        throw std::runtime_error("expect: rejected CODE, not `" + value + "`");
      c.expectRejected = trim(value.substr(prefix.size()));
    } else if (field("known-gap", value)) {
      c.knownGap = splitOn(value, ' ').at(0);
    }
  }
  return c;
}

std::string sizesText(const rise::interp::SizeEnv& s) {
  std::string out;
  for (const auto& [name, value] : s)
    out += (out.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return out;
}

class ShineOpenCL : public ::testing::TestWithParam<std::string> {};

TEST_P(ShineOpenCL, MatchesTheInterpreterOnPocl) {
  const std::string file = GetParam();
  const std::string text = readFile(shineDir() / file);
  Config config;
  ASSERT_NO_THROW(config = parseConfig(text)) << file;
  EXPECT_TRUE(config.hasOrigin) << file << ": no `// Origin: rise-lang/shine, ...` comment";

  // per launch: the first launch's kernel says whether it compiles
  auto compile = [&](std::size_t launch) {
    return compileOpenCL(
        file, text, "", "",
        config.perLaunch && launch < config.launchTexts.size() ? config.launchTexts[launch] : "");
  };
  OclCompileOutcome compiled = compile(0);
  if (!config.expectRejected.empty() || !config.knownGap.empty()) {
    const std::string& code =
        config.expectRejected.empty() ? config.knownGap : config.expectRejected;
    ASSERT_EQ(compiled.status, OclCompileOutcome::Status::Rejected)
        << file << ": expected rejection " << code << ", got " << compiled.describe()
        << (config.knownGap.empty() ? "" : " (a known gap that may be closed now: add runs)");
    EXPECT_EQ(compiled.error->code(), code) << compiled.describe();
    return;
  }
  ASSERT_TRUE(compiled.compiled()) << file << ": " << compiled.describe();
  ASSERT_FALSE(config.sizes.empty()) << file << ": no `// sizes:` line";
  ASSERT_FALSE(config.launches.empty()) << file << ": no `// launch:` line";
  std::vector<OclCompileOutcome> perLaunch;
  for (std::size_t i = 0; config.perLaunch && i < config.launches.size(); ++i) {
    perLaunch.push_back(i == 0 ? compiled : compile(i));
    ASSERT_TRUE(perLaunch.back().compiled())
        << file << " at " << config.launches[i].str() << ": " << perLaunch.back().describe();
  }
  const CompiledKernel& kernel = *compiled.kernel;
  std::string why;
  ASSERT_TRUE(OclRunner::supports(kernel, &why)) << file << ": " << why;
  OclRunner& runner = defaultOclRunner();
  ASSERT_TRUE(runner.ok()) << runner.buildLog();

  std::mt19937_64 rng(std::hash<std::string>{}(file));
  for (const rise::interp::SizeEnv& sizes : config.sizes) {
    rise::interp::EntryInterface iface = rise::interp::instantiateEntry(kernel.def, sizes);
    std::vector<rise::interp::Value> inputs;
    for (const rise::Type& t : iface.inputTypes)
      inputs.push_back(rise::interp::randomValue(t, rng));
    rise::interp::Value expected = rise::interp::evaluate(kernel.def, sizes, inputs);
    std::vector<OclRunResult> results;
    if (config.perLaunch)
      for (std::size_t i = 0; i < config.launches.size(); ++i)
        results.push_back(
            runner.run(*perLaunch[i].kernel, sizes, inputs, {config.launches[i]}).at(0));
    else
      results = runner.run(kernel, sizes, inputs, config.launches);
    for (std::size_t i = 0; i < results.size(); ++i) {
      std::string where = file + " at " + sizesText(sizes) + ", " + config.launches[i].str();
      const OclRunResult& r = results[i];
      if (!r.ok()) {
        ADD_FAILURE() << where << ": the kernel did not run (rc " << r.rc << "): " << r.error;
        continue;
      }
      EXPECT_TRUE(
          rise::interp::valuesClose(*r.output, expected, config.tolerance, config.tolerance, &why))
          << where << ": " << why;
    }
  }
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  return risec::test::testNameOfFile(info.param);
}

INSTANTIATE_TEST_SUITE_P(Ports, ShineOpenCL, ::testing::ValuesIn(shineFiles()), testName);

TEST(ShineOpenCLFiles, TheCorpusIsThere) {
  EXPECT_GE(shineFiles().size(), 10u);
}

} // namespace
