// The Halide 14 pipelines of the benchmark's image kernels (gaussian blur
// 5x5, conv2d 3x3, jacobi 2D, harris), with schedules in Halide's usual
// style: strips or tiles in parallel, x vectorised, intermediates compute_at
// the strip or tile. Zero-padded inputs are staged per strip
// (`in.compute_at(output, y)`): Halide 14 does not partition the clamped
// loads of BoundaryConditions out of a vectorised loop, so inlining them puts
// gathers into every vector (5-25x slower at 256x256); staging pays the
// border test once per element. Used by bench_halide (HalideBench.cpp, the
// anchors of bench/run) and bench/awkward (halide.cpp). Semantics and
// borders are those of bench/Kernels.md.
#pragma once

#include <Halide.h>

#include <memory>
#include <string>
#include <vector>

namespace bench::halide {

/// Floats per vector of the JIT target, the host's ISA (16 with AVX-512, 8
/// with AVX2, 4 with SSE): every schedule vectorises by it, so the anchor
/// follows the CPU (issue 22).
int vectorWidth();

/// A JIT-compiled pipeline over 2-D float images (x = column, y = row).
struct JitPipeline {
  Halide::ImageParam input{Halide::Float(32), 2, "input"};
  Halide::ImageParam weights{Halide::Float(32), 2, "weights"}; // conv2d only
  Halide::Func output{"output"};
  Halide::Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"};
  bool usesWeights = false;
  bool compiled = false;
  /// Empty: the hand schedule of the factory. Else the autoscheduler
  /// (Mullapudi2016, Adams2019, Li2018) that compile(h, w) runs.
  std::string autoscheduler;

  /// JIT-compiles the pipeline (once; run does it too when needed).
  void compile();
  /// An autoscheduled pipeline: the estimates of an h x w image, the
  /// autoscheduler's schedule for `threads` cores, then the JIT (once).
  void compile(int h, int w, int threads);
  /// out (h x w) from in (h x w) and, for conv2d, the 3x3 weights.
  int run(float* out, int h, int w, const float* in, const float* weights3x3 = nullptr);
};

/// The pipelines, with the hand schedule (autoscheduler empty) or none, for
/// compile(h, w, threads) to give them the named autoscheduler's.
std::unique_ptr<JitPipeline> gaussian(const std::string& autoscheduler = "");
std::unique_ptr<JitPipeline> conv2d(const std::string& autoscheduler = "");
std::unique_ptr<JitPipeline> jacobi2d(const std::string& autoscheduler = "");
std::unique_ptr<JitPipeline> harris(const std::string& autoscheduler = "");

/// The autoschedulers of Debian's Halide 14 (libautoschedule_NAME.so, loaded
/// from its plugin folder on first use), by the names auto_schedule takes.
const std::vector<std::string>& autoschedulers();

} // namespace bench::halide
