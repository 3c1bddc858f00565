#include "tooling/MemoisableLines.h"

#include <cctype>
#include <string_view>

namespace risec::tooling {

namespace {

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

/// Walks the text line by line, tracking what the qualification of a line
/// needs: open braces (and whether each opens a code block), open
/// parentheses and brackets, block comments, preprocessor continuations and
/// the last significant character before the line.
class LineScanner {
public:
  LineScanner(const std::string& code, unsigned columnLimit, unsigned indentWidth)
      : code_(code), columnLimit_(columnLimit), indentWidth_(indentWidth) {}

  std::vector<LineExtent> run() {
    std::vector<LineExtent> lines;
    for (std::size_t b = 0; b < code_.size();) {
      std::size_t e = code_.find('\n', b);
      if (e == std::string::npos)
        e = code_.size();
      bool candidate = qualifies(b, e);
      scan(b, e);
      if (candidate && parens_ == 0)
        lines.push_back({b, e});
      b = e + 1;
    }
    return lines;
  }

private:
  bool qualifies(std::size_t b, std::size_t e) const {
    if (e - b <= columnLimit_ || inBlockComment_ || ppContinues_ || parens_ != 0)
      return false;
    if (lastSig_ != ';' && lastSig_ != '{' && lastSig_ != '}')
      return false;
    if (braces_.empty() || !braces_.back())
      return false;
    std::string_view line(code_.data() + b, e - b);
    std::size_t indent = line.find_first_not_of(' ');
    if (indent != indentWidth_ * braces_.size() || line.back() != ';')
      return false;
    char first = line[indent];
    if (!std::isalpha(static_cast<unsigned char>(first)) && first != '_')
      return false;
    return line.find_first_of("{}\"'\\#") == std::string_view::npos &&
           line.find("//") == std::string_view::npos && line.find("/*") == std::string_view::npos;
  }

  void scan(std::size_t b, std::size_t e) {
    std::size_t i = b;
    if (!inBlockComment_) {
      while (i < e && (code_[i] == ' ' || code_[i] == '\t'))
        ++i;
      if (ppContinues_ || (i < e && code_[i] == '#')) {
        ppContinues_ = e > b && code_[e - 1] == '\\';
        lastSig_ = '#';
        return;
      }
    }
    while (i < e) {
      char c = code_[i];
      char next = i + 1 < e ? code_[i + 1] : '\0';
      if (inBlockComment_) {
        if (c == '*' && next == '/') {
          inBlockComment_ = false;
          ++i;
        }
        ++i;
      } else if (c == '/' && next == '/') {
        return;
      } else if (c == '/' && next == '*') {
        inBlockComment_ = true;
        i += 2;
      } else if (c == '"' || c == '\'') {
        i = skipLiteral(i, e);
        lastSig_ = c;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++i;
      } else if (isWordChar(c)) {
        std::size_t start = i;
        while (i < e && isWordChar(code_[i]))
          ++i;
        lastWord_ = code_.substr(start, i - start);
        lastSig_ = 'a';
      } else {
        punctuation(c);
        lastSig_ = c;
        ++i;
      }
    }
  }

  void punctuation(char c) {
    if (c == '(' && parens_ == 0)
      parenOwner_ = lastSig_ == 'a' ? lastWord_ : "";
    if (c == '(' || c == '[')
      ++parens_;
    else if ((c == ')' || c == ']') && parens_ > 0)
      --parens_;
    else if (c == '{') // a switch's statements hang below case labels (a style choice)
      braces_.push_back((lastSig_ == ')' && parenOwner_ != "switch") ||
                        (lastSig_ == 'a' && (lastWord_ == "else" || lastWord_ == "do")));
    else if (c == '}' && !braces_.empty())
      braces_.pop_back();
  }

  /// The position after the string or character literal starting at `i`.
  std::size_t skipLiteral(std::size_t i, std::size_t e) const {
    char quote = code_[i++];
    while (i < e && code_[i] != quote)
      i += code_[i] == '\\' ? 2 : 1;
    return i < e ? i + 1 : e;
  }

  const std::string& code_;
  unsigned columnLimit_, indentWidth_;
  std::vector<bool> braces_; ///< per open brace: whether it opens a code block
  int parens_ = 0;           ///< open parentheses and brackets
  bool inBlockComment_ = false, ppContinues_ = false;
  char lastSig_ = '\0'; ///< the last significant character ('a': a word, '#': a directive)
  std::string lastWord_;
  std::string parenOwner_; ///< the word before the last outermost `(`, e.g. `for`, `switch`
};

} // namespace

std::vector<LineExtent> memoisableLines(const std::string& code, unsigned columnLimit,
                                        unsigned indentWidth) {
  return LineScanner(code, columnLimit, indentWidth).run();
}

} // namespace risec::tooling
