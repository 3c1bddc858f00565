// Substitution of type-level variables inside expressions.
#pragma once

#include "rise/ast/Expr.h"

namespace risec::rise {

/// Replaces Nat, data-type and address-space variables (by id) in every type,
/// lambda annotation and dependent argument of `e`. Binders keep their ids.
/// Used to beta-reduce the dependent application of a depFun.
Expr substituteInExpr(const Expr& e, const TypeSubst& s);

} // namespace risec::rise
