// Which surface syntax an AST node is printed in. The parser desugars infix
// operators, pairs, `|>` and `>>` into plain applications and lambdas; these
// recognisers find those shapes again so the printer can restore the
// readable form. Each recogniser accepts only shapes that re-parse to the
// same AST (e.g. only Primitive nodes print infix: a Var `add` must not).
#pragma once

#include "rise/ast/Expr.h"

#include <optional>
#include <utility>

namespace risec::rise::surface {

/// Skips inferred type arguments, which are not written in the source.
Expr stripImplicit(Expr e);

struct Infix {
  Prim op;
  Expr lhs, rhs;
};
/// add(a)(b) with a Primitive `add` prints as `a + b`.
std::optional<Infix> asInfix(const Expr& e);
/// neg(a) / not(a) with a Primitive head print as `-a` / `!a`.
std::optional<std::pair<Prim, Expr>> asPrefix(const Expr& e);
/// makePair(a)(b) with a Primitive head prints as `(a, b)`.
std::optional<std::pair<Expr, Expr>> asPair(const Expr& e);
/// Applications with their own surface syntax (infix, prefix, pair).
bool isSpecialApp(const Expr& e);

/// An application printed as a call `f(a, b)` (also an explicit DepApp).
bool isCallChain(const Expr& e);
/// App(f, x) printed as `x |> f`.
bool isPipeline(const Expr& e);

struct Composition {
  Expr first, second;
};
/// fun(x => g(f(x))) printed as `f >> g`; never when the parameter has a
/// type to show.
std::optional<Composition> asComposition(const Expr& e, bool showTypes);

} // namespace risec::rise::surface
