// risec variants of vmap: out = xs * xs + 1 (vectorised map) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(vmap)
