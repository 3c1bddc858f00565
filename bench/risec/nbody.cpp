// risec variants of nbody: softened gravitational accelerations, n x (ax, ay, az)
// (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(nbody)
