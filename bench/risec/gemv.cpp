// risec variants of gemv: out = alpha * A x + beta * y (A: n x m) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(gemv)
