// The memo of long statements in formatSource (tooling/MemoisableLines.h):
// which lines qualify, and that formatting with the memo gives exactly what
// libFormat gives for the whole file, whatever was formatted before.
#include "tooling/Formatter.h"
#include "tooling/MemoisableLines.h"

#include <gtest/gtest.h>

#include <random>

using namespace risec::tooling;

namespace {

/// A statement of about `terms` * 45 characters with nested conditionals,
/// like the fused stencils' (libFormat has to search its line breaks).
std::string longStatement(const std::string& target, int terms, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s = target + " = " + target;
  for (int t = 0; t < terms; ++t)
    s += " + (2 <= i + " + std::to_string(rng() % 4) + " ? (j + " + std::to_string(rng() % 5) +
         " < w ? image[j + w*i - " + std::to_string(rng() % 9) + "] : 0.0f) : 0.0f)";
  return s + ";";
}

std::string indent(int level) {
  return std::string(2 * level, ' ');
}

std::vector<std::string> lineTexts(const std::string& code) {
  std::vector<std::string> out;
  for (LineExtent l : memoisableLines(code, 100, 2))
    out.push_back(code.substr(l.begin, l.end - l.begin));
  return out;
}

/// Formats `code` with the memo and checks it against libFormat on the
/// whole file.
void expectSameAsWholeFile(const std::string& code, const std::string& name) {
  EXPECT_EQ(formatSource(code, SourceLanguage::C11, name),
            formatSourceUnmemoised(code, SourceLanguage::C11, name))
      << code;
}

} // namespace

TEST(MemoisableLines, LongBlockStatementsQualify) {
  std::string stmt = indent(2) + longStatement("acc", 4, 1);
  std::string code = "void f(float* image, int w, int i, int j) {\n"
                     "  for (int k = 0; k < w; k += 1) {\n" +
                     stmt + "\n" + indent(2) + "acc = 0.0f;\n  }\n}\n";
  EXPECT_EQ(lineTexts(code), std::vector<std::string>{stmt});
}

TEST(MemoisableLines, LinesWhoseFormattingHasContextDoNotQualify) {
  std::string stmt = longStatement("acc", 4, 2);
  // indented unlike its brace depth; the body of an `if` without braces; in
  // an initializer; with a comment; inside parentheses; after a directive
  std::vector<std::string> codes = {
      "void f(void) {\n      " + stmt + "\n}\n",
      "void f(void) {\n  if (c)\n  " + stmt + "\n}\n",
      "float a[] = {\n  " + stmt + "\n};\n",
      "void f(void) {\n  " + stmt + " // why\n}\n",
      "void f(void) {\n  g(1,\n  " + stmt + "\n}\n",
      "void f(void) {\n#pragma omp parallel for\n  " + stmt + "\n}\n",
      "struct s {\n  " + stmt + "\n};\n",
      "void f(int k) {\n  switch (k) {\n  case 1:\n    k = 2;\n  " + stmt + "\n  }\n}\n",
      "#define M \\\n  " + stmt + "\n",
  };
  for (const std::string& code : codes)
    EXPECT_EQ(lineTexts(code), std::vector<std::string>{}) << code;
}

TEST(FormatMemo, RepeatedStatementsFormatLikeTheWholeFile) {
  std::string a = longStatement("x", 6, 3), b = longStatement("y.fst", 8, 4);
  std::string body = indent(1) + a + "\n" + indent(1) + b + "\n" + indent(1) + a + "\n";
  // the first file fills the memo, the others use it in other surroundings
  expectSameAsWholeFile(
      "void f(float* image, int w, int i, int j) {\n  float x, y;\n" + body + "}\n", "first.c");
  expectSameAsWholeFile("int g(float* image, int w, int i, int j) {\n  if (w < 0) {\n    return "
                        "1;\n  }\n" +
                            body + "  return 0;\n}\n",
                        "second.c");
  expectSameAsWholeFile("void h(float* image, int w, int i, int j) {\n" + body + "}\n\n\n" +
                            "void k(float* image, int w, int i, int j) {\n" + body + "}\n",
                        "third.c");
}

TEST(FormatMemo, KnownLinesNextToShortAndBlankLines) {
  std::string a = longStatement("x", 5, 5);
  expectSameAsWholeFile("void f(int w) {\n  " + a + "\n}\n", "fill.c");
  // a `}` without indentation, blank lines, a statement that needs reformatting
  expectSameAsWholeFile("void f(int w) {\n  " + a + "\n}\nvoid g(int w) {\n  " + a + "\n\n\n\n  " +
                            a + "\n  int   q=w+1 ;\n  " + a + "\n}\n",
                        "mixed.c");
}

TEST(FormatMemo, StatementsInASwitchAreFormattedBelowTheirCaseLabel) {
  std::string a = longStatement("k", 5, 7);
  expectSameAsWholeFile("void f(int k) {\n  {\n    " + a + "\n  }\n}\n", "block.c");
  expectSameAsWholeFile("void f(int k) {\n  switch (k) {\n  case 1:\n    k = 2;\n    " + a +
                            "\n  }\n}\n",
                        "switch.c");
}

TEST(FormatMemo, StatementsAtOtherDepthsAreFormattedForTheirDepth) {
  std::string a = longStatement("x", 7, 6);
  expectSameAsWholeFile("void f(int w) {\n  " + a + "\n}\n", "depth1.c");
  expectSameAsWholeFile("void f(int w) {\n  {\n    {\n      " + a + "\n    }\n  }\n}\n",
                        "depth3.c");
  // the same text indented like depth 1, but at depth 3: not memoised
  expectSameAsWholeFile("void f(int w) {\n  {\n    {\n  " + a + "\n    }\n  }\n}\n", "wrong.c");
}
