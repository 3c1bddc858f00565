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

  /// JIT-compiles the pipeline (once; run does it too when needed).
  void compile();
  /// out (h x w) from in (h x w) and, for conv2d, the 3x3 weights.
  int run(float* out, int h, int w, const float* in, const float* weights3x3 = nullptr);
};

std::unique_ptr<JitPipeline> gaussian();
std::unique_ptr<JitPipeline> conv2d();
std::unique_ptr<JitPipeline> jacobi2d();
std::unique_ptr<JitPipeline> harris();

} // namespace bench::halide
