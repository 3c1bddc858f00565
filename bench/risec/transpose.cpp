// risec variants of transpose: out = A^T (A: n x m) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(transpose, (float*, int, int, const float*), [](auto f, bench::Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0));
})
