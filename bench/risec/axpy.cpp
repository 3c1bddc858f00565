// risec variants of axpy: out = a * x + y (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(axpy, (float*, int, float, const float*, const float*),
                   [](auto f, bench::Data& d) {
                     return f(d.out.data(), dim(d, 0), d.alpha, input(d, 0), input(d, 1));
                   })
