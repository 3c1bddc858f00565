// Prints the C syntax tree as formatted C: two-space indentation, braces on
// the same line, every loop and if braced, parentheses only where C's
// precedence needs them (plus around mixed `&&`/`||` and bit operations, as a
// reader would write them). The result is deterministic; long lines are left
// to the formatting stage (clang-format).
#pragma once

#include "codegen/c/CAst.h"

#include <string>

namespace risec::codegen::c {

std::string printType(const CType& t);
/// A declaration of `name` with type `t`: `const float* restrict x`, `float buf[16]`.
std::string printDeclarator(const CType& t, const std::string& name);
std::string printExpr(const CExpr& e);
std::string printStmt(const CStmt& s, int indent = 0);
/// The statements of `body`, one after the other.
std::string printStmts(const std::vector<CStmt>& body, int indent = 0);
std::string printFunction(const Function& f);
std::string printUnit(const TranslationUnit& u);

} // namespace risec::codegen::c
