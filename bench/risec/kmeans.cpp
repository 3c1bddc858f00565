// risec variants of kmeans: nearest-centroid assignment (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(kmeans)
