// risec variants of transpose: out = A^T (A: n x m) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(transpose)
