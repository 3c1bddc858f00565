// risec variants of mm: out = A B (A: m x k, B: k x n) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(mm)
