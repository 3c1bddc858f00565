// risec variants of nbody: softened gravitational accelerations (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(nbody)
