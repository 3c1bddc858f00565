// The diagnostics corpus (tests/rise/errors/*.rise): every file is run
// through the `risec` binary, which must fail as a user error (exit code 1),
// print nothing on stdout, and print the expected diagnostic first on stderr.
//
// Directives (the first comment lines of the file):
//   // error: LINE:COL: MESSAGE [CODE]
//       the first line of stderr must be `FILE:LINE:COL: error: MESSAGE [CODE]`,
//       FILE being the path as passed to risec
//   // args: SUBCOMMAND ARGS...      (optional)
//       run `risec SUBCOMMAND FILE ARGS...` instead of `risec check FILE`
//   // note: TEXT                     (optional, repeatable)
//       stderr must contain `FILE:TEXT` (a note and its location)
//   // strategy: NAME.elevate         (optional)
//       add `--strategy DIR/NAME.elevate` (the strategy file beside the
//       program); the error directive then speaks about that file
//   // strategy-note: TEXT            (optional, repeatable)
//       stderr must contain `DIR/NAME.elevate:TEXT`
#include "../support/Process.h"

#include "TestFiles.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMinimumCorpusSize = 25;

fs::path corpusDir() {
  return fs::path(RISEC_TEST_DATA) / "rise" / "errors";
}

std::vector<std::string> corpusFiles() {
  return risec::test::filesWithExtension(corpusDir(), ".rise");
}

using risec::test::readFile;

using risec::test::trim;

struct Expectation {
  std::string error;                      ///< "LINE:COL: MESSAGE [CODE]"
  std::vector<std::string> args;          ///< empty: `check`
  std::vector<std::string> notes;         ///< "LINE:COL: note: MESSAGE"
  std::string strategy;                   ///< a strategy file beside the program; empty: none
  std::vector<std::string> strategyNotes; ///< notes in the strategy file
};

/// Reads the directives from the leading comment lines.
std::optional<Expectation> parseDirectives(const std::string& text) {
  Expectation e;
  bool haveError = false;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("//", 0) != 0)
      break;
    if (line.rfind("// error:", 0) == 0) {
      e.error = trim(line.substr(9));
      haveError = true;
    } else if (line.rfind("// strategy-note:", 0) == 0) {
      e.strategyNotes.push_back(trim(line.substr(17)));
    } else if (line.rfind("// strategy:", 0) == 0) {
      e.strategy = trim(line.substr(12));
    } else if (line.rfind("// note:", 0) == 0) {
      e.notes.push_back(trim(line.substr(8)));
    } else if (line.rfind("// args:", 0) == 0) {
      std::stringstream words(line.substr(8));
      std::string w;
      while (words >> w)
        e.args.push_back(w);
    }
  }
  if (!haveError)
    return std::nullopt;
  return e;
}

class ErrorCorpusTest : public ::testing::TestWithParam<std::string> {};

TEST(ErrorCorpus, HasEnoughFiles) {
  EXPECT_GE(corpusFiles().size(), kMinimumCorpusSize)
      << "the error corpus in " << corpusDir() << " must hold at least " << kMinimumCorpusSize
      << " files";
}

TEST_P(ErrorCorpusTest, Diagnostic) {
  const std::string file = (corpusDir() / GetParam()).string();
  const std::string text = readFile(file);
  ASSERT_FALSE(text.empty()) << "cannot read " << file;
  std::optional<Expectation> expect = parseDirectives(text);
  ASSERT_TRUE(expect) << file << ": missing `// error: LINE:COL: MESSAGE [CODE]` directive";

  std::vector<std::string> argv{RISEC_BINARY};
  if (expect->args.empty()) {
    argv.push_back("check");
    argv.push_back(file);
  } else {
    argv.push_back(expect->args.front());
    argv.push_back(file);
    argv.insert(argv.end(), expect->args.begin() + 1, expect->args.end());
  }
  const std::string strategy =
      expect->strategy.empty() ? "" : (corpusDir() / expect->strategy).string();
  if (!strategy.empty()) {
    argv.push_back("--strategy");
    argv.push_back(strategy);
  }
  risec::test::ProcessResult r = risec::test::runProcess(argv);

  // "LINE:COL: MESSAGE" becomes "FILE:LINE:COL: error: MESSAGE".
  const std::string& e = expect->error;
  std::size_t first = e.find(':');
  std::size_t second = first == std::string::npos ? first : e.find(':', first + 1);
  ASSERT_NE(second, std::string::npos) << "malformed error directive: " << e;
  std::string expected = (strategy.empty() ? file : strategy) + ":" + e.substr(0, second) +
                         ": error:" + e.substr(second + 1);

  std::string firstLine = r.err.substr(0, r.err.find('\n'));
  EXPECT_EQ(r.exitCode, 1) << "stderr:\n" << r.err;
  EXPECT_EQ(r.out, "") << "stdout must be empty on an error";
  EXPECT_EQ(firstLine, expected) << "full stderr:\n" << r.err;
  for (const std::string& note : expect->notes)
    EXPECT_NE(r.err.find(file + ":" + note), std::string::npos)
        << "missing `" << file << ":" << note << "` in stderr:\n"
        << r.err;
  for (const std::string& note : expect->strategyNotes)
    EXPECT_NE(r.err.find(strategy + ":" + note), std::string::npos)
        << "missing `" << strategy << ":" << note << "` in stderr:\n"
        << r.err;
}

std::string testName(const ::testing::TestParamInfo<std::string>& info) {
  return risec::test::testNameOfFile(info.param);
}

INSTANTIATE_TEST_SUITE_P(Errors, ErrorCorpusTest, ::testing::ValuesIn(corpusFiles()), testName);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ErrorCorpusTest);

// ---- the error index -----------------------------------------------------------
//
// docs/errors.md has one table row (`| E0xyz | ...`) per error code, and the
// codes the compiler emits are the quoted literals "E0xyz" in generator/
// (CompileError("E0612", ...), the kUnexpectedChar = "E0101" constants).
// Comments name codes unquoted and do not count.

fs::path projectRoot() {
  return fs::path(RISEC_TEST_DATA).parent_path();
}

/// The codes in the rows of docs/errors.md, with how often each has a row.
std::map<std::string, int> documentedCodes() {
  std::map<std::string, int> codes;
  std::stringstream in(readFile(projectRoot() / "docs" / "errors.md"));
  std::string line;
  const std::regex row(R"(^\| (E0[0-9]{3}) \|)");
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_search(line, m, row))
      ++codes[m[1]];
  return codes;
}

/// The quoted codes in the compiler's sources, each with the first file that has it.
std::map<std::string, std::string> emittedCodes() {
  std::map<std::string, std::string> codes;
  const std::regex literal(R"re("(E0[0-9]{3})")re");
  for (const auto& entry : fs::recursive_directory_iterator(projectRoot() / "generator")) {
    std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h"))
      continue;
    std::string text = readFile(entry.path());
    for (std::sregex_iterator it(text.begin(), text.end(), literal), end; it != end; ++it)
      codes.emplace((*it)[1], entry.path().lexically_relative(projectRoot()).string());
  }
  return codes;
}

TEST(ErrorIndex, EveryEmittedCodeHasExactlyOneRow) {
  std::map<std::string, std::string> emitted = emittedCodes();
  std::map<std::string, int> documented = documentedCodes();
  ASSERT_GE(emitted.size(), 100u) << "the scan of generator/ found too few codes";
  for (const auto& [code, file] : emitted) {
    auto it = documented.find(code);
    EXPECT_TRUE(it != documented.end())
        << code << " (emitted in " << file << ") has no row in docs/errors.md";
    if (it != documented.end()) {
      EXPECT_EQ(it->second, 1) << code << " has " << it->second << " rows in docs/errors.md";
    }
  }
}

TEST(ErrorIndex, DocumentsNoCodeTheCompilerDoesNotEmit) {
  std::map<std::string, std::string> emitted = emittedCodes();
  for (const auto& [code, rows] : documentedCodes())
    EXPECT_TRUE(emitted.count(code))
        << "docs/errors.md documents " << code << ", which no source in generator/ emits";
}

} // namespace
