// risec variants of gaussian: separable 5x5 binomial blur, clamped borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(gaussian, (float*, int, int, const float*), [](auto f, bench::Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0));
})
