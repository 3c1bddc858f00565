// bench/awkward/halide.cpp: the Halide 14 anchors of bench/awkward/awkward.c,
// gaussian and harris behind a C interface (halide.h): the pipelines of
// bench/run (bench/anchors/HalidePipelines.h), each JIT-compiled at its first
// call (awkward.c makes an untimed call first); HL_NUM_THREADS sets the size
// of Halide's thread pool.
#include "halide.h"

#include "../anchors/HalidePipelines.h"

using namespace bench::halide;

extern "C" int halide_gaussian(float* out, int h, int w, const float* image) {
  static std::unique_ptr<JitPipeline> p = gaussian();
  return p->run(out, h, w, image);
}

extern "C" int halide_harris(float* out, int h, int w, const float* image) {
  static std::unique_ptr<JitPipeline> p = harris();
  return p->run(out, h, w, image);
}
