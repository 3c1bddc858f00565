#include "codegen/Compile.h"

#include "codegen/CheckProgram.h"
#include "codegen/FormatAndVerify.h"
#include "codegen/HoistTemporaries.h"
#include "codegen/c/CPrinter.h"
#include "codegen/c/DeadStores.h"
#include "codegen/c/Unswitch.h"
#include "codegen/opencl/Barriers.h"
#include "codegen/openmp/SimdLoops.h"
#include "dpia/FromRise.h"
#include "dpia/Printer.h"
#include "dpia/Translate.h"
#include "lower/LowerToC.h"
#include "rise/print/Printer.h"
#include "support/Diagnostic.h"
#include "support/PassTimer.h"

namespace risec::codegen {

namespace {

dpia::Program withCommand(const dpia::Program& p, const dpia::Phrase& command) {
  dpia::Program q = p;
  q.command = command;
  return q;
}

} // namespace

std::vector<OutputFile> outputFiles(const CompileResult& r) {
  const KernelAbi& abi = r.files.abi;
  std::vector<OutputFile> files = {
      {abi.symbol + (abi.target == Target::OpenCL ? ".cl" : ".c"), r.files.source},
      {abi.symbol + ".h", r.files.header}};
  if (abi.target == Target::OpenCL)
    files.push_back({abi.symbol + "_host.c", r.files.hostSource});
  return files;
}

// The pipeline: every pass, in order (the table at the top of docs/dpia.md).
// The numbers are those of Compile.h and docs/dpia.md; `--time-passes` times
// stages 5 to 13 together as "emit". Stages 7, 9 and 13 share the emitter's
// state (c::Emission: names, memory, the ABI): the barriers of stage 8 go in
// between them because their comments name the temporaries as the kernel
// does. For OpenCL, stage 9 may start the emitter over from stage 7 once,
// with private arrays distributed over the work-items (c::emitStatements).
CompileResult compileToC(const rise::Program& program, const rise::TypedDef& def,
                         const c::COptions& opts) {
  bool openmp = opts.target == Target::OpenMP, opencl = opts.target == Target::OpenCL;
  lower::LowerTarget lowering = backendFor(opts.target);
  CompileResult r;
  // 0. what the target cannot compile: layouts, OpenCL's vectors (codegen/CheckProgram.h)
  checkTypedProgram(def, opts.target);
  // 1. lowerToC: every choice made, low-level RISE (lower/LowerToC.h)
  r.lowered = timed("lowerToC", [&] { return lower::lowerToC(program, def, lowering); });
  // 2. the parallel mapping is legal for OpenMP / OpenCL (codegen/CheckProgram.h);
  // OpenCL's rule 7 is decided per kernel phase at stage 8
  opencl::IndexingViolations indexing = checkParallelMapping(r.lowered, opts.target);
  // 3. RISE -> functional DPIA, read/write checked (dpia/FromRise.h)
  r.functional = timed("DPIA", [&] { return dpia::fromRise(r.lowered); });
  // 4. accT / conT: imperative DPIA (dpia/Translate.h)
  r.imperative = r.functional;
  timed("imperative", [&] { dpia::translateToImperative(r.imperative); });
  timed("emit", [&] {
    // 5. forUnroll loops of a constant trip count copied per index (dpia/Passes.h)
    r.unrolled = withCommand(r.imperative, dpia::unrollLoops(r.imperative.command));
    // 6. heap (C), local and global (OpenCL) temporaries out of every loop (HoistTemporaries.h)
    HoistedCommand hoisted = hoistTemporaries(r.unrolled.command, opts.target);
    r.hoisted = withCommand(r.unrolled, hoisted.command);
    r.temporaries = hoisted.temporaries;
    // 7. the ABI prologue: parameters, size checks, allocations (c/EmitPrologue.cpp)
    c::Emission emission = c::emitPrologue(r.hoisted, r.temporaries, opts);
    // 8. OpenCL: barriers for the local and global temporaries (opencl/Barriers.h),
    // and the kernel phases they cut, each exhaustive in its grid dimensions
    // (rule 7, opencl/MappingLegality.h)
    r.barriers =
        !opencl ? r.hoisted
                : withCommand(r.hoisted, opencl::insertBarriers(r.hoisted.command,
                                                                c::sharedTemporaries(emission)));
    opencl::checkIndexingPerPhase(r.barriers.command, indexing);
    // 9. views and commands -> C statements, parallel loops (c/EmitCommands.cpp)
    r.statements = c::emitStatements(emission, r.barriers.command);
    // 10. loops unswitched on the guards invariant in them, then loops of one
    // iteration replaced by their body (c/Unswitch.h)
    r.unswitched =
        opencl ? r.statements : c::inlineSingleIterations(c::unswitchLoops(r.statements));
    // 11. temporaries written but never read removed, with the prologue's
    // declarations of those on the stack (c/DeadStores.h)
    std::set<std::string> removed;
    r.liveStatements =
        c::eliminateDeadStores(r.unswitched, c::stackTemporaries(emission), &removed);
    c::dropStackTemporaries(emission, removed);
    // 12. OpenMP: `omp simd` on the inner loops of parallel loops (openmp/SimdLoops.h)
    r.simdStatements = openmp ? openmp::markSimdLoops(r.liveStatements) : r.liveStatements;
    // 13. the files: function or kernel, header, host wrappers (c/EmitFiles.cpp)
    r.files = c::assembleFiles(emission, r.simdStatements);
  });
  // 14. formatted, then verified by Clang (codegen/FormatAndVerify.h)
  r.files = formatAndVerify(std::move(r.files), opts.symbol, opts.target);
  return r;
}

const std::vector<std::string>& dumpStages() {
  static const std::vector<std::string> stages = {
      "lower",      "dpia",     "imperative", "unroll", "hoist", "barriers",
      "statements", "unswitch", "deadstores", "simd",   "c"};
  return stages;
}

std::string dumpStage(const CompileResult& r, const std::string& stage) {
  if (stage == "lower")
    return "def " + r.lowered.name + " =\n  " + rise::printExpr(r.lowered.expr) + "\n";
  if (stage == "dpia")
    return dpia::printProgram(r.functional, false);
  if (stage == "imperative")
    return dpia::printProgram(r.imperative, true);
  if (stage == "unroll")
    return dpia::printProgram(r.unrolled, true);
  if (stage == "hoist") {
    std::string s = "// hoisted, allocated before the command:\n";
    for (const dpia::HoistedAllocation& h : r.temporaries)
      s += "//   " + h.name + ": " + rise::typeToString(h.type) + "\n";
    return s + dpia::printProgram(r.hoisted, true);
  }
  if (stage == "barriers")
    return dpia::printProgram(r.barriers, true);
  if (stage == "statements")
    return c::printStmts(r.statements);
  if (stage == "deadstores")
    return c::printStmts(r.liveStatements);
  if (stage == "unswitch")
    return c::printStmts(r.unswitched);
  if (stage == "simd")
    return c::printStmts(r.simdStatements);
  if (stage == "c")
    return r.files.source;
  throw InternalError("dumpStage: unknown stage `" + stage + "`");
}

} // namespace risec::codegen
