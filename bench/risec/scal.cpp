// risec variants of scal: out = alpha * xs (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(scal)
