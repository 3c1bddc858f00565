// One variant of a kernel spec (driver::loadSpec) compiled exactly as
//
//   risec compile SOURCE --entry ENTRY --target TARGET [--strategy STRATEGY]
//         --name SYMBOL [--launch LAUNCH]
//
// does (generator/driver/CompileCommand.cpp: the strategy, if any, rewrites
// the entry, then codegen::compileToC, which also verifies the output with
// Clang; an OpenCL variant's `launch:` configures its host wrapper), except
// that the header comment names the version "catalogue".
#pragma once

#include "codegen/Compile.h"
#include "driver/KernelSpec.h"
#include "rise/ast/Expr.h"
#include "rise/infer/Infer.h"

namespace risec::testsupport {

struct CompiledVariant {
  rise::Program program;    ///< the rewritten program
  rise::TypedDef rewritten; ///< the entry after the variant's strategy (before lowerToC)
  codegen::CompileResult compiled;
};

/// `isa`: the ISA level whose function to compile (its strategy parameters
/// and machine facts, VariantSpec::strategyBindings); empty: the variant's
/// single function.
CompiledVariant compileVariant(const driver::KernelSpec& spec, const driver::VariantSpec& variant,
                               const std::string& isa = "");

} // namespace risec::testsupport
