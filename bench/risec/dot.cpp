// risec variants of dot: out[0] = sum a * b (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(dot)
