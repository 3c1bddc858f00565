// Prints RISE ASTs back to the v1 text syntax. The output parses back to an
// alpha-equivalent AST. Infix operators and pairs are printed in their
// surface form with minimal parentheses; `x |> f` is used for chains of
// partially applied data-parallel primitives so that pipelines read top-down.
#pragma once

#include "rise/ast/Expr.h"

#include <string>

namespace risec::rise {

struct PrintOptions {
  int width = 100;        ///< soft line width for breaking pipelines
  bool showTypes = false; ///< annotate lambda parameters with inferred types
};

std::string printExpr(const Expr& e, const PrintOptions& opts = {});
std::string printProgram(const Program& p, const PrintOptions& opts = {});

} // namespace risec::rise
