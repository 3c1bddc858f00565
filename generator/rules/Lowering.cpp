// Lowering rules: choose the implementation of a map or reduce (sequential,
// unrolled, OpenMP, OpenCL) and insert copies to memory. The whole-program
// default lowering, the rule `lowerToC`, is the lowering stage's
// (lower/LowerRule.h).
#include "rise/ast/Traverse.h"
#include "rules/Rule.h"

#include <set>

namespace risec::rules {

using namespace risec::rise;

namespace {

/// Replaces the head primitive of the focus's spine (`from` -> `to`), adding
/// the explicit type-level arguments `deps`.
RuleFn renameHead(std::set<Prim> from, Prim to, std::vector<TypeArg> deps = {}) {
  return [from = std::move(from), to, deps = std::move(deps)](const Expr& e,
                                                              RuleContext&) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (s.head->kind() != ExprKind::Primitive || !from.count(s.head->prim()) || !s.depArgs.empty())
      return std::nullopt;
    return withHead(s, to, deps);
  };
}

RuleInfo headRule(std::string name, std::string before, std::string after, std::set<Prim> from,
                  Prim to) {
  return simpleRule(std::move(name), "lowering", std::move(before), std::move(after),
                    renameHead(std::move(from), to));
}

RuleInfo openClMapRule(std::string name, Prim to) {
  std::string target(primName(to));
  return RuleInfo{std::move(name),
                  "lowering",
                  {ParamKind::Int},
                  "map(f)",
                  target + "(d)(f)",
                  [to](const std::vector<RuleArg>& a) {
                    return renameHead({Prim::Map}, to, {natConst(intArg(a, 0))});
                  }};
}

std::optional<Expr> toMemAfterMapSeq(const Expr& e, RuleContext&) {
  if (!isCall(e, Prim::MapSeq, 2) && !isCall(e, Prim::MapSeqUnroll, 2))
    return std::nullopt;
  return app(prim(Prim::ToMem), e);
}

std::optional<Expr> storeInMemory(const Expr& e, RuleContext&) {
  if (!e->type() || !e->type()->isData() || e->kind() == ExprKind::Var ||
      e->kind() == ExprKind::Literal || e->type()->kind() != TypeKind::Array)
    return std::nullopt;
  if (auto p = headPrim(e); p && (*p == Prim::ToMem || *p == Prim::OclToMem))
    return std::nullopt;
  return app(prim(Prim::ToMem), e);
}

} // namespace

void registerLoweringRules(RuleRegistry& r) {
  r.add(headRule("mapToSeq", "map(f)", "mapSeq(f)", {Prim::Map}, Prim::MapSeq));
  r.add(headRule("mapToSeqUnroll", "map(f)", "mapSeqUnroll(f)", {Prim::Map}, Prim::MapSeqUnroll));
  r.add(headRule("mapToPar", "map(f)", "mapPar(f)", {Prim::Map}, Prim::MapPar));
  r.add(openClMapRule("mapToGlobal", Prim::MapGlobal));
  r.add(openClMapRule("mapToWorkGroup", Prim::MapWorkGroup));
  r.add(openClMapRule("mapToLocal", Prim::MapLocal));
  r.add(headRule("reduceToSeq", "reduce(op)(init)", "reduceSeq(op)(init)",
                 {Prim::Reduce, Prim::ReducePar}, Prim::ReduceSeq));
  r.add(headRule("reduceToSeqUnroll", "reduce(op)(init)", "reduceSeqUnroll(op)(init)",
                 {Prim::Reduce}, Prim::ReduceSeqUnroll));
  r.add(headRule("reduceToPar", "reduce(op)(init)", "reducePar(op)(init)", {Prim::Reduce},
                 Prim::ReducePar));
  r.add(RuleInfo{"reduceToOclSeq",
                 "lowering",
                 {ParamKind::AddrSpace},
                 "reduce(op)(init)",
                 "oclReduceSeq(a)(op)(init)",
                 [](const std::vector<RuleArg>& a) {
                   return renameHead({Prim::Reduce}, Prim::OclReduceSeq,
                                     {std::get<AddrSpace>(a.at(0))});
                 }});
  // the address space of a temporary, chosen by the strategy: the program
  // says toMem, and its OpenCL variant's strategy says where
  r.add(RuleInfo{"toMemIn",
                 "lowering",
                 {ParamKind::AddrSpace},
                 "toMem(e)",
                 "toGlobal(e) | toLocal(e) | toPrivate(e)   (a = Global, Local, Private)",
                 [](const std::vector<RuleArg>& a) -> RuleFn {
                   switch (std::get<AddrSpace>(a.at(0)).tag) {
                   case AddrSpace::Tag::Global:
                     return renameHead({Prim::ToMem}, Prim::ToGlobal);
                   case AddrSpace::Tag::Local:
                     return renameHead({Prim::ToMem}, Prim::ToLocal);
                   case AddrSpace::Tag::Private:
                     return renameHead({Prim::ToMem}, Prim::ToPrivate);
                   case AddrSpace::Tag::Var:
                     break;
                   }
                   return [](const Expr&, RuleContext&) -> std::optional<Expr> {
                     return std::nullopt;
                   };
                 }});
  // the address space of iterate's double buffers (docs/dpia.md, "Temporaries")
  r.add(RuleInfo{"iterateToOcl",
                 "lowering",
                 {ParamKind::AddrSpace},
                 "iterate(k)(f)",
                 "oclIterate(a)(k)(f)",
                 [](const std::vector<RuleArg>& a) -> RuleFn {
                   AddrSpace space = std::get<AddrSpace>(a.at(0));
                   return [space](const Expr& e, RuleContext&) -> std::optional<Expr> {
                     Spine s = spineOf(e);
                     if (!isPrim(s.head, Prim::Iterate) || s.depArgs.size() != 1)
                       return std::nullopt;
                     return withHead(s, Prim::OclIterate, {space, s.depArgs[0]});
                   };
                 }});
  r.add(simpleRule("unroll", "lowering", "mapSeq(f) | reduceSeq(op)(init)",
                   "mapSeqUnroll(f) | reduceSeqUnroll(op)(init)",
                   [](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
                     if (auto m = renameHead({Prim::MapSeq}, Prim::MapSeqUnroll)(e, ctx))
                       return m;
                     return renameHead({Prim::ReduceSeq}, Prim::ReduceSeqUnroll)(e, ctx);
                   }));
  r.add(headRule("parallel", "map(f) | mapSeq(f)", "mapPar(f)", {Prim::Map, Prim::MapSeq},
                 Prim::MapPar));
  r.add(simpleRule("toMemAfterMapSeq", "lowering", "mapSeq(f)(x)", "toMem(mapSeq(f)(x))",
                   toMemAfterMapSeq));
  r.add(simpleRule("storeInMemory", "lowering", "e   (e: an array computed by e)", "toMem(e)",
                   storeInMemory));
}

} // namespace risec::rules
