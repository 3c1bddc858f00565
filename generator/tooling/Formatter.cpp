#include "tooling/Formatter.h"

#include "tooling/EmbeddedStyle.h"
#include "tooling/MemoisableLines.h"

#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>

#include <map>
#include <mutex>
#include <optional>

namespace risec::tooling {

namespace {

/// The repository style, parsed once (empty if the embedded text is invalid).
const std::optional<clang::format::FormatStyle>& repositoryStyle() {
  static const std::optional<clang::format::FormatStyle> style =
      []() -> std::optional<clang::format::FormatStyle> {
    clang::format::FormatStyle s = clang::format::getLLVMStyle();
    s.Language = clang::format::FormatStyle::LK_Cpp;
    if (clang::format::parseConfiguration(kEmbeddedClangFormatStyle, &s))
      return std::nullopt;
    return s;
  }();
  return style;
}

/// One edit of a memoised line, relative to the line's first character.
struct LineEdit {
  unsigned offset, length;
  std::string text;
};

/// How libFormat formatted each memoisable line (MemoisableLines.h) seen so
/// far in this process, by the line's text. Shared by `--jobs` threads.
class LineMemo {
public:
  std::optional<std::vector<LineEdit>> find(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = edits_.find(line);
    if (it == edits_.end())
      return std::nullopt;
    return it->second;
  }
  void store(const std::string& line, std::vector<LineEdit> edits) {
    std::lock_guard<std::mutex> lock(mutex_);
    edits_.emplace(line, std::move(edits));
  }

private:
  std::mutex mutex_;
  std::map<std::string, std::vector<LineEdit>> edits_;
};

LineMemo& lineMemo() {
  static LineMemo memo;
  return memo;
}

std::optional<std::string> applyEdits(const std::string& code,
                                      const clang::tooling::Replacements& replacements) {
  llvm::Expected<std::string> formatted = clang::tooling::applyAllReplacements(code, replacements);
  if (!formatted) {
    llvm::consumeError(formatted.takeError());
    return std::nullopt;
  }
  return *formatted;
}

/// The edits of `all` that lie within `line` (relative to it), or nothing if
/// one crosses its boundary (e.g. its indentation changed): then the line's
/// formatting depends on more than its text and is not memoised.
std::optional<std::vector<LineEdit>> editsWithin(const clang::tooling::Replacements& all,
                                                 LineExtent line) {
  std::vector<LineEdit> edits;
  for (const clang::tooling::Replacement& r : all) {
    std::size_t begin = r.getOffset(), end = begin + r.getLength();
    if (end < line.begin || begin >= line.end) // another line's, or the next token's space
      continue;
    if (begin < line.begin || end > line.end)
      return std::nullopt;
    edits.push_back(
        {static_cast<unsigned>(begin - line.begin), r.getLength(), r.getReplacementText().str()});
  }
  return edits;
}

} // namespace

const char* embeddedStyle() {
  return kEmbeddedClangFormatStyle;
}

std::string formatSourceUnmemoised(const std::string& code, SourceLanguage language,
                                   const std::string& fileName) {
  (void)language; // C, OpenMP and OpenCL are all formatted as C-family code.
  const std::optional<clang::format::FormatStyle>& style = repositoryStyle();
  if (!style)
    return code;
  std::vector<clang::tooling::Range> ranges{
      clang::tooling::Range(0, static_cast<unsigned>(code.size()))};
  return applyEdits(code, clang::format::reformat(*style, code, ranges, fileName)).value_or(code);
}

// libFormat formats only the lines that its ranges touch, so the memoised
// lines seen before are left out of the ranges and their remembered edits
// added to the result. A range that ends two characters before a line
// (before the previous line's last character) still touches the previous
// line's last token but not the line; one that starts right after the line's
// newline touches the next line but not the line.
std::string formatSource(const std::string& code, SourceLanguage language,
                         const std::string& fileName) {
  const std::optional<clang::format::FormatStyle>& style = repositoryStyle();
  if (!style)
    return code;
  std::vector<LineExtent> lines = memoisableLines(code, style->ColumnLimit, style->IndentWidth);
  if (lines.empty())
    return formatSourceUnmemoised(code, language, fileName);

  std::vector<LineExtent> fresh;
  std::vector<std::pair<LineExtent, std::vector<LineEdit>>> known;
  std::vector<clang::tooling::Range> ranges;
  std::size_t cursor = 0;
  for (LineExtent line : lines) {
    std::optional<std::vector<LineEdit>> edits =
        lineMemo().find(code.substr(line.begin, line.end - line.begin));
    if (!edits) {
      fresh.push_back(line);
      continue;
    }
    if (line.begin >= cursor + 2) // may be empty: it still touches a `}` at `cursor`
      ranges.emplace_back(cursor, line.begin - 2 - cursor);
    cursor = line.end + 1;
    known.emplace_back(line, std::move(*edits));
  }
  if (cursor < code.size())
    ranges.emplace_back(cursor, code.size() - cursor);

  clang::tooling::Replacements replacements =
      clang::format::reformat(*style, code, ranges, fileName);
  for (LineExtent line : fresh)
    if (std::optional<std::vector<LineEdit>> edits = editsWithin(replacements, line))
      lineMemo().store(code.substr(line.begin, line.end - line.begin), std::move(*edits));
  for (const auto& [line, edits] : known)
    for (const LineEdit& e : edits)
      if (llvm::Error error = replacements.add(
              clang::tooling::Replacement(fileName, line.begin + e.offset, e.length, e.text))) {
        llvm::consumeError(std::move(error));
        return formatSourceUnmemoised(code, language, fileName);
      }
  return applyEdits(code, replacements).value_or(code);
}

} // namespace risec::tooling
