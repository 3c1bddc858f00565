#include "rise/parse/Token.h"

#include <algorithm>
#include <cctype>

namespace risec::rise {

namespace {

std::string_view punctSpelling(TokenKind k) {
  switch (k) {
  case TokenKind::Pipe:
    return "|>";
  case TokenKind::Compose:
    return ">>";
  case TokenKind::FatArrow:
    return "=>";
  case TokenKind::Arrow:
    return "->";
  case TokenKind::EqEq:
    return "==";
  case TokenKind::NotEq:
    return "!=";
  case TokenKind::LessEq:
    return "<=";
  case TokenKind::GreaterEq:
    return ">=";
  case TokenKind::Less:
    return "<";
  case TokenKind::Greater:
    return ">";
  case TokenKind::AndAnd:
    return "&&";
  case TokenKind::OrOr:
    return "||";
  case TokenKind::Plus:
    return "+";
  case TokenKind::Minus:
    return "-";
  case TokenKind::Star:
    return "*";
  case TokenKind::Slash:
    return "/";
  case TokenKind::Percent:
    return "%";
  case TokenKind::Caret:
    return "^";
  case TokenKind::Bang:
    return "!";
  case TokenKind::Dot:
    return ".";
  case TokenKind::Comma:
    return ",";
  case TokenKind::Colon:
    return ":";
  case TokenKind::LParen:
    return "(";
  case TokenKind::RParen:
    return ")";
  case TokenKind::LBracket:
    return "[";
  case TokenKind::RBracket:
    return "]";
  case TokenKind::LBrace:
    return "{";
  case TokenKind::RBrace:
    return "}";
  case TokenKind::Assign:
    return "=";
  case TokenKind::KwDef:
    return "def";
  case TokenKind::KwForeign:
    return "foreign";
  case TokenKind::KwFun:
    return "fun";
  case TokenKind::KwDepFun:
    return "depFun";
  case TokenKind::KwTrue:
    return "true";
  case TokenKind::KwFalse:
    return "false";
  default:
    return "";
  }
}

} // namespace

std::string tokenKindName(TokenKind k) {
  switch (k) {
  case TokenKind::End:
    return "end of input";
  case TokenKind::Ident:
    return "identifier";
  case TokenKind::Int:
    return "integer literal";
  case TokenKind::Float:
    return "float literal";
  case TokenKind::String:
    return "string literal";
  default:
    return "`" + std::string(punctSpelling(k)) + "`";
  }
}

std::string describe(const Token& t) {
  switch (t.kind) {
  case TokenKind::End:
    return "end of input";
  case TokenKind::String:
    return "a string literal";
  default:
    return "`" + t.text + "`";
  }
}

bool isDottedSizes(const Token& t) {
  if (t.kind != TokenKind::Float || t.hasSuffix)
    return false;
  auto dot = t.text.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == t.text.size())
    return false;
  auto isDigit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  return std::all_of(t.text.begin(), t.text.begin() + dot, isDigit) &&
         std::all_of(t.text.begin() + dot + 1, t.text.end(), isDigit);
}

} // namespace risec::rise
