// The rule `lowerToC` of the strategy language (docs/strategies.md, "Rules"):
// the lowering stage (LowerToC.h) applied to the whole program. It is
// registered beside the rewrite rules of generator/rules by the strategy
// language (elevate::ruleRegistry), since the rules stage comes before this one.
#pragma once

#include "rules/Rule.h"

namespace risec::lower {

/// Adds the rule `lowerToC` (family "lowering", root only) to `r`.
void registerLowerRules(rules::RuleRegistry& r);

} // namespace risec::lower
