// risec variants of heat3d: 7-point heat step, zero borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(heat3d)
