// The lexer of the RISE text syntax v1: identifiers, keywords, literals with
// type suffixes, C-escaped strings, operators and comments. Column numbers
// count bytes, so they match what editors show for ASCII sources.
#pragma once

#include "rise/parse/Token.h"

#include <memory>
#include <vector>

namespace risec::rise {

/// Splits `file` into tokens, ending with one End token. Throws CompileError
/// (E0101-E0106) on malformed input. Literal values are range-checked for
/// their type later, by the parser, because an unsuffixed integer is an i32
/// in an expression but may be any 63-bit size in a type.
std::vector<Token> lex(const std::shared_ptr<const SourceFile>& file);

} // namespace risec::rise
