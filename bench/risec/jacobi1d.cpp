// risec variants of jacobi1d: 3-point mean, zero borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(jacobi1d)
