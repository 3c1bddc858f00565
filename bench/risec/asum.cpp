// risec variants of asum: out[0] = sum |xs| (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(asum)
