// Tokens of the RISE text syntax v1 (docs/language.md). The lexer turns a
// source file into a vector of tokens ending in one End token; the parsers
// only ever look at tokens, never at raw text.
#pragma once

#include "rise/types/Scalar.h"
#include "support/SourceLocation.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace risec::rise {

enum class TokenKind {
  End,
  Ident,
  Int,    ///< 42, 42i64, 7u8, 3n
  Float,  ///< 1.5, 1.5f, 2e3
  String, ///< "C body"
  // keywords
  KwDef,
  KwForeign,
  KwFun,
  KwDepFun,
  KwTrue,
  KwFalse,
  // operators and punctuation
  Pipe,      ///< |>
  Compose,   ///< >>
  FatArrow,  ///< =>
  Arrow,     ///< ->
  EqEq,      ///< ==
  NotEq,     ///< !=
  LessEq,    ///< <=
  GreaterEq, ///< >=
  Less,
  Greater,
  AndAnd,
  OrOr,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Caret,
  Bang,
  Dot,
  Comma,
  Colon,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Assign,
};

/// How a token kind is named in diagnostics: "`)`", "identifier", "end of input".
std::string tokenKindName(TokenKind k);

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text; ///< the exact source spelling (empty for End)
  SourceLocation loc;
  std::uint64_t intValue = 0;               ///< Int: the magnitude (never negative)
  double floatValue = 0.0;                  ///< Float: the value, rounded for f32
  ScalarKind literalKind = ScalarKind::I32; ///< Int, Float: type given by the suffix
  bool hasSuffix = false;                   ///< Int, Float: an explicit suffix was written
  std::string stringValue;                  ///< String: the text with escapes resolved
};

/// The token as quoted in a diagnostic: "`=>`", "`foo`", "end of input".
std::string describe(const Token& t);

/// True for a Float token spelled `D.D` (digits, dot, digits, no exponent or
/// suffix). In a type such a token is really two array sizes: `4.4.f32`.
bool isDottedSizes(const Token& t);

} // namespace risec::rise
