#include "lower/LowerRule.h"

#include "lower/LowerToC.h"
#include "rise/ast/Traverse.h"

namespace risec::lower {

using namespace risec::rise;

namespace {

/// Removes the lambda annotations below the entry's leading parameters.
Expr dropInnerAnnotations(const Expr& e, bool top = true) {
  if (e->kind() == ExprKind::Lambda)
    return makeLambda(e->name(), top ? e->paramType() : nullptr,
                      dropInnerAnnotations(e->body(), top), e->loc(), e->type());
  // the leading parameters continue through depFun, not through applications
  bool inner = top && e->kind() == ExprKind::DepLambda;
  return mapChildren(e, [inner](const Expr& c) { return dropInnerAnnotations(c, inner); });
}

std::optional<Expr> lowerToCRule(const Expr&, rules::RuleContext& ctx) {
  if (!ctx.atRoot)
    return std::nullopt;
  // lowerToC infers its result again; annotations on every parameter let
  // inference solve the sizes (see annotateParams).
  TypedDef annotated = ctx.typedDef;
  annotated.expr = rules::annotateParams(annotated.expr);
  // For the back end the strategy is applied for: an OpenCL or OpenMP
  // strategy that ends in lowerToC keeps its parallel maps.
  TypedDef lowered = lowerToC(ctx.program, annotated, ctx.backend);
  return dropInnerAnnotations(rules::stripImplicit(lowered.expr));
}

} // namespace

void registerLowerRules(rules::RuleRegistry& r) {
  r.add(rules::simpleRule(
      "lowerToC", "lowering", "the whole program",
      "map -> mapSeq, reduce -> reduceSeq, copies DPIA needs; the target's parallel maps kept "
      "(LowerToC.h)",
      lowerToCRule));
}

} // namespace risec::lower
