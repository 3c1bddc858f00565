// risec variants of nbody: softened gravitational accelerations (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(nbody, (float*, int, const float*),
                   [](auto f, bench::Data& d) { return f(d.out.data(), dim(d, 0), input(d, 0)); })
