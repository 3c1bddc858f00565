// Building, checking and timing one candidate of `risec tune`
// (docs/tuning.md): the generated C of a kernel is compiled into a shared
// object together with a small generated C wrapper (`risec_tune_call`, which
// passes buffers and sizes to the kernel's ABI, codegen/KernelAbi.h), loaded
// with dlopen, checked against the reference interpreter on random inputs
// and timed at the bench sizes.
#pragma once

#include "codegen/c/EmitC.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/Value.h"
#include "rise/interp/ValueIO.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace risec::tune {

/// How a candidate's C is built: the compiler ($CC, else `cc`) and its flags.
struct BuildSettings {
  std::string cc = "cc";
  std::vector<std::string> flags; ///< e.g. -O3 -march=x86-64-v3 -fopenmp
};

/// The compiler named by $CC, else `cc`.
std::string defaultCompiler();

/// A candidate that failed to build (the compiler's output in what()).
struct BuildFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The elements of one argument of the ABI, as bytes of its C element type.
struct Buffer {
  rise::ScalarKind kind = rise::ScalarKind::F32;
  std::size_t count = 0;
  std::vector<unsigned char> bytes;
};

/// A kernel built into a shared object and loaded.
class LoadedKernel {
public:
  /// Writes the files into `dir` (created), builds dir/kernel.so and loads it.
  /// Throws BuildFailure when the compiler fails, CompileError (E0836) when
  /// the kernel's ABI has parameters the tuner cannot pass (pairs).
  LoadedKernel(const std::filesystem::path& dir, const codegen::c::CFiles& files,
               const BuildSettings& settings);
  ~LoadedKernel();
  LoadedKernel(const LoadedKernel&) = delete;
  LoadedKernel& operator=(const LoadedKernel&) = delete;

  const codegen::KernelAbi& abi() const { return abi_; }

  /// Calls the kernel: sizes by name, one buffer per input (a scalar input is
  /// a buffer of one element), one per output; returns its status (nonzero:
  /// the sizes violate its preconditions).
  int call(const std::map<std::string, std::int64_t>& sizes, const std::vector<Buffer>& inputs,
           std::vector<Buffer>& outputs) const;

  /// Buffers of the right kinds and counts for `sizes`: inputs filled with
  /// deterministic pseudo-random values, outputs zeroed.
  void makeBuffers(const std::map<std::string, std::int64_t>& sizes, std::vector<Buffer>& inputs,
                   std::vector<Buffer>& outputs) const;

private:
  codegen::KernelAbi abi_;
  void* handle_ = nullptr;
  using CallFn = int (*)(void* const*, const int*, const void* const*);
  CallFn call_ = nullptr;
};

/// The scalars of a value (arrays and vectors flattened) into a buffer.
Buffer toBuffer(rise::ScalarKind kind, const rise::interp::Value& v);

/// Whether `actual` holds the scalars of `expected` (floats within an
/// absolute and relative tolerance of 1e-4, like the tests; others exactly);
/// else the first difference in `why`.
bool matches(const rise::interp::Value& expected, const Buffer& actual, std::string& why);

/// The outcome of checking a candidate against the interpreter.
struct CheckOutcome {
  enum class Status { Correct, Wrong, NotRun } status = Status::NotRun;
  std::string detail;                        ///< Wrong: the difference; NotRun: why
  std::map<std::string, std::int64_t> sizes; ///< Wrong: where; Correct: the first size checked
  int checked = 0;                           ///< how many sizes it matched at
};

/// Runs the kernel at each of `sizeSets` on random inputs (seeded) and
/// compares with the interpreter's result wherever it returns 0; Wrong at
/// the first difference, Correct if it ran and matched at one size at least.
CheckOutcome
checkAgainstInterpreter(const LoadedKernel& k, const rise::TypedDef& def,
                        const std::vector<std::map<std::string, std::int64_t>>& sizeSets,
                        std::uint64_t seed = 1);

/// The best wall-clock seconds per call of `runs` timed runs at `sizes`
/// (after one warm-up call; a run repeats a short kernel for about 20 ms);
/// negative when the kernel returns nonzero there.
double timeKernel(const LoadedKernel& k, const std::map<std::string, std::int64_t>& sizes,
                  int runs);

} // namespace risec::tune
