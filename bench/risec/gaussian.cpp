// risec variants of gaussian: separable 5x5 binomial blur, clamped borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(gaussian)
