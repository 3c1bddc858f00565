// risec variants of jacobi1d: 3-point mean, zero borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(jacobi1d, (float*, int, const float*),
                   [](auto f, bench::Data& d) { return f(d.out.data(), dim(d, 0), input(d, 0)); })
