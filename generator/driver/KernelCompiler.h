// The core shared by `risec compile` and `risec generate`: apply a strategy
// file to a typed def, then run the compiler pipeline (codegen/Compile.h).
#pragma once

#include "codegen/Compile.h"

#include <cstdint>
#include <map>
#include <string>

namespace risec::driver {

/// The target named by a command line's `--target` (c, openmp, opencl); another
/// name is a user error (E0611).
codegen::Target commandLineTarget(const std::string& name);

/// Rewrites `def` of `program` with the strategy in `strategyPath` (none when
/// empty: lowerToC makes every choice), its parameters bound by `bindings`
/// (VariantSpec::strategyBindings), and compiles it with `opts`.
codegen::CompileResult
compileWithStrategy(rise::Program program, rise::TypedDef def, const std::string& strategyPath,
                    const codegen::c::COptions& opts,
                    const std::map<std::string, std::int64_t>& bindings = {});

} // namespace risec::driver
