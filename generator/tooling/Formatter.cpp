#include "tooling/Formatter.h"

#include "tooling/EmbeddedStyle.h"
#include "tooling/MemoisableLines.h"

#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>

namespace risec::tooling {

namespace {

/// The repository style, parsed once (null if the embedded text is invalid).
/// Built in place and never copied: a FormatStyle copy or move constructor
/// instantiated here would also serve libclang-cpp's own copies of styles
/// (ELF interposition of the inline constructor), and LLVM 14 copies styles
/// whose InheritsParentConfig it never initialised: UBSan reports that load
/// in the sanitizer build.
const clang::format::FormatStyle* repositoryStyle() {
  static clang::format::FormatStyle style = clang::format::getLLVMStyle();
  static const bool valid = [] {
    style.InheritsParentConfig = false;
    style.Language = clang::format::FormatStyle::LK_Cpp;
    return !clang::format::parseConfiguration(kEmbeddedClangFormatStyle, &style);
  }();
  return valid ? &style : nullptr;
}

/// One edit of a memoised line, relative to the line's first character.
struct LineEdit {
  unsigned offset, length;
  std::string text;
};

/// How libFormat formatted each memoisable line (MemoisableLines.h) seen so
/// far in this process, by the line's text. Shared by `--jobs` threads: a
/// line is formatted by one call at a time, the others wait for its edits.
class LineMemo {
public:
  /// What a call knows about its lines: their edits, if known.
  struct LookUp {
    std::vector<std::optional<std::vector<LineEdit>>> edits;
    std::vector<std::string> claimed; ///< this call formats these; it must settle them
  };

  /// The known edits of `lines`. The unknown lines that no other call is
  /// formatting are claimed by this call. If every unknown line is being
  /// formatted by other calls, waits for them first: a call that claims
  /// nothing cannot close a cycle of waiting calls.
  LookUp lookUp(const std::vector<std::string>& lines) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      LookUp r;
      bool waitForOthers = false;
      for (const std::string& line : lines) {
        auto it = entries_.find(line);
        if (it == entries_.end()) {
          entries_.emplace(line, Entry{});
          r.claimed.push_back(line);
        } else if (it->second.state == State::Known) {
          r.edits.push_back(it->second.edits);
          continue;
        } else if (it->second.state == State::Pending &&
                   std::find(r.claimed.begin(), r.claimed.end(), line) == r.claimed.end()) {
          waitForOthers = true;
        }
        r.edits.push_back(std::nullopt);
      }
      if (!waitForOthers || !r.claimed.empty())
        return r;
      changed_.wait(lock);
    }
  }

  /// Ends a claim: `edits` if the line's formatting depends on its text
  /// alone, nothing if not (later calls then format it themselves).
  void settle(const std::string& line, std::optional<std::vector<LineEdit>> edits) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      Entry& e = entries_[line];
      e.state = edits ? State::Known : State::Unmemoisable;
      if (edits)
        e.edits = std::move(*edits);
    }
    changed_.notify_all();
  }

private:
  enum class State { Pending, Known, Unmemoisable };
  struct Entry {
    State state = State::Pending;
    std::vector<LineEdit> edits;
  };
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, Entry> entries_;
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
  const clang::format::FormatStyle* style = repositoryStyle();
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
  const clang::format::FormatStyle* style = repositoryStyle();
  if (!style)
    return code;
  std::vector<LineExtent> lines = memoisableLines(code, style->ColumnLimit, style->IndentWidth);
  if (lines.empty())
    return formatSourceUnmemoised(code, language, fileName);

  std::vector<std::string> texts;
  for (LineExtent line : lines)
    texts.push_back(code.substr(line.begin, line.end - line.begin));
  LineMemo::LookUp memo = lineMemo().lookUp(texts);
  // Whatever happens, the claims of this call are settled (as unmemoisable
  // unless settled with edits below), so that no other call waits forever.
  struct Settle {
    std::vector<std::string>& claimed;
    ~Settle() {
      for (const std::string& line : claimed)
        lineMemo().settle(line, std::nullopt);
    }
  } settleRest{memo.claimed};

  std::vector<clang::tooling::Range> ranges;
  std::size_t cursor = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!memo.edits[i])
      continue;
    if (lines[i].begin >= cursor + 2) // may be empty: it still touches a `}` at `cursor`
      ranges.emplace_back(cursor, lines[i].begin - 2 - cursor);
    cursor = lines[i].end + 1;
  }
  if (cursor < code.size())
    ranges.emplace_back(cursor, code.size() - cursor);

  clang::tooling::Replacements replacements =
      clang::format::reformat(*style, code, ranges, fileName);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    auto claim = std::find(memo.claimed.begin(), memo.claimed.end(), texts[i]);
    if (memo.edits[i] || claim == memo.claimed.end())
      continue;
    lineMemo().settle(texts[i], editsWithin(replacements, lines[i]));
    memo.claimed.erase(claim);
  }
  for (std::size_t i = 0; i < lines.size(); ++i)
    for (const LineEdit& e : memo.edits[i].value_or(std::vector<LineEdit>{}))
      if (llvm::Error error = replacements.add(
              clang::tooling::Replacement(fileName, lines[i].begin + e.offset, e.length, e.text))) {
        llvm::consumeError(std::move(error));
        return formatSourceUnmemoised(code, language, fileName);
      }
  return applyEdits(code, replacements).value_or(code);
}

} // namespace risec::tooling
