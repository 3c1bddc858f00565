// bench/awkward/halide.cpp: the Halide 14 anchors of bench/awkward/awkward.c,
// gaussian and harris behind a C interface (halide.h). The pipelines and
// schedules are those of bench/anchors/HalideBench.cpp (the anchors of
// bench/run), copied here because that file is a Google Benchmark program;
// keep the two in step. Each pipeline is JIT-compiled at its first call
// (awkward.c makes an untimed call first); HL_NUM_THREADS sets the size of
// Halide's thread pool.
#include "halide.h"

#include <Halide.h>

#include <memory>

using namespace Halide;

namespace {

constexpr int kVec = 16; // floats per AVX-512 vector, as in HalideBench.cpp

/// A JIT-compiled pipeline from one 2-D float image (x = column, y = row).
struct JitPipeline {
  ImageParam input{Float(32), 2, "input"};
  Func output{"output"};
  Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"};
  bool compiled = false;

  int run(float* out, int h, int w, const float* in) {
    if (!compiled) {
      output.compile_jit(get_jit_target_from_environment());
      compiled = true;
    }
    input.set(Buffer<float>(const_cast<float*>(in), w, h));
    Buffer<float> o(out, w, h);
    output.realize(o);
    return 0;
  }
};

/// (1 4 6 4 1)/16 along x, then along y; clamped borders; the blur schedule
/// of the Halide tutorial (lesson 12).
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
  out.tile(x, y, p->xi, p->yi, 256, 32).vectorize(p->xi, kVec).parallel(y);
  rows.compute_at(out, x).vectorize(x, kVec);
  return p;
}

/// Sobel gradients (zero-padded image), their products, 3x3 box sums of the
/// zero-padded products, det - 0.04 trace^2; strips of 32 rows in parallel,
/// the padded input and the products staged per strip.
std::unique_ptr<JitPipeline> harris() {
  auto p = std::make_unique<JitPipeline>();
  Var &x = p->x, &y = p->y;
  Func in = BoundaryConditions::constant_exterior(p->input, 0.0f);
  Func ix("ix"), iy("iy");
  ix(x, y) = (in(x + 1, y - 1) + 2.0f * in(x + 1, y) + in(x + 1, y + 1)) -
             (in(x - 1, y - 1) + 2.0f * in(x - 1, y) + in(x - 1, y + 1));
  iy(x, y) = (in(x - 1, y + 1) + 2.0f * in(x, y + 1) + in(x + 1, y + 1)) -
             (in(x - 1, y - 1) + 2.0f * in(x, y - 1) + in(x + 1, y - 1));
  Expr inside = x >= 0 && x < p->input.dim(0).extent() && y >= 0 && y < p->input.dim(1).extent();
  Func pxx("pxx"), pxy("pxy"), pyy("pyy");
  pxx(x, y) = select(inside, ix(x, y) * ix(x, y), 0.0f);
  pxy(x, y) = select(inside, ix(x, y) * iy(x, y), 0.0f);
  pyy(x, y) = select(inside, iy(x, y) * iy(x, y), 0.0f);
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
  p->output.split(y, y, p->yi, 32).parallel(y).vectorize(x, kVec);
  in.compute_at(p->output, y).vectorize(in.args()[0], kVec);
  for (Func* f : {&pxx, &pxy, &pyy})
    f->compute_at(p->output, y).vectorize(x, kVec);
  return p;
}

} // namespace

extern "C" int halide_gaussian(float* out, int h, int w, const float* image) {
  static std::unique_ptr<JitPipeline> p = gaussian();
  return p->run(out, h, w, image);
}

extern "C" int halide_harris(float* out, int h, int w, const float* image) {
  static std::unique_ptr<JitPipeline> p = harris();
  return p->run(out, h, w, image);
}
