// risec variants of maxreduce: out[0] = max xs (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(maxreduce)
