#include "rise/parse/Lexer.h"

#include "rise/parse/SyntaxErrors.h"
#include "support/Diagnostic.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <limits>
#include <utility>

namespace risec::rise {

namespace {

bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool isDigit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

TokenKind keywordOrIdent(std::string_view s) {
  if (s == "def")
    return TokenKind::KwDef;
  if (s == "foreign")
    return TokenKind::KwForeign;
  if (s == "fun")
    return TokenKind::KwFun;
  if (s == "depFun")
    return TokenKind::KwDepFun;
  if (s == "true")
    return TokenKind::KwTrue;
  if (s == "false")
    return TokenKind::KwFalse;
  return TokenKind::Ident;
}

struct Punct {
  std::string_view text;
  TokenKind kind;
};

// Two-character operators first: the lexer takes the longest match.
constexpr Punct kPuncts[] = {
    {"|>", TokenKind::Pipe},    {">>", TokenKind::Compose},   {"=>", TokenKind::FatArrow},
    {"->", TokenKind::Arrow},   {"==", TokenKind::EqEq},      {"!=", TokenKind::NotEq},
    {"<=", TokenKind::LessEq},  {">=", TokenKind::GreaterEq}, {"&&", TokenKind::AndAnd},
    {"||", TokenKind::OrOr},    {"<", TokenKind::Less},       {">", TokenKind::Greater},
    {"+", TokenKind::Plus},     {"-", TokenKind::Minus},      {"*", TokenKind::Star},
    {"/", TokenKind::Slash},    {"%", TokenKind::Percent},    {"^", TokenKind::Caret},
    {"!", TokenKind::Bang},     {".", TokenKind::Dot},        {",", TokenKind::Comma},
    {":", TokenKind::Colon},    {"(", TokenKind::LParen},     {")", TokenKind::RParen},
    {"[", TokenKind::LBracket}, {"]", TokenKind::RBracket},   {"{", TokenKind::LBrace},
    {"}", TokenKind::RBrace},   {"=", TokenKind::Assign},
};

std::optional<ScalarKind> intSuffix(std::string_view s) {
  if (s.empty())
    return ScalarKind::I32;
  if (s == "n")
    return ScalarKind::NatType;
  auto k = scalarFromName(s);
  if (k && (isSignedInt(*k) || isUnsignedInt(*k)) && *k != ScalarKind::NatType)
    return k;
  return std::nullopt;
}

class Lexer {
public:
  explicit Lexer(std::shared_ptr<const SourceFile> file)
      : file_(std::move(file)), text_(file_->text) {
    // Some editors start UTF-8 files with a byte-order mark; it is not part
    // of the program and does not count as a column.
    if (text_.starts_with("\xEF\xBB\xBF"))
      pos_ = 3;
  }

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skipTrivia();
      if (pos_ >= text_.size()) {
        Token end;
        end.loc = here();
        out.push_back(std::move(end));
        return out;
      }
      out.push_back(next());
    }
  }

private:
  char peek(std::size_t k = 0) const { return pos_ + k < text_.size() ? text_[pos_ + k] : '\0'; }
  bool atEnd() const { return pos_ >= text_.size(); }
  SourceLocation here() const { return SourceLocation{file_, line_, col_}; }

  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  [[noreturn]] void fail(const char* code, SourceLocation loc, std::string msg) const {
    throw CompileError(code, std::move(loc), std::move(msg));
  }

  void skipTrivia() {
    for (;;) {
      if (atEnd())
        return;
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (!atEnd() && peek() != '\n')
          advance();
      } else if (c == '/' && peek(1) == '*') {
        skipBlockComment();
      } else {
        return;
      }
    }
  }

  void skipBlockComment() {
    SourceLocation start = here();
    advance();
    advance();
    while (!(peek() == '*' && peek(1) == '/')) {
      if (atEnd())
        fail(syntax::kUnterminatedComment, start,
             "unterminated block comment; close it with `*/` (block comments do not nest)");
      advance();
    }
    advance();
    advance();
  }

  Token next() {
    char c = peek();
    if (isIdentStart(c))
      return lexIdent();
    if (isDigit(c))
      return lexNumber();
    if (c == '"')
      return lexString();
    return lexPunct();
  }

  Token start(TokenKind k) {
    Token t;
    t.kind = k;
    t.loc = here();
    return t;
  }

  std::string_view spelling(std::size_t from) const {
    return std::string_view(text_).substr(from, pos_ - from);
  }

  Token lexIdent() {
    Token t = start(TokenKind::Ident);
    std::size_t from = pos_;
    while (!atEnd() && isIdentChar(peek()))
      advance();
    t.text = std::string(spelling(from));
    t.kind = keywordOrIdent(t.text);
    return t;
  }

  void skipDigits() {
    while (!atEnd() && isDigit(peek()))
      advance();
  }

  /// True if the dot after a number ends a float literal without a fraction
  /// (`1.f`, `2.)`): an array type `4.f32` or `3.(f32, i32)` continues instead.
  bool danglingDot() const {
    char next = peek(1);
    if (next == 'f')
      return !isIdentChar(peek(2));
    return next == '\0' || next == ')' || next == ',' || next == ';' || next == ' ' ||
           next == '\n' || next == '\t' || next == '\r';
  }

  /// True if an exponent (`e3`, `E-3`) starts here.
  bool atExponent() const {
    if (peek() != 'e' && peek() != 'E')
      return false;
    if (isDigit(peek(1)))
      return true;
    return (peek(1) == '+' || peek(1) == '-') && isDigit(peek(2));
  }

  Token lexNumber() {
    Token t = start(TokenKind::Int);
    std::size_t from = pos_;
    skipDigits();
    // A float needs a digit after the dot: `1024.f32` is the size 1024, a dot
    // and `f32`.
    if (peek() == '.' && isDigit(peek(1))) {
      t.kind = TokenKind::Float;
      advance();
      skipDigits();
    } else if (peek() == '.' && danglingDot()) {
      std::string written(spelling(from));
      bool single = peek(1) == 'f';
      fail(syntax::kBadNumber, t.loc,
           "malformed number literal `" + written + "." + (single ? "f" : "") +
               "`: a float literal needs a digit after the dot; write `" + written + ".0" +
               (single ? "f" : "") + "`");
    }
    if (atExponent()) {
      t.kind = TokenKind::Float;
      advance();
      if (peek() == '+' || peek() == '-')
        advance();
      skipDigits();
    }
    std::string_view number = spelling(from);
    std::size_t suffixFrom = pos_;
    while (!atEnd() && isIdentChar(peek()))
      advance();
    std::string_view suffix = spelling(suffixFrom);
    t.text = std::string(spelling(from));
    t.hasSuffix = !suffix.empty();
    if (t.kind == TokenKind::Int)
      finishInt(t, number, suffix);
    else
      finishFloat(t, number, suffix);
    return t;
  }

  void finishInt(Token& t, std::string_view number, std::string_view suffix) const {
    auto kind = intSuffix(suffix);
    if (!kind) {
      std::string hint = suffix.starts_with("f")
                             ? "; a float literal needs a dot: write `" + std::string(number) +
                                   ".0f` or `" + std::string(number) + ".0`"
                             : "; integer suffixes are i8 i16 i32 i64 u8 u16 u32 u64 and n";
      fail(syntax::kBadNumber, t.loc,
           "malformed number literal `" + t.text + "`: unknown suffix `" + std::string(suffix) +
               "`" + hint);
    }
    t.literalKind = *kind;
    auto res = std::from_chars(number.data(), number.data() + number.size(), t.intValue);
    if (res.ec != std::errc())
      fail(syntax::kLiteralRange, t.loc,
           "integer literal `" + t.text +
               "` is too large (the largest is 18446744073709551615u64)");
  }

  void finishFloat(Token& t, std::string_view number, std::string_view suffix) const {
    if (suffix != "" && suffix != "f")
      fail(syntax::kBadNumber, t.loc,
           "malformed number literal `" + t.text + "`: unknown suffix `" + std::string(suffix) +
               "`; write `1.5f` for an f32 or `1.5` for an f64");
    bool single = suffix == "f";
    t.literalKind = single ? ScalarKind::F32 : ScalarKind::F64;
    std::errc ec;
    if (single) {
      float f = 0;
      ec = std::from_chars(number.data(), number.data() + number.size(), f).ec;
      t.floatValue = f;
    } else {
      ec = std::from_chars(number.data(), number.data() + number.size(), t.floatValue).ec;
    }
    if (ec != std::errc())
      fail(syntax::kLiteralRange, t.loc,
           "float literal `" + t.text + "` is out of range for " +
               std::string(scalarName(t.literalKind)));
  }

  Token lexString() {
    Token t = start(TokenKind::String);
    std::size_t from = pos_;
    advance(); // opening quote
    for (;;) {
      if (atEnd())
        fail(syntax::kUnterminatedString, t.loc, "unterminated string literal; close it with `\"`");
      char c = peek();
      if (c == '"')
        break;
      if (c == '\\') {
        t.stringValue += lexEscape();
        continue;
      }
      t.stringValue += c;
      advance();
    }
    advance(); // closing quote
    t.text = std::string(spelling(from));
    return t;
  }

  char lexEscape() {
    SourceLocation loc = here();
    advance(); // backslash
    char c = peek();
    static constexpr std::pair<char, char> kSimple[] = {
        {'n', '\n'}, {'t', '\t'}, {'r', '\r'},  {'0', '\0'}, {'a', '\a'},  {'b', '\b'},
        {'f', '\f'}, {'v', '\v'}, {'\\', '\\'}, {'"', '"'},  {'\'', '\''}, {'?', '?'}};
    for (const auto& [written, meant] : kSimple)
      if (c == written && !atEnd()) {
        advance();
        return meant;
      }
    if (c == 'x' && std::isxdigit(static_cast<unsigned char>(peek(1))) &&
        std::isxdigit(static_cast<unsigned char>(peek(2)))) {
      int v = std::stoi(std::string{peek(1), peek(2)}, nullptr, 16);
      advance();
      advance();
      advance();
      return static_cast<char>(v);
    }
    std::string shown = atEnd() ? "end of input" : "`\\" + std::string(1, c) + "`";
    fail(syntax::kBadEscape, loc,
         "invalid escape sequence " + shown +
             " in string literal; use one of \\n \\t \\r \\0 \\a \\b \\f \\v \\\\ \\\" \\' \\? "
             "\\xHH");
  }

  Token lexPunct() {
    for (const Punct& p : kPuncts) {
      if (std::string_view(text_).substr(pos_, p.text.size()) == p.text) {
        Token t = start(p.kind);
        t.text = std::string(p.text);
        for (std::size_t i = 0; i < p.text.size(); ++i)
          advance();
        return t;
      }
    }
    unexpectedChar();
  }

  [[noreturn]] void unexpectedChar() const {
    char c = peek();
    std::string shown;
    if (std::isprint(static_cast<unsigned char>(c))) {
      shown = "`" + std::string(1, c) + "`";
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02X", static_cast<unsigned char>(c));
      shown = std::string("byte ") + buf;
    }
    std::string hint;
    if (c == '|')
      hint = "; did you mean `|>` or `||`?";
    else if (c == '&')
      hint = "; did you mean `&&`?";
    else if (!std::isprint(static_cast<unsigned char>(c)))
      hint = "; RISE sources are ASCII outside string literals and comments";
    fail(syntax::kUnexpectedChar, here(), "unexpected character " + shown + hint);
  }

  std::shared_ptr<const SourceFile> file_;
  const std::string& text_;
  std::size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
};

} // namespace

std::vector<Token> lex(const std::shared_ptr<const SourceFile>& file) {
  return Lexer(file).run();
}

} // namespace risec::rise
