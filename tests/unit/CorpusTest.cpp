// The program corpus (tests/rise/*.rise): every program is parsed, printed and
// re-parsed, type-checked, and evaluated with the reference interpreter on the
// inputs given in its directive comments.
//
// Directives (comment lines anywhere in the file, normally at the top):
//   // type: T                 typeToString of the entry (the last def)
//   // requires: P             one per line, in order: the entry's preconditions
//                              (when absent, the preconditions are not checked)
//   // eval: SIZES | ARGS => RESULT
//       SIZES   `n=2,m=3`, or `-` when the entry has no size parameters
//       ARGS    a JSON list of the entry's value arguments, in order
//       RESULT  the expected result as JSON (floats: relative tolerance 1e-5,
//               absolute 1e-6; everything else exactly)
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"
#include "support/Diagnostic.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace risec;
using namespace risec::rise;
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMinimumCorpusSize = 30;
constexpr double kRelativeTolerance = 1e-5;
constexpr double kAbsoluteTolerance = 1e-6;

fs::path corpusDir() {
  return fs::path(RISEC_TEST_DATA) / "rise";
}

std::vector<std::string> corpusFiles() {
  return risec::test::filesWithExtension(corpusDir(), ".rise");
}

using risec::test::readFile;

using risec::test::trim;

struct EvalCase {
  int line = 0;
  std::string sizesText;
  interp::SizeEnv sizes;
  std::string args;     ///< a JSON list
  std::string expected; ///< JSON
};

struct Directives {
  std::optional<std::string> type;
  std::optional<std::vector<std::string>> requires_;
  std::vector<EvalCase> evals;
};

/// "n=2,m=3" or "-".
interp::SizeEnv parseSizes(const std::string& text) {
  interp::SizeEnv sizes;
  if (text == "-")
    return sizes;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    auto eq = item.find('=');
    if (eq == std::string::npos)
      throw std::runtime_error("malformed size `" + item + "` (write n=4)");
    sizes[trim(item.substr(0, eq))] = std::stoll(trim(item.substr(eq + 1)));
  }
  return sizes;
}

Directives parseDirectives(const std::string& text) {
  Directives d;
  std::stringstream in(text);
  std::string line;
  int number = 0;
  auto directive = [&](const std::string& l, const std::string& key) -> std::optional<std::string> {
    std::string prefix = "// " + key + ":";
    if (l.rfind(prefix, 0) != 0)
      return std::nullopt;
    return trim(l.substr(prefix.size()));
  };
  while (std::getline(in, line)) {
    ++number;
    if (auto t = directive(line, "type")) {
      d.type = *t;
    } else if (auto r = directive(line, "requires")) {
      if (!d.requires_)
        d.requires_.emplace();
      d.requires_->push_back(*r);
    } else if (auto e = directive(line, "eval")) {
      auto bar = e->find('|');
      auto arrow = e->rfind("=>");
      if (bar == std::string::npos || arrow == std::string::npos || arrow < bar)
        throw std::runtime_error("line " + std::to_string(number) +
                                 ": malformed eval directive (SIZES | ARGS => RESULT)");
      EvalCase c;
      c.line = number;
      c.sizesText = trim(e->substr(0, bar));
      c.sizes = parseSizes(c.sizesText);
      c.args = trim(e->substr(bar + 1, arrow - bar - 1));
      c.expected = trim(e->substr(arrow + 2));
      d.evals.push_back(std::move(c));
    }
  }
  return d;
}

/// The texts of the elements of a JSON list (top level only). JSON inputs
/// never contain strings, so brackets can be counted directly.
std::vector<std::string> splitJsonList(const std::string& list) {
  std::string s = trim(list);
  if (s.size() < 2 || s.front() != '[' || s.back() != ']')
    throw std::runtime_error("the arguments must be a JSON list, got: " + s);
  std::vector<std::string> items;
  std::string inner = trim(s.substr(1, s.size() - 2));
  if (inner.empty())
    return items;
  int depth = 0;
  std::string current;
  for (char c : inner) {
    if (c == '[')
      ++depth;
    else if (c == ']')
      --depth;
    if (c == ',' && depth == 0) {
      items.push_back(trim(current));
      current.clear();
      continue;
    }
    current += c;
  }
  items.push_back(trim(current));
  return items;
}

std::string describe(const CompileError& e) {
  return headline(e) + " [" + e.code() + "]";
}

class CorpusTest : public ::testing::TestWithParam<std::string> {};

TEST(Corpus, HasEnoughPrograms) {
  EXPECT_GE(corpusFiles().size(), kMinimumCorpusSize)
      << "the corpus in " << corpusDir() << " must hold at least " << kMinimumCorpusSize
      << " programs";
}

TEST_P(CorpusTest, Program) {
  const fs::path path = corpusDir() / GetParam();
  const std::string text = readFile(path);
  ASSERT_FALSE(text.empty()) << "cannot read " << path;

  Directives dir;
  ASSERT_NO_THROW(dir = parseDirectives(text)) << path;
  ASSERT_TRUE(dir.type) << path << ": missing `// type:` directive";
  ASSERT_FALSE(dir.evals.empty()) << path << ": missing `// eval:` directive";

  // Parse.
  Program program;
  try {
    program = parseProgram(makeSourceFile(path.string(), text));
  } catch (const CompileError& e) {
    FAIL() << "parse error: " << describe(e);
  }
  ASSERT_FALSE(program.defs.empty()) << path << ": no def";

  // Printer round trip.
  {
    std::string printed = printProgram(program);
    Program reparsed;
    try {
      reparsed = parseProgram(makeSourceFile(path.string() + " (printed)", printed));
    } catch (const CompileError& e) {
      FAIL() << "the printed program does not parse: " << describe(e) << "\n" << printed;
    }
    ASSERT_EQ(reparsed.defs.size(), program.defs.size()) << printed;
    ASSERT_EQ(reparsed.foreigns.size(), program.foreigns.size()) << printed;
    for (std::size_t i = 0; i < program.defs.size(); ++i) {
      EXPECT_EQ(reparsed.defs[i].name, program.defs[i].name);
      EXPECT_TRUE(alphaEquivalent(reparsed.defs[i].body, program.defs[i].body))
          << "def `" << program.defs[i].name << "` changes in the round trip:\n"
          << printed;
    }
  }

  // Type of the entry (the last def).
  const std::string entry = program.defs.back().name;
  TypedDef typed;
  try {
    typed = inferDef(program, entry);
  } catch (const CompileError& e) {
    FAIL() << "type error: " << describe(e);
  }
  EXPECT_EQ(typeToString(typed.type), *dir.type);

  if (dir.requires_) {
    std::vector<std::string> actual;
    for (const Precondition& p : typed.preconditions)
      actual.push_back(p.str());
    EXPECT_EQ(actual, *dir.requires_);
  }

  // Every size-parameterised program is evaluated at two size choices at least.
  if (!interp::sizeParameters(typed).empty()) {
    std::set<std::string> choices;
    for (const EvalCase& c : dir.evals)
      choices.insert(c.sizesText);
    EXPECT_GE(choices.size(), 2u) << path << ": evaluate with at least two size choices";
  }

  // Evaluation.
  for (const EvalCase& c : dir.evals) {
    SCOPED_TRACE(path.filename().string() + ":" + std::to_string(c.line) + ": eval " + c.sizesText +
                 " | " + c.args);
    try {
      interp::EntryInterface iface = interp::instantiateEntry(typed, c.sizes);
      std::vector<interp::Value> inputs =
          interp::parseInputs(typed, c.sizes, splitJsonList(c.args));
      interp::Value expected =
          interp::parseValue(c.expected, iface.outputType, "the expected result");
      interp::Value actual = interp::evaluate(typed, c.sizes, inputs);
      std::string why;
      EXPECT_TRUE(
          interp::valuesClose(actual, expected, kRelativeTolerance, kAbsoluteTolerance, &why))
          << "result " << interp::valueToJson(actual) << "\nexpected " << c.expected << "\n"
          << why;
    } catch (const CompileError& e) {
      ADD_FAILURE() << "evaluation failed: " << describe(e);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "evaluation failed: " << e.what();
    }
  }
}

// `risec check` type-checks every def on its own, helpers included: an
// unannotated helper must generalise rather than fail.
TEST_P(CorpusTest, EveryDefTypeChecks) {
  const fs::path path = corpusDir() / GetParam();
  Program program;
  try {
    program = parseProgram(makeSourceFile(path.string(), readFile(path)));
  } catch (const CompileError& e) {
    FAIL() << "parse error: " << describe(e);
  }
  for (const Def& d : program.defs) {
    try {
      inferDef(program, d.name);
    } catch (const CompileError& e) {
      ADD_FAILURE() << "def `" << d.name << "` does not type-check: " << describe(e);
    }
  }
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  return risec::test::testNameOfFile(info.param);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusTest, ::testing::ValuesIn(corpusFiles()), testName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusTest);

} // namespace
