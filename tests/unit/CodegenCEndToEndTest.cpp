// End to end for the C back end (issue 3's must-show): every computable
// program of the corpus (tests/rise/*.rise, those with `// eval:` directives)
// and of tests/e2e/*.rise is compiled to C, built with gcc (and clang when
// installed) `-std=c11 -Wall -Wextra -Werror -O1` together with a generated
// driver, run on random inputs at several sizes, and compared with the
// reference interpreter. Sizes that violate a precondition must make the
// function return 1 without writing the output; a negative size must return 2.
//
// Programs the back end cannot compile yet are listed in kNotYetCompilable
// with the reason; the test checks that they still fail (so the list stays
// true) and every other program must compile.
//
// When the tests are built with RISEC_SANITIZE, the generated C is built with
// -fsanitize=address,undefined as well.
#include "CKernelRunner.h"
#include "codegen/Compile.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace risec;
using namespace risec::rise;
using namespace risec::testsupport;
namespace fs = std::filesystem;

namespace {

const std::map<std::string, std::string> kNotYetCompilable = {};

constexpr double kRelativeTolerance = 1e-4;
constexpr double kAbsoluteTolerance = 1e-5;
constexpr std::size_t kMaxElements = 4096; ///< per input, to keep the interpreter fast
constexpr int kValidSizeSets = 5;

using risec::test::readFile;

struct Program {
  std::string file; ///< relative to tests/
  fs::path path;
};

std::vector<Program> programs() {
  std::vector<Program> v;
  for (const char* dir : {"rise", "e2e"}) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(RISEC_TEST_DATA) / dir, ec))
      if (e.is_regular_file() && e.path().extension() == ".rise")
        v.push_back({std::string(dir) + "/" + e.path().filename().string(), e.path()});
  }
  std::sort(v.begin(), v.end(), [](const Program& a, const Program& b) { return a.file < b.file; });
  return v;
}

// ---- sizes ----------------------------------------------------------------------

using Sizes = interp::SizeEnv;

bool satisfies(const TypedDef& def, const Sizes& s) {
  try {
    interp::instantiateEntry(def, s);
    return true;
  } catch (const CompileError&) {
    return false;
  }
}

std::vector<std::int64_t> inputElementCounts(const TypedDef& def, const Sizes& s) {
  std::vector<std::int64_t> v;
  for (const Type& t : interp::instantiateEntry(def, s).inputTypes)
    v.push_back(elementCount(t));
  return v;
}

/// Directive sizes first, then random ones (odd and non-divisible included
/// whenever the preconditions allow), all small enough for the interpreter.
void chooseSizes(const TypedDef& def, const std::string& text, std::vector<Sizes>& valid,
                 std::vector<Sizes>& invalid) {
  std::vector<std::string> names = interp::sizeParameters(def);
  auto small = [&](const Sizes& s) {
    for (std::int64_t c : inputElementCounts(def, s))
      if (c > static_cast<std::int64_t>(kMaxElements))
        return false;
    return true;
  };
  auto add = [&](const Sizes& s) {
    if (std::find(valid.begin(), valid.end(), s) == valid.end() && small(s))
      valid.push_back(s);
  };
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    auto pos = line.find("// eval:");
    if (pos == std::string::npos)
      continue;
    std::string sz = line.substr(pos + 8, line.find('|') - pos - 8);
    Sizes s;
    std::istringstream items(sz);
    for (std::string item; std::getline(items, item, ',');) {
      auto eq = item.find('=');
      if (eq == std::string::npos)
        continue;
      std::string name = item.substr(0, eq);
      name.erase(0, name.find_first_not_of(" "));
      s[name] = std::stoll(item.substr(eq + 1));
    }
    if (s.size() == names.size() && satisfies(def, s))
      add(s);
  }
  if (names.empty()) {
    if (valid.empty())
      valid.push_back({});
    return;
  }
  static const std::int64_t candidates[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 11,
                                            12, 13, 16, 17, 24, 31, 32, 33, 48, 64};
  std::mt19937_64 rng(42);
  int wanted = static_cast<int>(valid.size()) + kValidSizeSets;
  for (int attempt = 0; attempt < 4000 && static_cast<int>(valid.size()) < wanted; ++attempt) {
    Sizes s;
    for (const std::string& n : names)
      s[n] = candidates[rng() % std::size(candidates)];
    if (satisfies(def, s))
      add(s);
    else if (invalid.empty()) {
      // a precondition violation that is not a negative size
      invalid.push_back(s);
    }
  }
}

// ---- the test ---------------------------------------------------------------------

void PrintTo(const Program& p, std::ostream* os) {
  *os << p.file;
}

class CodegenCEndToEnd : public ::testing::TestWithParam<Program> {};

std::string testName(const ::testing::TestParamInfo<Program>& info) {
  std::string n = info.param.file;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return n;
}

TEST_P(CodegenCEndToEnd, MatchesTheInterpreter) {
  const Program& prog = GetParam();
  std::string text = readFile(prog.path);
  std::string base = prog.path.filename().string();
  bool listed = kNotYetCompilable.count(base) > 0;
  bool computable = text.find("// eval:") != std::string::npos;

  rise::Program program = parseProgram(makeSourceFile(prog.path.string(), text));
  std::string entry = program.defs.back().name;
  TypedDef def = inferDef(program, entry);
  std::string symbol = "k_" + entry;
  codegen::CompileResult result;
  try {
    result = codegen::compileToC(program, def, {symbol, prog.file, "test", ""});
  } catch (const CompileError& e) {
    if (listed)
      GTEST_SKIP() << "not yet compilable (" << kNotYetCompilable.at(base) << "): " << e.code()
                   << " " << e.message();
    FAIL() << prog.file << ": " << headline(e);
  } catch (const std::exception& e) {
    FAIL() << prog.file << ": internal error: " << e.what();
  }
  ASSERT_FALSE(listed) << base << " compiles now; remove it from kNotYetCompilable";
  if (!computable)
    GTEST_SKIP() << "no // eval: directive (not computable by the interpreter)";

  fs::path dir = fs::temp_directory_path() /
                 ("risec-e2e-" + std::to_string(::getpid()) + "-" + testName({GetParam(), 0}));
  std::vector<std::string> sizeNames = interp::sizeParameters(def);
  std::string driver = driverSource(symbol, def, sizeNames.size());
  std::vector<std::string> binaries;
  for (const char* cc : {"gcc", "clang"}) {
    if (std::string(cc) == "clang" && !haveClang())
      continue;
    std::string log;
    int st = buildKernel(dir, symbol, result.files, driver, cc, defaultCFlags(), log);
    ASSERT_EQ(st, 0) << cc << " failed on the generated C:\n" << log << "\n" << result.files.source;
    binaries.push_back((dir / cc).string());
  }

  std::vector<Sizes> valid, invalid;
  chooseSizes(def, text, valid, invalid);
  ASSERT_FALSE(valid.empty()) << "no sizes satisfy the preconditions";

  auto runAll = [&](const std::string& input) {
    std::vector<std::string> outs;
    for (const std::string& exe : binaries) {
      std::string out;
      int st = runDriver(dir, exe, input, out);
      EXPECT_EQ(st, 0) << exe << " exited with " << st << ":\n" << out;
      outs.push_back(out);
    }
    return outs;
  };
  auto sizesText = [&](const Sizes& s) {
    std::string t;
    for (const std::string& n : sizeNames)
      t += (t.empty() ? "" : ",") + n + "=" + std::to_string(s.at(n));
    return t.empty() ? std::string("-") : t;
  };

  int checked = 0;
  for (const Sizes& s : valid) {
    interp::EntryInterface iface = interp::instantiateEntry(def, s);
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      std::mt19937_64 rng(seed * 7919 + 17);
      std::vector<interp::Value> inputs;
      for (const Type& t : iface.inputTypes)
        inputs.push_back(interp::randomValue(t, rng));
      interp::Value expected;
      try {
        expected = interp::evaluate(def, s, inputs);
      } catch (const CompileError&) {
        continue; // e.g. an integer division by zero for these inputs: try others
      }
      for (const std::string& out : runAll(inputRecord(def, sizeNames, s, inputs))) {
        std::vector<std::string> tok = tokens(out);
        ASSERT_GE(tok.size(), 2u) << out;
        ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << "sizes " << sizesText(s) << ":\n" << out;
        std::size_t pos = 2;
        interp::Value actual = unflatten(iface.outputType, tok, pos);
        std::string why;
        EXPECT_TRUE(
            interp::valuesClose(actual, expected, kRelativeTolerance, kAbsoluteTolerance, &why))
            << prog.file << " sizes " << sizesText(s) << " seed " << seed << ": " << why
            << "\nC:      " << interp::valueToJson(actual)
            << "\nexpected: " << interp::valueToJson(expected);
      }
      ++checked;
      break;
    }
  }
  EXPECT_GT(checked, 0) << "no size set could be evaluated by the interpreter";

  // A violated precondition: return 1, output untouched.
  for (const Sizes& s : invalid) {
    std::ostringstream in;
    for (const std::string& n : sizeNames)
      in << s.at(n) << "\n";
    writeDummyInputsAndOutputs(def, in);
    for (const std::string& out : runAll(in.str()))
      EXPECT_EQ(out, "rc 1\nuntouched 1\n")
          << "sizes " << sizesText(s) << " violate a precondition";
  }
  // A negative size: return 2, output untouched.
  if (!sizeNames.empty()) {
    std::ostringstream in;
    for (std::size_t i = 0; i < sizeNames.size(); ++i)
      in << (i == 0 ? -1 : 1) << "\n";
    writeDummyInputsAndOutputs(def, in);
    for (const std::string& out : runAll(in.str()))
      EXPECT_EQ(out, "rc 2\nuntouched 1\n") << "a negative size";
  }
  if (!HasFailure())
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Programs, CodegenCEndToEnd, ::testing::ValuesIn(programs()), testName);

TEST(CodegenCEndToEnd, EveryUnsupportedProgramExists) {
  for (const auto& [file, reason] : kNotYetCompilable)
    EXPECT_TRUE(fs::exists(fs::path(RISEC_TEST_DATA) / "rise" / file)) << file << ": " << reason;
}

} // namespace
