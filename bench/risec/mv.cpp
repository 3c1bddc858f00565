// risec variants of mv: out = M x (M: n x m) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(mv, (float*, int, int, const float*, const float*), [](auto f, bench::Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0), input(d, 1));
})
