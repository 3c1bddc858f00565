// risec variants of vmap: out = xs * xs + 1 (vectorised map) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(vmap, (float*, int, const float*),
                   [](auto f, bench::Data& d) { return f(d.out.data(), dim(d, 0), input(d, 0)); })
