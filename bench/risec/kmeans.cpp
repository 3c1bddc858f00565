// risec variants of kmeans: nearest-centroid assignment (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(kmeans, (std::int32_t*, int, int, int, const float*, const float*),
                   [](auto f, bench::Data& d) {
                     return f(d.outIndex.data(), dim(d, 0), dim(d, 1), dim(d, 2), input(d, 0),
                              input(d, 1));
                   })
