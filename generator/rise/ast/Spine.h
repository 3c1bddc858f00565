// Application spines: `f(a)(b)` seen as its head `f` and its arguments.
// Inference, the rewrite rules and the translation to DPIA all take
// applications apart this way.
#pragma once

#include "rise/ast/Expr.h"

#include <optional>
#include <vector>

namespace risec::rise {

struct Spine {
  Expr head;
  std::vector<TypeArg> depArgs; ///< type-level arguments, in application order
  std::vector<Expr> args;       ///< value arguments, in application order
  /// Where a type-level argument is applied after a value argument
  /// (`f(x)(n)`); unknown when the spine has no such argument.
  SourceLocation depAfterValue;
};

/// The head of the spine: `zip` in `zip(a)(b)`.
Expr spineHead(Expr e);

/// Takes `e` apart; implicit type-level arguments (inserted by inference) are
/// kept only with `withImplicit`.
Spine collectSpine(const Expr& e, bool withImplicit);

/// The spine of `head(depArgs...)(args...)` where `head` is itself an
/// application: head's own spine (with its implicit arguments) followed by
/// the given arguments. None where type-level arguments would follow value
/// arguments (the spine's order cannot express it).
std::optional<Spine> extendSpine(const Expr& head, const std::vector<TypeArg>& depArgs,
                                 const std::vector<Expr>& args);

} // namespace risec::rise
