// risec variants of reduce: out[0] = sum xs (tree reduction) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(reduce)
