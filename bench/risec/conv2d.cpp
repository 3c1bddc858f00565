// risec variants of conv2d: 3x3 weights, zero borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(conv2d, (float*, int, int, const float*, const float*),
                   [](auto f, bench::Data& d) {
                     return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0), input(d, 1));
                   })
