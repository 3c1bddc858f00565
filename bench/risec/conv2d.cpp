// risec variants of conv2d: 3x3 weights, zero borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(conv2d)
