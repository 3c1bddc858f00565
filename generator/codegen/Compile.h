// The compiler pipeline for one entry, as one list of passes (DESIGN.md,
// "The pipeline"): parse and infer happen before (the caller has a
// TypedDef); then
//   1. lowerToC                   RISE -> low-level RISE (rules/LowerToC.h)
//   2. fromRise                   -> functional DPIA, read/write checked
//   3. translateToImperative      accT / conT -> imperative DPIA
//   4. emitC                      unroll, hoist, views -> C (codegen/c/EmitC.h)
// For `opts.target == "openmp"` the OpenMP legality checks
// (codegen/openmp/Legality.h) run first, lowerToC keeps mapPar/reducePar, and
// the output is verified as C11 + OpenMP. For `opts.target == "opencl"`
// (docs/dpia.md, "OpenCL") codegen/opencl/Legality.h runs first, lowerToC
// keeps mapGlobal/mapWorkGroup/mapLocal, `files.source` is the kernel
// (SYMBOL.cl, verified as OpenCL C 1.2), `files.header` declares the host
// wrappers and `files.hostSource` (SYMBOL_host.c) defines them.
#pragma once

#include "codegen/c/EmitC.h"
#include "dpia/Program.h"
#include "rise/ast/Expr.h"
#include "rise/infer/Infer.h"

#include <string>
#include <vector>

namespace risec::codegen {

struct CompileResult {
  rise::TypedDef lowered;   ///< after lowerToC
  dpia::Program functional; ///< after RISE -> DPIA (body set)
  dpia::Program imperative; ///< after accT/conT (output and command set)
  c::CFiles files;
};

/// One file of a kernel's output, named relative to the output directory.
struct OutputFile {
  std::string name;
  std::string contents;
};

/// The files written for a compiled kernel, in a fixed order: SYMBOL.c (or
/// SYMBOL.cl), SYMBOL.h, and for opencl SYMBOL_host.c (the host wrappers,
/// codegen/host/HostWrappers.h).
std::vector<OutputFile> outputFiles(const CompileResult& r);

/// Compiles the typed def `def` of `program` to C (or C + OpenMP).
CompileResult compileToC(const rise::Program& program, const rise::TypedDef& def,
                         const c::COptions& opts);

} // namespace risec::codegen
