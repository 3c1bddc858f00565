// risec variants of mm: out = A B (A: m x k, B: k x n) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(mm, (float*, int, int, int, const float*, const float*),
                   [](auto f, bench::Data& d) {
                     return f(d.out.data(), dim(d, 0), dim(d, 1), dim(d, 2), input(d, 0),
                              input(d, 1));
                   })
