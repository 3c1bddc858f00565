#include "rise/infer/PadEmptyReads.h"

#include "rise/ast/Spine.h"
#include "support/Diagnostic.h"

namespace risec::rise {

namespace {

/// Whether the value argument `i` of primitive `p`, applied in a written
/// position, is itself in a written position.
bool argumentIsWritten(Prim p, std::size_t i) {
  const PrimTraits& t = primInfo(p).traits;
  if (p == Prim::PadEmpty || p == Prim::IterateStream || t.mapLike)
    return p == Prim::PadEmpty || i == 0; // the function whose results are written
  if (p == Prim::Let)
    return i == 1;
  const PrimAccess& a = t.access;
  return a.defined && a.writableView && i < a.count && a.args[i].kind == ArgUse::View;
}

void walk(const Expr& e, bool written) {
  switch (e->kind()) {
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    walk(e->body(), written);
    return;
  case ExprKind::Var:
  case ExprKind::Literal:
  case ExprKind::Foreign:
    return;
  case ExprKind::Primitive:
  case ExprKind::App:
  case ExprKind::DepApp:
    break;
  }
  Spine s = collectSpine(e, true);
  if (s.head->kind() != ExprKind::Primitive) {
    walk(s.head, written && s.head->kind() != ExprKind::Var);
    for (const Expr& a : s.args)
      walk(a, false);
    return;
  }
  Prim p = s.head->prim();
  if (p == Prim::PadEmpty && !written)
    throw CompileError(
        "E0314", s.head->loc(),
        "the padding that `padEmpty` adds is never written, and it may be read here: "
        "`padEmpty` may only give (part of) the def's result, through maps, `let` "
        "bodies and writable views (zip, split, join, transpose, take, concat, pairs, "
        "asVector, asScalar)");
  for (std::size_t i = 0; i < s.args.size(); ++i)
    walk(s.args[i], written && argumentIsWritten(p, i));
}

} // namespace

void checkPadEmptyIsNeverRead(const Expr& e) {
  walk(e, true);
}

} // namespace risec::rise
