// risec variants of harris: Harris response, zero borders (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(harris)
