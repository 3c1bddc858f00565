// The core shared by `risec compile` and `risec generate`: apply a strategy
// file to a typed def, then run the compiler pipeline (codegen/Compile.h).
#pragma once

#include "codegen/Compile.h"

#include <string>

namespace risec::driver {

/// Rewrites `def` of `program` with the strategy in `strategyPath` (none when
/// empty: lowerToC makes every choice) and compiles it with `opts`.
codegen::CompileResult compileWithStrategy(rise::Program program, rise::TypedDef def,
                                           const std::string& strategyPath,
                                           const codegen::c::COptions& opts);

} // namespace risec::driver
