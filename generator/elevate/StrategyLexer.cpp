#include "elevate/StrategyLexer.h"

#include "support/Diagnostic.h"

#include <cctype>

namespace risec::elevate {

std::string tokenDescription(const Token& t) {
  switch (t.kind) {
  case Tok::End:
    return "the end of the file";
  case Tok::Ident:
    return "`" + t.text + "`";
  case Tok::Int:
    return "the number " + t.text;
  default:
    return "`" + t.text + "`";
  }
}

std::vector<Token> lexStrategy(const std::shared_ptr<const SourceFile>& file) {
  std::vector<Token> out;
  const std::string& s = file->text;
  std::size_t i = 0;
  int line = 1, col = 1;
  auto advance = [&](std::size_t n) {
    for (std::size_t k = 0; k < n && i < s.size(); ++k, ++i) {
      if (s[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  };
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      advance(1);
      continue;
    }
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n')
        advance(1);
      continue;
    }
    SourceLocation loc{file, line, col};
    if (s.compare(i, 2, "/*") == 0) {
      std::size_t endPos = s.find("*/", i + 2);
      if (endPos == std::string::npos)
        throw CompileError("E0701", loc, "unterminated comment `/*`");
      advance(endPos + 2 - i);
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_'))
        ++j;
      std::string text = s.substr(i, j - i);
      Tok kind = text == "def"       ? Tok::Def
                 : text == "param"   ? Tok::Param
                 : text == "require" ? Tok::Require
                 : text == "in"      ? Tok::In
                                     : Tok::Ident;
      out.push_back({kind, text, 0, loc});
      advance(j - i);
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])))
        ++j;
      std::string text = s.substr(i, j - i);
      if (text.size() > 9)
        throw CompileError("E0701", loc, "the number " + text + " is too large");
      out.push_back({Tok::Int, text, std::stoll(text), loc});
      advance(j - i);
      continue;
    }
    struct Punct {
      const char* text;
      Tok kind;
    };
    // Longest first: `<+` before `<=` before `<`, `==` before `=`.
    static const Punct puncts[] = {
        {";;", Tok::SemiSemi}, {"<+", Tok::Choice},  {"<=", Tok::Op},      {">=", Tok::Op},
        {"==", Tok::Op},       {"!=", Tok::Op},      {"&&", Tok::Op},      {"(", Tok::LParen},
        {")", Tok::RParen},    {"[", Tok::LBracket}, {"]", Tok::RBracket}, {",", Tok::Comma},
        {";", Tok::Semi},      {"@", Tok::At},       {"=", Tok::Equals},   {"<", Tok::Op},
        {">", Tok::Op},        {"+", Tok::Op},       {"-", Tok::Op},       {"*", Tok::Op},
        {"/", Tok::Op},        {"%", Tok::Op}};
    bool matched = false;
    for (const Punct& p : puncts) {
      std::size_t n = std::char_traits<char>::length(p.text);
      if (s.compare(i, n, p.text) == 0) {
        out.push_back({p.kind, p.text, 0, loc});
        advance(n);
        matched = true;
        break;
      }
    }
    if (!matched)
      throw CompileError("E0701", loc,
                         std::string("unexpected character `") + c + "` in a strategy file");
  }
  out.push_back({Tok::End, "", 0, SourceLocation{file, line, col}});
  return out;
}

} // namespace risec::elevate
