// The normal forms as strategies (they always succeed):
//   BENF  rules::betaEtaNormalForm at the focus
//   DFNF  rules::dataFlowNormalForm at the focus
//   RNF   rewrite normal form: DFNF ; normalize(mapFission) ; DFNF (every map
//         fissioned: one operation per map)
//   CNF   composition normal form: BENF ; normalize(mapFusion) ; BENF (every chain
//         of maps fused)
#include "rules/NormalForms.h"
#include "elevate/Combinators.h"
#include "support/Diagnostic.h"

namespace risec::elevate {

namespace {

StrategyPtr transform(const std::string& name, SourceLocation loc,
                      Expr (*fn)(const Expr&, rules::NameSupply&, bool)) {
  return ruleStrategy(
      name,
      [fn](const Expr& e, rules::RuleContext& ctx) -> std::optional<Expr> {
        return fn(e, ctx.names, ctx.atRoot);
      },
      std::move(loc));
}

} // namespace

StrategyPtr normalForm(const std::string& name, SourceLocation loc) {
  if (name == "BENF")
    return transform(name, loc, rules::betaEtaNormalForm);
  if (name == "DFNF")
    return transform(name, loc, rules::dataFlowNormalForm);
  if (name == "RNF")
    return seq(seq(normalForm("DFNF", loc),
                   traverse(Traversal::Normalize, namedRule("mapFission", {}, loc), loc), loc),
               normalForm("DFNF", loc), loc);
  if (name == "CNF")
    return seq(normalForm("BENF", loc),
               seq(traverse(Traversal::Normalize, namedRule("mapFusion", {}, loc), loc),
                   normalForm("BENF", loc), loc),
               loc);
  throw InternalError("no normal form " + name);
}

} // namespace risec::elevate
