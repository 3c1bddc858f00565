// Compiling RISE for OpenCL in-process and running the kernels on PoCL, for
// tests (CodegenOpenCLTest, OclFuzzTest, suites of ported programs). No
// GoogleTest in here: callers turn the results into expectations.
//
// PoCL loads LLVM 15 and the compiler libraries LLVM 14: they cannot share a
// process. Kernels therefore run in a small C program (the "runner"), built
// once per directory with gcc against the host runtime (risec_host_cl,
// host/risec_cl.h). One runner process runs a list of jobs (a kernel file, a
// launch configuration and the arguments), keeping every program it built,
// so that several launches of one kernel cost one PoCL start-up and one
// build (runBatch also puts many kernels into one program). Its job file,
// one job after the other:
//
//   job FILE.cl KERNEL DIMS G0 G1 G2 L0 L1 L2
//                      KERNEL: one kernel, or the kernels of a program's
//                      phases (docs/dpia.md, "Kernel phases") separated by
//                      commas, launched in order with the same arguments;
//                      one ending in `!` (a phase without a parallel map)
//                      runs as one work-item, the others with the launch
//   o COUNT            the output buffer (COUNT f32 words; filled with -1
//                      first); one per output component
//   n COUNT            an output buffer of COUNT i32 words (filled with -1)
//   i VALUE            an int size (or i32 scalar)
//   f VALUE            an f32 scalar
//   b COUNT VALUES...  an f32 input buffer
//   t COUNT BYTES      a global temporary of COUNT elements of BYTES bytes,
//                      filled with 0xff bytes (NaN as f32) so that reading
//                      it before writing it shows
//   end
//
// and it prints per job `job K` (before running it) then either `rc 0` and
// the output elements, or `rc CODE STAGE MESSAGE` (an OpenCL error code, or
// 1 for a build log). Programs are kept in memory by source text, so jobs of
// many kernels can share one process. RISEC_OCL_RUNNER_KEEP=1 keeps the
// kernel, job and stderr files in the runner's directory.
#pragma once

#include "codegen/Compile.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/Value.h"
#include "support/Diagnostic.h"

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace risec::testsupport {

// ---- compiling ------------------------------------------------------------------------

/// A RISE entry compiled for --target opencl.
struct CompiledKernel {
  rise::Program program;         ///< as parsed (after the strategy, if any)
  rise::TypedDef def;            ///< the entry, typed (after the strategy, if any)
  codegen::CompileResult result; ///< result.files.source is the kernel, .abi its parameters
};

/// The outcome of compileOpenCL: a kernel, or why there is none.
struct OclCompileOutcome {
  enum class Status {
    Compiled,  ///< `kernel` is set
    TypeError, ///< parsing or inference failed (CompileError in `error`)
    Rejected,  ///< the back end (or the strategy) rejected it (CompileError in `error`)
    Internal,  ///< InternalError or another exception: a compiler bug (`internal`)
  };
  Status status = Status::Internal;
  std::optional<CompiledKernel> kernel;
  std::optional<CompileError> error; ///< a user diagnostic: code and location
  std::string internal;              ///< the message of an internal error

  bool compiled() const { return status == Status::Compiled; }
  /// One line: "compiled", "E0641 at f.rise:3:5: message", "internal error: ...".
  std::string describe() const;
};

/// Parses `text` (named `name` in diagnostics), infers `entry` (the last def
/// when empty), applies `strategy` (the text of an .elevate file; none when
/// empty) and compiles for OpenCL with codegen::compileToC. Never throws on
/// bad input: a CompileError of parsing and inference is TypeError, one of
/// the strategy or the back end Rejected, anything else Internal. `launch`:
/// the launch configuration known at compile time (`risec compile --launch`,
/// e.g. "global=[64],local=[16]"), none when empty.
OclCompileOutcome compileOpenCL(const std::string& name, const std::string& text,
                                const std::string& strategy = "", const std::string& entry = "",
                                const std::string& launch = "");

// ---- running ----------------------------------------------------------------------------

/// An NDRange of 1 to 3 dimensions. Dimensions beyond `dims` are ignored.
struct Launch {
  unsigned dims = 1;
  std::size_t global[3] = {1, 1, 1};
  std::size_t local[3] = {1, 1, 1};

  /// "global 8x4 local 4x2".
  std::string str() const;
};

Launch launch1D(std::size_t g0, std::size_t l0);
Launch launch2D(std::size_t g0, std::size_t g1, std::size_t l0, std::size_t l1);
Launch launch3D(std::size_t g0, std::size_t g1, std::size_t g2, std::size_t l0, std::size_t l1,
                std::size_t l2);

/// The result of one kernel launch.
struct OclRunResult {
  /// 0: ran, `output` is set. Otherwise the runner's code (an OpenCL error
  /// such as -54 CL_INVALID_WORK_GROUP_SIZE, 1 for a failed build) or -1 when
  /// the runner did not answer (it crashed; `error` has its output).
  int rc = -1;
  std::optional<rise::interp::Value> output;
  std::string error; ///< what failed, when rc != 0
  bool ok() const { return rc == 0 && output.has_value(); }
};

/// The element count of an ABI parameter at the sizes `s`.
std::int64_t countAt(const rise::Nat& n, const rise::interp::SizeEnv& s);

/// The values of `type` as the f32 buffer (or scalar) the kernel receives:
/// every scalar in row-major order.
std::vector<float> flatFloats(const rise::Type& type, const rise::interp::Value& v);

/// A built runner program. Build it once and reuse it for many kernels.
class OclRunner {
public:
  /// Builds the runner into `dir` (created). `ok()` says whether it built.
  explicit OclRunner(std::filesystem::path dir);

  /// Runs runBatch's jobs in up to `n` runner processes at a time (default 1).
  void setProcesses(std::size_t n) { processes_ = n; }
  /// `NAME=VALUE ...` set for the runner processes, e.g. PoCL's
  /// `POCL_WORK_GROUP_METHOD=loops` (compiles work-group functions faster).
  void setEnvironment(std::string env) { environment_ = std::move(env); }

  bool ok() const { return ok_; }
  const std::string& buildLog() const { return buildLog_; }
  const std::filesystem::path& dir() const { return dir_; }

  /// Runs `kernel` at the sizes `sizes` on `inputs` (their types those of
  /// rise::interp::instantiateEntry) once per launch, in one runner process.
  /// The kernel's inputs must be arrays or vectors of f32 (or of pairs of
  /// f32 and vectors of f32, laid out as the ABI's structs, padding
  /// included) or f32/i32 scalars, and its output
  /// such arrays, arrays of i32 (a pair of arrays: one buffer each) or an f32
  /// scalar; the global temporaries the ABI lists are allocated.
  /// Results in launch order.
  std::vector<OclRunResult> run(const CompiledKernel& kernel, const rise::interp::SizeEnv& sizes,
                                const std::vector<rise::interp::Value>& inputs,
                                const std::vector<Launch>& launches);

  /// One launch of a kernel at some sizes on some inputs.
  struct Job {
    rise::interp::SizeEnv sizes;
    std::vector<rise::interp::Value> inputs;
    Launch launch;
  };

  /// Runs every job of `kernel` in one runner process (one PoCL start-up,
  /// one program build); results in job order.
  std::vector<OclRunResult> run(const CompiledKernel& kernel, const std::vector<Job>& jobs);

  /// A job of some kernel (which must outlive the call).
  struct BatchJob {
    const CompiledKernel* kernel = nullptr;
    Job job;
  };

  /// Runs jobs of many kernels in as few runner processes as possible: PoCL
  /// starts up once (about a second on a cold kernel cache) instead of once
  /// per kernel. When the runner crashes or hangs in a job, that job fails
  /// (rc -1) and a new process goes on with the next one. Results in job
  /// order.
  std::vector<OclRunResult> runBatch(const std::vector<BatchJob>& jobs);

  /// Whether run() can feed `kernel` (the types above).
  static bool supports(const CompiledKernel& kernel, std::string* why = nullptr);

private:
  /// Runs jobs[i] for i in `which` (in that order), in as many runner
  /// processes as crashes need; sets results[i].rc and .error, and
  /// outputs[i] to the output's words when it ran. Touches no RISE types
  /// (runBatch calls it from several threads).
  void runJobs(const std::vector<BatchJob>& jobs, const std::vector<std::size_t>& which,
               const std::vector<std::string>& args, const std::vector<std::int64_t>& outputCounts,
               const std::map<const CompiledKernel*, std::filesystem::path>& fileOf,
               const std::string& tag, std::vector<OclRunResult>& results,
               std::vector<std::vector<std::string>>& outputs);

  std::filesystem::path dir_;
  bool ok_ = false;
  std::string buildLog_;
  int calls_ = 0;
  std::size_t processes_ = 1;
  std::string environment_;
};

/// The runner of this process, built on first use in a temporary directory
/// (removed at exit).
OclRunner& defaultOclRunner();

/// defaultOclRunner().run for one launch.
OclRunResult runOpenCL(const CompiledKernel& kernel, const rise::interp::SizeEnv& sizes,
                       const std::vector<rise::interp::Value>& inputs, const Launch& launch);

} // namespace risec::testsupport
