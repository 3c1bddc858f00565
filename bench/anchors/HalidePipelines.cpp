// The Halide 14 pipelines of the benchmark (HalidePipelines.h).
#include "HalidePipelines.h"

#include <map>

using namespace Halide;

namespace bench::halide {

int vectorWidth() {
  static const int width = get_jit_target_from_environment().natural_vector_size<float>();
  return width;
}

void JitPipeline::compile() {
  if (!compiled)
    output.compile_jit(get_jit_target_from_environment());
  compiled = true;
}

const std::vector<std::string>& autoschedulers() {
  static const std::vector<std::string> names = {"Mullapudi2016", "Adams2019", "Li2018"};
  return names;
}

namespace {

void loadAutoscheduler(const std::string& name) {
  static std::map<std::string, bool> loaded;
  if (loaded[name])
    return;
  std::string lib = name == "Mullapudi2016" ? "mullapudi2016"
                    : name == "Adams2019"   ? "adams2019"
                                            : "li2018";
  load_plugin("/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_" + lib + ".so");
  loaded[name] = true;
}

} // namespace

void JitPipeline::compile(int h, int w, int threads) {
  if (compiled)
    return;
  if (autoscheduler.empty()) {
    compile();
    return;
  }
  loadAutoscheduler(autoscheduler);
  input.dim(0).set_estimate(0, w);
  input.dim(1).set_estimate(0, h);
  if (usesWeights) {
    weights.dim(0).set_estimate(0, 3);
    weights.dim(1).set_estimate(0, 3);
  }
  output.set_estimate(x, 0, w).set_estimate(y, 0, h);
  Target target = get_jit_target_from_environment();
  // the machine: cores, last-level cache (16 MiB, a server part's share),
  // the cost of a load relative to an arithmetic op (Halide's default 40)
  Pipeline(output).auto_schedule(autoscheduler, target,
                                 MachineParams(threads, 16 * 1024 * 1024, 40));
  output.compile_jit(target);
  compiled = true;
}

int JitPipeline::run(float* out, int h, int w, const float* in, const float* weights3x3) {
  compile();
  input.set(Buffer<float>(const_cast<float*>(in), w, h));
  if (usesWeights)
    weights.set(Buffer<float>(const_cast<float*>(weights3x3), 3, 3));
  Buffer<float> o(out, w, h);
  output.realize(o);
  return 0;
}

/// (1 4 6 4 1)/16 along x, then along y; clamped borders.
std::unique_ptr<JitPipeline> gaussian(const std::string& autoscheduler) {
  auto p = std::make_unique<JitPipeline>();
  p->autoscheduler = autoscheduler;
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
  if (!autoscheduler.empty())
    return p;
  // schedule: the blur of the Halide tutorial (lesson 12)
  out.tile(x, y, p->xi, p->yi, 256, 32).vectorize(p->xi, vectorWidth()).parallel(y);
  rows.compute_at(out, x).vectorize(x, vectorWidth());
  return p;
}

/// 3x3 weights over the zero-padded image.
std::unique_ptr<JitPipeline> conv2d(const std::string& autoscheduler) {
  auto p = std::make_unique<JitPipeline>();
  p->autoscheduler = autoscheduler;
  p->usesWeights = true;
  Var &x = p->x, &y = p->y;
  Func in = BoundaryConditions::constant_exterior(p->input, 0.0f);
  Expr s = 0.0f;
  for (int di = 0; di < 3; di++)
    for (int dj = 0; dj < 3; dj++)
      s = s + in(x + dj - 1, y + di - 1) * p->weights(dj, di);
  p->output(x, y) = s;
  if (!autoscheduler.empty())
    return p;
  p->output.split(y, y, p->yi, 32).parallel(y).vectorize(x, vectorWidth());
  in.compute_at(p->output, y).vectorize(in.args()[0], vectorWidth());
  return p;
}

/// (north + west + centre + east + south) * 0.2, zeros beyond the borders.
std::unique_ptr<JitPipeline> jacobi2d(const std::string& autoscheduler) {
  auto p = std::make_unique<JitPipeline>();
  p->autoscheduler = autoscheduler;
  Var &x = p->x, &y = p->y;
  Func in = BoundaryConditions::constant_exterior(p->input, 0.0f);
  p->output(x, y) = (in(x, y - 1) + in(x - 1, y) + in(x, y) + in(x + 1, y) + in(x, y + 1)) * 0.2f;
  if (!autoscheduler.empty())
    return p;
  p->output.split(y, y, p->yi, 32).parallel(y).vectorize(x, vectorWidth());
  in.compute_at(p->output, y).vectorize(in.args()[0], vectorWidth());
  return p;
}

/// Sobel gradients (zero-padded image), their products, 3x3 box sums of the
/// zero-padded products, det - 0.04 trace^2.
std::unique_ptr<JitPipeline> harris(const std::string& autoscheduler) {
  auto p = std::make_unique<JitPipeline>();
  p->autoscheduler = autoscheduler;
  Var &x = p->x, &y = p->y;
  Func in = BoundaryConditions::constant_exterior(p->input, 0.0f);
  Func ix("ix"), iy("iy");
  ix(x, y) = (in(x + 1, y - 1) + 2.0f * in(x + 1, y) + in(x + 1, y + 1)) -
             (in(x - 1, y - 1) + 2.0f * in(x - 1, y) + in(x - 1, y + 1));
  iy(x, y) = (in(x - 1, y + 1) + 2.0f * in(x, y + 1) + in(x + 1, y + 1)) -
             (in(x - 1, y - 1) + 2.0f * in(x, y - 1) + in(x + 1, y - 1));
  // the products, zero outside the image (a select on values, not on loads)
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
  if (!autoscheduler.empty())
    return p;
  const int vec = vectorWidth();
  // schedule: Halide's own apps/harris (CPU): strips of 32 rows in
  // parallel, the input and both gradients as sliding windows over the
  // strip's rows (store_at the strip, compute_at each row), the gradients
  // computed in one loop; the products inlined into the box sums. (It
  // replaced strips with the input and the products per strip and the
  // gradients inlined into each product: 1078 -> 217 ms at 8192^2 on one
  // thread of an Intel Xeon with AVX-512.)
  p->output.split(y, y, p->yi, 32).parallel(y).vectorize(x, vec);
  in.store_at(p->output, y).compute_at(p->output, p->yi).vectorize(in.args()[0], vec);
  ix.store_at(p->output, y).compute_at(p->output, p->yi).vectorize(x, vec);
  iy.store_at(p->output, y).compute_at(p->output, p->yi).vectorize(x, vec);
  ix.compute_with(iy, x);
  return p;
}

} // namespace bench::halide
