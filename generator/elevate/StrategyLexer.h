// Tokens of strategy files (docs/strategies.md, "Syntax").
#pragma once

#include "support/SourceLocation.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace risec::elevate {

enum class Tok {
  Ident,
  Int,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  Semi,
  SemiSemi,
  Choice,
  At,
  Equals,
  Op, ///< an operator of a `require` condition: + - * / % == != < <= > >= &&
  Def,
  Param,
  Require,
  In,
  End
};

struct Token {
  Tok kind;
  std::string text;
  std::int64_t value = 0; ///< Int
  SourceLocation loc;
};

std::string tokenDescription(const Token& t);

/// Splits a strategy file into tokens; `//` and `/* */` are comments. An
/// unexpected character is E0701.
std::vector<Token> lexStrategy(const std::shared_ptr<const SourceFile>& file);

} // namespace risec::elevate
