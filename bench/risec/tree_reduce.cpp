// risec variants of tree_reduce: out[j] = tree sum of the 16 floats of chunk j (bench/Kernels.md).
#include "RisecKernel.h"

RISEC_BENCH_KERNEL(tree_reduce)
