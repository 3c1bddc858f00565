// risec variants of reduce: out[0] = sum xs (tree reduction) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(reduce, (float*, int, const float*),
                   [](auto f, bench::Data& d) { return f(d.out.data(), dim(d, 0), input(d, 0)); })
