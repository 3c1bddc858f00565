// A rewrite rule: a typed transformation of the expression at one position of
// a program (the "focus"), in the stripped view (RiseUtil.h). Applying a rule
// either yields the replacement of the focus (untyped; the rewriter re-infers
// the program) or nothing when the rule does not apply there.
//
// Rules are registered by name in the RuleRegistry with the kinds of their
// parameters and their rewrite written as `before -> after` (the text of
// docs/strategies.md). Each rule family registers itself from its own file.
#pragma once

#include "rules/RiseUtil.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace risec::rules {

enum class ParamKind { Int, AddrSpace, IntList, Strategy, Predicate };
std::string_view paramKindName(ParamKind k);

/// An argument of a parameterised rule: `splitJoin(32)`, `reduceToOclSeq(Local)`,
/// `reorder([2, 1])`.
using RuleArg = std::variant<std::int64_t, rise::AddrSpace, std::vector<std::int64_t>>;

/// The back end a strategy is applied for, and the lowering (`lowerToC`,
/// lower::LowerTarget) is made for: what stays parallel.
enum class Backend {
  C,      ///< everything sequential
  OpenMP, ///< mapPar and reducePar kept
  OpenCL, ///< mapGlobal, mapWorkGroup, mapLocal and the address spaces kept
};

/// What a rule may consult besides its focus.
struct RuleContext {
  NameSupply& names;
  const rise::Program& program;   ///< the foreign declarations of the program
  const rise::TypedDef& typedDef; ///< the whole program, elaborated and typed
  bool atRoot = false;            ///< the focus is the whole def
  /// Why the rule does not apply, where the focus has its shape but fails a
  /// further condition (an operator, an initial value, a size): E0710 says
  /// it. Set through refuse().
  std::string why;
  Backend backend = Backend::C; ///< the back end the strategy is applied for

  /// `return ctx.refuse("...")` from a rule that does not apply.
  std::nullopt_t refuse(std::string reason) {
    why = std::move(reason);
    return std::nullopt;
  }
};

using RuleFn = std::function<std::optional<Expr>(const Expr& focus, RuleContext& ctx)>;

struct RuleInfo {
  std::string name;
  std::string family; ///< "algorithmic", "movement", "lowering", ...
  std::vector<ParamKind> params;
  std::string before; ///< documentation: the rewrite as `before -> after`
  std::string after;
  std::function<RuleFn(const std::vector<RuleArg>&)> make;
};

class RuleRegistry {
public:
  /// The registry with every rule family of generator/rules registered (the
  /// strategy language adds the lowering stage's `lowerToC`: elevate::ruleRegistry).
  static const RuleRegistry& instance();

  void add(RuleInfo info);
  const RuleInfo* find(const std::string& name) const;
  const std::map<std::string, RuleInfo>& all() const { return rules_; }

private:
  std::map<std::string, RuleInfo> rules_;
};

// One registration function per family (one file each).
void registerAlgorithmicRules(RuleRegistry& r);
void registerMovementRules(RuleRegistry& r);
void registerLoweringRules(RuleRegistry& r);
void registerVectoriseRules(RuleRegistry& r);
void registerTilingRules(RuleRegistry& r);
void registerLiftReduceRules(RuleRegistry& r);
void registerChunkReduceRules(RuleRegistry& r);
void registerPeelTailRules(RuleRegistry& r);
void registerPackingRules(RuleRegistry& r);
void registerStencilRules(RuleRegistry& r);
void registerStageFusionRules(RuleRegistry& r);
void registerVectorReduceRules(RuleRegistry& r);
void registerIdentityRules(RuleRegistry& r);
void registerOpenClTilingRules(RuleRegistry& r);
void registerReduceToWorkGroupsRules(RuleRegistry& r);
void registerReduceInWorkGroupRules(RuleRegistry& r);
void registerScanRules(RuleRegistry& r);
void registerShineHarrisRules(RuleRegistry& r);
void registerLineBufferRules(RuleRegistry& r);
void registerShineHarrisStoreRules(RuleRegistry& r);
void registerShineHarrisSplitRules(RuleRegistry& r);

/// Shine's reorder over a nest of maps and reductions (ReorderNest.cpp); the
/// `reorder` rule falls back to it where the nest is not of maps only.
RuleFn reorderNest(std::vector<std::int64_t> perm);

/// Helpers for registering rules without parameters / with integer ones.
RuleInfo simpleRule(std::string name, std::string family, std::string before, std::string after,
                    RuleFn fn);
std::int64_t intArg(const std::vector<RuleArg>& args, std::size_t i);

} // namespace risec::rules
