// risec variants of jacobi2d: 5-point mean, zero borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(jacobi2d, (float*, int, int, const float*), [](auto f, bench::Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0));
})
