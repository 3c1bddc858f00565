// The compiler pipeline for one entry (the table at the top of
// docs/dpia.md): parse and infer happen before (the caller has a TypedDef);
// compileToC then runs every pass in order, as one list in
// codegen/Compile.cpp:
//    0. checkTypedProgram      layouts; OpenCL: address spaces, vector types
//    1. lowerToC               -> low-level RISE               --dump=lower
//    2. checkParallelMapping   OpenMP / OpenCL legality
//    3. fromRise               -> functional DPIA              --dump=dpia
//    4. translateToImperative  accT/conT -> imperative DPIA    --dump=imperative
//    5. unrollLoops                                            --dump=unroll
//    6. hoistTemporaries                                       --dump=hoist
//    7. emitPrologue           parameters, ABI, checks, allocations
//    8. insertBarriers         OpenCL                          --dump=barriers
//    9. emitStatements         commands -> C statements        --dump=statements
//   10. eliminateDeadStores                                    --dump=deadstores
//   11. markSimdLoops          OpenMP                          --dump=simd
//   12. assembleFiles          SYMBOL.c / .cl, SYMBOL.h, SYMBOL_host.c
//   13. formatAndVerify        libFormat, then Clang           --dump=c
// For `opts.target == Target::OpenMP` lowerToC keeps mapPar/reducePar and the
// output is verified as C11 + OpenMP. For `opts.target == Target::OpenCL`
// (docs/dpia.md, "OpenCL") lowerToC keeps mapGlobal/mapWorkGroup/mapLocal,
// `files.source` is the kernel (SYMBOL.cl, verified as OpenCL C 1.2),
// `files.header` declares the host wrappers and `files.hostSource`
// (SYMBOL_host.c) defines them.
#pragma once

#include "codegen/c/EmitC.h"
#include "dpia/Passes.h"
#include "dpia/Program.h"
#include "rise/ast/Expr.h"
#include "rise/infer/Infer.h"

#include <string>
#include <vector>

namespace risec::codegen {

/// The result of every stage that has a dump (dumpStage).
struct CompileResult {
  rise::TypedDef lowered;   ///< 1. after lowerToC
  dpia::Program functional; ///< 3. after RISE -> DPIA (body set)
  dpia::Program imperative; ///< 4. after accT/conT (output and command set)
  dpia::Program unrolled;   ///< 5. after unrollLoops
  /// 6. after hoistTemporaries: the command without the hoisted `new`s
  dpia::Program hoisted;
  std::vector<dpia::HoistedAllocation> temporaries; ///< 6. the hoisted `new`s, outermost first
  dpia::Program barriers;               ///< 8. after insertBarriers (OpenCL; else as hoisted)
  std::vector<c::CStmt> statements;     ///< 9. the body's statements as emitted
  std::vector<c::CStmt> unswitched;     ///< 10. after unswitchLoops (C, OpenMP; else as 9)
  std::vector<c::CStmt> liveStatements; ///< 11. after eliminateDeadStores
  std::vector<c::CStmt> simdStatements; ///< 12. after markSimdLoops (OpenMP; else as 11)
  c::CFiles files;                      ///< 13, 14. formatted and verified
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

/// Compiles the typed def `def` of `program` to C (or C + OpenMP, or
/// OpenCL).
CompileResult compileToC(const rise::Program& program, const rise::TypedDef& def,
                         const c::COptions& opts);

/// The stages `risec compile --dump=STAGE` prints, in pipeline order.
const std::vector<std::string>& dumpStages();

/// The result of stage `stage` (one of dumpStages()) as text: RISE, DPIA,
/// C statements, or the source file (`c`).
std::string dumpStage(const CompileResult& r, const std::string& stage);

} // namespace risec::codegen
