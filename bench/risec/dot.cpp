// risec variants of dot: out[0] = sum a * b (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(dot, (float*, int, const float*, const float*), [](auto f, bench::Data& d) {
  return f(d.out.data(), dim(d, 0), input(d, 0), input(d, 1));
})
