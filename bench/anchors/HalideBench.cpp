// Halide 14 pipelines for gaussian blur 5x5 (separable), conv2d 3x3, jacobi
// 2D (5 points) and harris corner detection, with schedules in Halide's usual
// style (split, vectorize, parallel, store_at/compute_at as in Halide's apps/blur
// and apps/harris manual schedules: strips of 32 rows in parallel, x
// vectorised, intermediates computed row by row in a sliding window, so that
// only the first and last vector of a row take the border path). Each
// pipeline is JIT-compiled
// once, outside the timed region; HL_NUM_THREADS sets the thread pool size.
// Semantics and borders are those of bench/Kernels.md (checked against the
// naive C before timing).
#include "../common/Harness.h"

#include <Halide.h>

#include <map>
#include <memory>

using namespace Halide;
using bench::Data;

namespace {

constexpr int kVec = 16; // floats per AVX-512 vector

/// A JIT-compiled pipeline over 2-D float images (x = column, y = row).
struct JitPipeline {
  ImageParam input{Float(32), 2, "input"};
  ImageParam weights{Float(32), 2, "weights"}; // conv2d only
  Func output{"output"};
  Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"};
  bool usesWeights = false;

  void compile() { output.compile_jit(get_jit_target_from_environment()); }

  int run(Data& d) {
    int h = int(d.dims[0]), w = int(d.dims[1]);
    input.set(Buffer<float>(d.in[0].data(), w, h));
    if (usesWeights)
      weights.set(Buffer<float>(d.in[1].data(), 3, 3));
    Buffer<float> out(d.out.data(), w, h);
    output.realize(out);
    return 0;
  }
};

/// (1 4 6 4 1)/16 along x, then along y; clamped borders.
std::unique_ptr<JitPipeline> gaussian() {
  auto p = std::make_unique<JitPipeline>();
  Var &x = p->x, &y = p->y;
  Func in = BoundaryConditions::repeat_edge(p->input);
  Func rows("rows");
  rows(x, y) = (in(x - 2, y) + in(x + 2, y)) * 0.0625f + (in(x - 1, y) + in(x + 1, y)) * 0.25f +
               in(x, y) * 0.375f;
  Func clampedRows = BoundaryConditions::repeat_edge(
      rows, {{0, p->input.dim(0).extent()}, {0, p->input.dim(1).extent()}});
  Func& out = p->output;
  out(x, y) = (clampedRows(x, y - 2) + clampedRows(x, y + 2)) * 0.0625f +
              (clampedRows(x, y - 1) + clampedRows(x, y + 1)) * 0.25f + clampedRows(x, y) * 0.375f;
  // schedule: apps/blur (strips in parallel, the row pass line-buffered)
  out.split(y, y, p->yi, 32).parallel(y).vectorize(x, kVec);
  rows.store_at(out, y).compute_at(out, p->yi).vectorize(x, kVec);
  return p;
}

/// 3x3 weights over the zero-padded image.
std::unique_ptr<JitPipeline> conv2d() {
  auto p = std::make_unique<JitPipeline>();
  p->usesWeights = true;
  Var &x = p->x, &y = p->y;
  Func in = BoundaryConditions::constant_exterior(p->input, 0.0f);
  Expr s = 0.0f;
  for (int di = 0; di < 3; di++)
    for (int dj = 0; dj < 3; dj++)
      s = s + in(x + dj - 1, y + di - 1) * p->weights(dj, di);
  p->output(x, y) = s;
  p->output.split(y, y, p->yi, 32).parallel(y).vectorize(x, kVec);
  return p;
}

/// (north + west + centre + east + south) * 0.2, zeros beyond the borders.
std::unique_ptr<JitPipeline> jacobi2d() {
  auto p = std::make_unique<JitPipeline>();
  Var &x = p->x, &y = p->y;
  Func in = BoundaryConditions::constant_exterior(p->input, 0.0f);
  p->output(x, y) = (in(x, y - 1) + in(x - 1, y) + in(x, y) + in(x + 1, y) + in(x, y + 1)) * 0.2f;
  p->output.split(y, y, p->yi, 32).parallel(y).vectorize(x, kVec);
  return p;
}

/// Sobel gradients (zero-padded image), their products, 3x3 box sums of the
/// zero-padded products, det - 0.04 trace^2.
std::unique_ptr<JitPipeline> harris() {
  auto p = std::make_unique<JitPipeline>();
  Var &x = p->x, &y = p->y;
  Func in = BoundaryConditions::constant_exterior(p->input, 0.0f);
  Func ix("ix"), iy("iy"), ixx("ixx"), ixy("ixy"), iyy("iyy");
  ix(x, y) = (in(x + 1, y - 1) + 2.0f * in(x + 1, y) + in(x + 1, y + 1)) -
             (in(x - 1, y - 1) + 2.0f * in(x - 1, y) + in(x - 1, y + 1));
  iy(x, y) = (in(x - 1, y + 1) + 2.0f * in(x, y + 1) + in(x + 1, y + 1)) -
             (in(x - 1, y - 1) + 2.0f * in(x, y - 1) + in(x + 1, y - 1));
  ixx(x, y) = ix(x, y) * ix(x, y);
  ixy(x, y) = ix(x, y) * iy(x, y);
  iyy(x, y) = iy(x, y) * iy(x, y);
  Region bounds{{0, p->input.dim(0).extent()}, {0, p->input.dim(1).extent()}};
  Func pxx = BoundaryConditions::constant_exterior(ixx, 0.0f, bounds);
  Func pxy = BoundaryConditions::constant_exterior(ixy, 0.0f, bounds);
  Func pyy = BoundaryConditions::constant_exterior(iyy, 0.0f, bounds);
  auto box = [&](Func f) {
    Expr s = 0.0f;
    for (int di = -1; di <= 1; di++)
      for (int dj = -1; dj <= 1; dj++)
        s = s + f(x + dj, y + di);
    return s;
  };
  Func sxx("sxx"), sxy("sxy"), syy("syy");
  sxx(x, y) = box(pxx);
  sxy(x, y) = box(pxy);
  syy(x, y) = box(pyy);
  p->output(x, y) = sxx(x, y) * syy(x, y) - sxy(x, y) * sxy(x, y) -
                    0.04f * (sxx(x, y) + syy(x, y)) * (sxx(x, y) + syy(x, y));
  // schedule: apps/harris (strips in parallel, gradient products line-buffered)
  p->output.split(y, y, p->yi, 32).parallel(y).vectorize(x, kVec);
  for (Func* f : {&ixx, &ixy, &iyy})
    f->store_at(p->output, y).compute_at(p->output, p->yi).vectorize(x, kVec);
  return p;
}

} // namespace

int main(int argc, char** argv) {
  std::map<std::string, std::shared_ptr<JitPipeline>> pipelines{{"gaussian", gaussian()},
                                                                {"conv2d", conv2d()},
                                                                {"jacobi2d", jacobi2d()},
                                                                {"harris", harris()}};
  std::string name = "halide" + bench::threadSuffix("HL_NUM_THREADS");
  for (auto& [kernel, pipeline] : pipelines) {
    pipeline->compile(); // JIT, once, outside every timed region
    bench::registerVariant(kernel, name, {{}, [pl = pipeline](Data& d) { return pl->run(d); }});
  }
  return bench::runBenchmarks(argc, argv);
}
