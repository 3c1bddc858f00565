// risec variants of asum: out[0] = sum |xs| (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(asum, (float*, int, const float*),
                   [](auto f, bench::Data& d) { return f(d.out.data(), dim(d, 0), input(d, 0)); })
