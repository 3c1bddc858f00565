#include "rules/Rule.h"

#include "support/Diagnostic.h"

namespace risec::rules {

std::string_view paramKindName(ParamKind k) {
  switch (k) {
  case ParamKind::Int:
    return "an integer";
  case ParamKind::AddrSpace:
    return "an address space";
  case ParamKind::IntList:
    return "a list of integers";
  case ParamKind::Strategy:
    return "a strategy";
  case ParamKind::Predicate:
    return "a predicate";
  }
  return "?";
}

const RuleRegistry& RuleRegistry::instance() {
  static const RuleRegistry registry = [] {
    RuleRegistry r;
    registerAlgorithmicRules(r);
    registerMovementRules(r);
    registerLoweringRules(r);
    registerVectoriseRules(r);
    registerTilingRules(r);
    registerLiftReduceRules(r);
    registerChunkReduceRules(r);
    registerPeelTailRules(r);
    registerPackingRules(r);
    registerVectorReduceRules(r);
    registerStencilRules(r);
    registerStageFusionRules(r);
    registerIdentityRules(r);
    registerOpenClTilingRules(r);
    registerReduceToWorkGroupsRules(r);
    registerReduceInWorkGroupRules(r);
    registerScanRules(r);
    registerShineHarrisRules(r);
    registerLineBufferRules(r);
    registerShineHarrisStoreRules(r);
    registerShineHarrisSplitRules(r);
    return r;
  }();
  return registry;
}

void RuleRegistry::add(RuleInfo info) {
  std::string name = info.name;
  if (!rules_.emplace(name, std::move(info)).second)
    throw InternalError("rule `" + name + "` registered twice");
}

const RuleInfo* RuleRegistry::find(const std::string& name) const {
  auto it = rules_.find(name);
  return it == rules_.end() ? nullptr : &it->second;
}

RuleInfo simpleRule(std::string name, std::string family, std::string before, std::string after,
                    RuleFn fn) {
  return RuleInfo{std::move(name),
                  std::move(family),
                  {},
                  std::move(before),
                  std::move(after),
                  [fn = std::move(fn)](const std::vector<RuleArg>&) { return fn; }};
}

std::int64_t intArg(const std::vector<RuleArg>& args, std::size_t i) {
  return std::get<std::int64_t>(args.at(i));
}

} // namespace risec::rules
