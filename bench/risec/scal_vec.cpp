// risec variants of scal_vec: out = alpha * xs on 4n floats (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(scal_vec)
