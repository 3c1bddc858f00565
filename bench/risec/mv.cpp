// risec variants of mv: out = M x (M: n x m) (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(mv)
