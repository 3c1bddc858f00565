#include "elevate/Registry.h"

#include "elevate/Combinators.h"
#include "lower/LowerRule.h"

namespace risec::elevate {

using rules::ParamKind;

namespace {

StrategyPtr strategyArg(const std::vector<Arg>& a, std::size_t i) {
  return std::get<StrategyPtr>(a.at(i).value);
}

} // namespace

const StrategyRegistry& StrategyRegistry::instance() {
  static const StrategyRegistry registry = [] {
    StrategyRegistry r;
    auto& b = r.builtins_;
    b["id"] = {"combinator", {}, [](auto&, auto& loc) { return idStrategy(loc); }};
    b["fail"] = {"combinator", {}, [](auto&, auto& loc) { return failStrategy(loc); }};
    b["try"] = {"combinator", {ParamKind::Strategy}, [](auto& a, auto& loc) {
                  return tryStrategy(strategyArg(a, 0), loc);
                }};
    b["repeat"] = {"combinator", {ParamKind::Strategy}, [](auto& a, auto& loc) {
                     return repeat(strategyArg(a, 0), loc);
                   }};
    b["repeatNTimes"] = {"combinator",
                         {ParamKind::Int, ParamKind::Strategy},
                         [](auto& a, auto& loc) {
                           return repeatNTimes(std::get<std::int64_t>(a.at(0).value),
                                               strategyArg(a, 1), loc);
                         },
                         false,
                         true};
    const std::pair<const char*, Traversal> traversals[] = {{"topDown", Traversal::TopDown},
                                                            {"bottomUp", Traversal::BottomUp},
                                                            {"allTopdown", Traversal::AllTopdown},
                                                            {"allBottomup", Traversal::AllBottomup},
                                                            {"tryAll", Traversal::TryAll},
                                                            {"normalize", Traversal::Normalize},
                                                            {"one", Traversal::One},
                                                            {"all", Traversal::All},
                                                            {"some", Traversal::Some},
                                                            {"body", Traversal::Body},
                                                            {"function", Traversal::Function},
                                                            {"argument", Traversal::Argument},
                                                            {"fmap", Traversal::Fmap}};
    for (const auto& [name, t] : traversals)
      b[name] = {"traversal",
                 {ParamKind::Strategy},
                 [t = t](auto& a, auto& loc) { return traverse(t, strategyArg(a, 0), loc); },
                 true};
    b["outermost"] = {
        "location",
        {ParamKind::Predicate, ParamKind::Strategy},
        [](auto& a, auto& loc) { return outermost(strategyArg(a, 0), strategyArg(a, 1), loc); },
        true};
    b["innermost"] = {
        "location",
        {ParamKind::Predicate, ParamKind::Strategy},
        [](auto& a, auto& loc) { return innermost(strategyArg(a, 0), strategyArg(a, 1), loc); },
        true};
    b["outermostArgFirst"] = {"location",
                              {ParamKind::Predicate, ParamKind::Strategy},
                              [](auto& a, auto& loc) {
                                return outermostArgFirst(strategyArg(a, 0), strategyArg(a, 1), loc);
                              },
                              true};
    b["innermostArgFirst"] = {"location",
                              {ParamKind::Predicate, ParamKind::Strategy},
                              [](auto& a, auto& loc) {
                                return innermostArgFirst(strategyArg(a, 0), strategyArg(a, 1), loc);
                              },
                              true};
    b["inLambda"] = {"traversal",
                     {ParamKind::Strategy},
                     [](auto& a, auto& loc) { return inLambda(strategyArg(a, 0), loc); },
                     true};
    b["storeInMemory"] = {
        "lowering strategy", {ParamKind::Predicate, ParamKind::Strategy}, [](auto& a, auto& loc) {
          return storeInMemory(strategyArg(a, 0), strategyArg(a, 1), loc);
        }};
    b["everywhere"] = {"location",
                       {ParamKind::Strategy},
                       [](auto& a, auto& loc) { return everywhere(strategyArg(a, 0), loc); },
                       true};
    auto primPred = [](const char* name, std::function<bool(const rise::Expr&)> test) {
      return Builtin{
          "predicate", {}, [name, test](auto&, auto& loc) { return predicate(name, test, loc); }};
    };
    auto headIs = [](std::initializer_list<rise::Prim> ps) {
      std::vector<rise::Prim> v(ps);
      return [v](const rise::Expr& e) {
        auto h = rules::headPrim(e);
        return h && std::find(v.begin(), v.end(), *h) != v.end();
      };
    };
    b["isMap"] = primPred("isMap", isMapNode);
    b["isReduce"] = primPred("isReduce", headIs({rise::Prim::Reduce}));
    b["isScan"] = primPred("isScan", headIs({rise::Prim::Scan}));
    b["isReduceSeq"] = primPred(
        "isReduceSeq",
        headIs({rise::Prim::ReduceSeq, rise::Prim::ReduceSeqUnroll, rise::Prim::OclReduceSeq}));
    b["isTranspose"] = primPred("isTranspose", headIs({rise::Prim::Transpose}));
    b["isLambda"] = primPred(
        "isLambda", [](const rise::Expr& e) { return e->kind() == rise::ExprKind::Lambda; });
    b["isApplied"] = {"predicate", {ParamKind::Predicate}, [](auto& a, auto& loc) {
                        return isApplied(strategyArg(a, 0), loc);
                      }};
    b["mapNest"] = {"predicate", {ParamKind::Int}, [](auto& a, auto& loc) {
                      int d = static_cast<int>(std::get<std::int64_t>(a.at(0).value));
                      return predicate(
                          "mapNest(" + std::to_string(d) + ")",
                          [d](const rise::Expr& e) { return isMapNest(e, d); }, loc);
                    }};
    for (const char* nf : {"BENF", "DFNF", "RNF", "CNF"})
      b[nf] = {"normal form", {}, [nf](auto&, auto& loc) { return normalForm(nf, loc); }};
    return r;
  }();
  return registry;
}

const rules::RuleRegistry& ruleRegistry() {
  static const rules::RuleRegistry registry = [] {
    rules::RuleRegistry r = rules::RuleRegistry::instance();
    lower::registerLowerRules(r);
    return r;
  }();
  return registry;
}

const Builtin* StrategyRegistry::find(const std::string& name) const {
  auto it = builtins_.find(name);
  return it == builtins_.end() ? nullptr : &it->second;
}

} // namespace risec::elevate
