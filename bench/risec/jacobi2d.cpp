// risec variants of jacobi2d: 5-point mean, zero borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(jacobi2d)
