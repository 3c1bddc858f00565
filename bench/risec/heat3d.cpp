// risec variants of heat3d: 7-point heat step, zero borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(heat3d, (float*, int, int, int, const float*), [](auto f, bench::Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), dim(d, 2), input(d, 0));
})
