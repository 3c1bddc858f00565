#include "codegen/openmp/Legality.h"

#include "support/Diagnostic.h"

namespace risec::codegen::openmp {

using namespace risec::rise;

namespace {

bool isParallel(const Expr& e) {
  return e->kind() == ExprKind::Primitive &&
         (e->prim() == Prim::MapPar || e->prim() == Prim::ReducePar);
}

/// The primitive at the head of `e` (through type-level applications), or null.
const Expr* headPrimitive(const Expr& e) {
  const Expr* h = &e;
  while ((*h)->kind() == ExprKind::DepApp)
    h = &(*h)->fn();
  return (*h)->kind() == ExprKind::Primitive ? h : nullptr;
}

/// `outer`: the parallel primitive whose function `e` is part of, or null.
void visit(const Expr& e, const Expr* outer) {
  switch (e->kind()) {
  case ExprKind::Primitive:
    if (outer && isParallel(e))
      throw CompileError("E0620", e->loc(),
                         "`" + std::string(primName(e->prim())) + "` inside the function of the `" +
                             std::string(primName((*outer)->prim())) + "` at " +
                             (*outer)->loc().str() +
                             ": nested parallel loops are not supported by the OpenMP back end; "
                             "make the inner one sequential (mapSeq, reduceSeq)");
    return;
  case ExprKind::App: {
    const Expr* head = headPrimitive(e->fn());
    visit(e->fn(), outer);
    // the function argument of mapPar/reducePar is the body of a parallel loop
    visit(e->arg(), head && isParallel(*head) && !outer ? head : outer);
    return;
  }
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    visit(e->body(), outer);
    return;
  case ExprKind::DepApp:
    visit(e->fn(), outer);
    return;
  default:
    return;
  }
}

} // namespace

void checkLegality(const TypedDef& def) {
  visit(def.expr, nullptr);
}

} // namespace risec::codegen::openmp
