// risec variants of scan: out[i] = xs[0] + ... + xs[i] (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(scan)
