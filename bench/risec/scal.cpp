// risec variants of scal: out = alpha * xs (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(scal, (float*, int, float, const float*), [](auto f, bench::Data& d) {
  return f(d.out.data(), dim(d, 0), d.alpha, input(d, 0));
})
