// The direct sub-expressions (children) of a node, in a fixed order:
//
//   App        fn, arg
//   DepApp     fn
//   Lambda     body
//   DepLambda  body
//   Var, Literal, Primitive, Foreign: none
//
// Binders are not tracked: a pass that needs the scope of a `fun` handles
// Lambda itself and uses these for the other kinds.
#pragma once

#include "rise/ast/Expr.h"

#include <utility>

namespace risec::rise {

/// Calls `f(child)` for every child of `e`, in the order above.
template <class F> void forEachChild(const Expr& e, F&& f) {
  switch (e->kind()) {
  case ExprKind::App:
    f(e->fn());
    f(e->arg());
    return;
  case ExprKind::DepApp:
    f(e->fn());
    return;
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    f(e->body());
    return;
  default:
    return;
  }
}

/// True if `pred(child)` holds for some child of `e`; stops at the first.
template <class P> bool anyChild(const Expr& e, P&& pred) {
  switch (e->kind()) {
  case ExprKind::App:
    return pred(e->fn()) || pred(e->arg());
  case ExprKind::DepApp:
    return pred(e->fn());
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    return pred(e->body());
  default:
    return false;
  }
}

/// `e` with its children replaced, in the order above (`second` only for
/// App); `e` itself when every new child is the old one (same pointer).
/// Location, type and every other field of `e` are kept.
Expr replaceChildren(const Expr& e, Expr first, Expr second = nullptr);

/// `e` with every child `c` replaced by `f(c)` (called in the order above);
/// `e` itself, not a copy, when every `f(c)` is `c`.
template <class F> Expr mapChildren(const Expr& e, F&& f) {
  switch (e->kind()) {
  case ExprKind::App: {
    Expr fn = f(e->fn());
    Expr arg = f(e->arg());
    return replaceChildren(e, std::move(fn), std::move(arg));
  }
  case ExprKind::DepApp:
    return replaceChildren(e, f(e->fn()));
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    return replaceChildren(e, f(e->body()));
  default:
    return e;
  }
}

} // namespace risec::rise
