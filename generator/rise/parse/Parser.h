// Parser for the RISE text syntax v1 (docs/language.md). Produces an
// un-elaborated AST: identifiers are Var nodes (resolution to defs,
// primitives and foreign functions happens in inference), call arguments that
// are syntactically types become DepApp nodes, and everything else is App. Operators become
// applications of their primitives (`a + b` is add(a)(b)), pairs become
// makePair(a)(b), `x |> f` is f(x) and `f >> g` is fun(x => g(f(x))).
//
// Types inside the program (lambda annotations, def annotations) are resolved
// against the enclosing depFun binders; an unknown size name is an error.
#pragma once

#include "rise/ast/Expr.h"

#include <memory>
#include <string>

namespace risec::rise {

/// Parses a whole `.rise` file. Throws CompileError on the first syntax error.
Program parseProgram(std::shared_ptr<const SourceFile> file);

/// Parses a single expression (used by tests and the strategy language).
Expr parseExpr(std::shared_ptr<const SourceFile> file);

/// Parses a type in RISE syntax. Free size/type names are errors unless
/// `allowFreeVars`, in which case each distinct free name becomes a fresh
/// variable (Nat in size position, Data in type position). Used by tests.
Type parseType(std::shared_ptr<const SourceFile> file, bool allowFreeVars = false);

/// Parses a size expression (`n/32`, `2*m + 1`) whose names must be among
/// `sizes` (used for the launch configuration of kernel specs).
Nat parseNat(std::shared_ptr<const SourceFile> file, const std::vector<DepBinder>& sizes);

/// Convenience: wraps `text` in an in-memory SourceFile named `name`.
std::shared_ptr<const SourceFile> makeSourceFile(std::string name, std::string text);

} // namespace risec::rise
