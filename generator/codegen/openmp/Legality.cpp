#include "codegen/openmp/Legality.h"

#include "codegen/MapNesting.h"
#include "rise/ast/Spine.h"
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

[[noreturn]] void rejectNested(const Expr& inner, const Expr& outer) {
  std::string in(primName(inner->prim())), out(primName(outer->prim()));
  if (outer->prim() == Prim::ReducePar)
    throw CompileError("E0622", inner->loc(),
                       "`" + in + "` inside the operator of the `reducePar` at " +
                           outer->loc().shortStr() +
                           ": the operator runs inside the parallel loop of the reduction (and "
                           "again when its partial results are combined), so this would nest "
                           "parallel loops; make it sequential (mapSeq, reduceSeq)");
  throw CompileError("E0620", inner->loc(),
                     "`" + in + "` inside the function of the `" + out + "` at " +
                         outer->loc().str() +
                         ": nested parallel loops are not supported by the OpenMP back end; "
                         "make the inner one sequential (mapSeq, reduceSeq)");
}

/// E0620, E0622. `outer`: the parallel primitive whose function `e` is part of, or null.
void checkNesting(const Expr& e, const Expr* outer) {
  switch (e->kind()) {
  case ExprKind::Primitive:
    if (outer && isParallel(e))
      rejectNested(e, *outer);
    return;
  case ExprKind::App: {
    const Expr* head = headPrimitive(e->fn());
    checkNesting(e->fn(), outer);
    // the function argument of mapPar/reducePar is the body of a parallel loop
    checkNesting(e->arg(), head && isParallel(*head) && !outer ? head : outer);
    return;
  }
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    checkNesting(e->body(), outer);
    return;
  case ExprKind::DepApp:
    checkNesting(e->fn(), outer);
    return;
  default:
    return;
  }
}

// ---- E0623 ------------------------------------------------------------------

bool storesItsArgument(const Expr& e) {
  Expr h = spineHead(e);
  if (h->kind() != ExprKind::Primitive)
    return false;
  switch (h->prim()) {
  case Prim::ToMem:
  case Prim::ToPrivate:
  case Prim::ToLocal:
  case Prim::ToGlobal:
  case Prim::OclToMem:
    return true;
  default:
    return false;
  }
}

/// The reads of the accumulator `name` in the operator body `e` that may see
/// an element another iteration of `writer` writes: every occurrence except
/// the aligned ones in the writer's input (the mapped array itself, or a side
/// of a zip: every iteration reads exactly its own element) and those in a
/// value stored before the loop runs.
class RacyReads {
public:
  RacyReads(std::string name, const MapNode& writer) : name_(std::move(name)), writer_(writer) {}

  int in(const Expr& e) const {
    if (e.get() == writer_.input.get())
      return inInput(e);
    if (storesItsArgument(e))
      return 0;
    switch (e->kind()) {
    case ExprKind::Var:
      return e->name() == name_ ? 1 : 0;
    case ExprKind::Lambda:
      return e->name() == name_ ? 0 : in(e->body());
    case ExprKind::DepLambda:
      return in(e->body());
    case ExprKind::App:
      return in(e->fn()) + in(e->arg());
    case ExprKind::DepApp:
      return in(e->fn());
    default:
      return 0;
    }
  }

private:
  std::string name_;
  const MapNode& writer_;

  int inInput(const Expr& e) const {
    if (e->kind() == ExprKind::Var)
      return 0;
    Spine s = collectSpine(e, false);
    if (s.head->kind() == ExprKind::Primitive && s.head->prim() == Prim::Zip && s.args.size() == 2)
      return inInput(s.args[0]) + inInput(s.args[1]);
    if (storesItsArgument(e))
      return 0;
    int n = 0; // any other view of the accumulator may shift the elements
    for (const Expr& a : s.args)
      n += in(a);
    return n + in(s.head);
  }
};

void checkAccumulators(const Expr& program) {
  MapNesting n = MapNesting::build(program, MemorySpace::Unknown);
  for (const MemoryStore* s : n.stores()) {
    if (!s->accumulator || s->accumulatorName.empty() || s->at->prim() == Prim::ReducePar)
      continue;
    const Expr& body = s->op->body(); // fun(x => ...) of fun(acc => fun(x => ...))
    for (const MapNode* w : s->writers)
      if (w->domain == MapDomain::OpenMP && RacyReads(s->accumulatorName, *w).in(body) > 0)
        throw CompileError(
            "E0623", w->prim->loc(),
            "`mapPar` writes " + s->description() + " in place while its iterations read `" +
                s->accumulatorName +
                "` at elements other iterations write: the iterations race on this shared "
                "temporary; read the accumulator only at the element each iteration writes "
                "(e.g. `zip(" +
                s->accumulatorName + ", x) |> mapPar(f)`), or copy it first (`" +
                s->accumulatorName + " |> mapSeq(fun(a => a)) |> toMem`)");
  }
}

} // namespace

void checkLegality(const TypedDef& lowered) {
  checkNesting(lowered.expr, nullptr);
  checkAccumulators(lowered.expr);
}

} // namespace risec::codegen::openmp
