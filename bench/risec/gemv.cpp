// risec variants of gemv: out = alpha * A x + beta * y (A: n x m) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(gemv, (float*, int, int, float, const float*, const float*, float, const float*),
                   [](auto f, bench::Data& d) {
                     return f(d.out.data(), dim(d, 0), dim(d, 1), d.alpha, input(d, 0), input(d, 1),
                              d.beta, input(d, 2));
                   })
