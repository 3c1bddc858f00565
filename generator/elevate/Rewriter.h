// Pipeline stage "rewrite": applies a strategy to the entry def of a program.
#pragma once

#include "elevate/Strategy.h"
#include "rules/Rule.h"

#include <ostream>

namespace risec::elevate {

struct RewriteOptions {
  std::ostream* trace = nullptr; ///< each successful step, when set
  /// The back end the program is rewritten for: `lowerToC` in the strategy
  /// lowers for it (keeps its parallel maps).
  rules::Backend backend = rules::Backend::C;
};

/// Applies `strategy` to the whole def. Returns the rewritten def, elaborated
/// and typed (its preconditions included). A failing strategy is E0710 at
/// the innermost failing rule, with the program fragment it was tried on.
rise::TypedDef rewriteDef(const rise::Program& program, const rise::TypedDef& def,
                          const Strategy& strategy, const RewriteOptions& opts = {});

/// The rewritten def as a program: the foreign declarations and the def.
rise::Program rewrittenProgram(const rise::Program& program, const rise::TypedDef& def);

} // namespace risec::elevate
