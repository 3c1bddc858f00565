// risec variants of axpy: out = a * x + y (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(axpy)
