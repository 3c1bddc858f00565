// bench/isa/mm_levels.c: sgemm at N^3 with the mm kernels of libkernels.a as
// ./build.sh builds it (the manifest's flags: -O3, one function per ISA
// level behind a dispatcher), and with OpenBLAS's cblas_sgemm loaded from a
// given libopenblas.so.0 (dlopen: serial or OpenMP build). Used by
// bench/isa/run; RISEC_ISA picks the level of the dispatchers. Each run
// makes one untimed call, then MM_CALLS timed ones (default 11), and prints
// the median and the best rate (GFLOP/s). SIZE is N (N x N x N) or MxNxK
// (C = A x B with A m.k and B k.n):
//   mm_levels risec SIZE THREADS     -> "<selected isa> <median> <best> <max abs err>"
//   mm_levels openblas SIZE LIBPATH  -> "<median> <best> <max abs err> <OpenBLAS core>"
#include "kernels.h"
#include "timing.h"

#include <dlfcn.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float*, int, const float*, int,
                         float, float*, int);

// "<median> <best>" in GFLOP/s of the `calls` times in t (sorted here).
static void printRates(int m, int n, int k, double* t, int calls) {
  qsort(t, (size_t)calls, sizeof(double), byTime);
  double flops = 2.0 * m * n * k;
  printf("%.1f %.1f", flops / t[calls / 2] / 1e9, flops / t[0] / 1e9);
}

// The largest difference from a double-precision reference on 64 entries.
static double check(int m, int n, int k, const float* A, const float* B, const float* C) {
  double worst = 0;
  for (int s = 0; s < 64; ++s) {
    int i = (s * 37) % m, j = (s * 91 + 5) % n;
    double ref = 0;
    for (int l = 0; l < k; ++l)
      ref += (double)A[(size_t)i * k + l] * (double)B[(size_t)l * n + j];
    double d = fabs(ref - (double)C[(size_t)i * n + j]);
    if (d > worst)
      worst = d;
  }
  return worst;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: mm_levels risec N THREADS | openblas N LIBPATH\n");
    return 2;
  }
  int m, n, k;
  if (sscanf(argv[2], "%dx%dx%d", &m, &n, &k) != 3) {
    m = n = k = atoi(argv[2]);
  }
  if (m < 1 || n < 1 || k < 1) {
    fprintf(stderr, "mm_levels: SIZE is N or MxNxK, each at least 1\n");
    return 2;
  }
  // aligned_alloc needs a multiple of the alignment
  size_t a = ((size_t)m * k * sizeof(float) + 63) / 64 * 64,
         b = ((size_t)k * n * sizeof(float) + 63) / 64 * 64,
         c = ((size_t)m * n * sizeof(float) + 63) / 64 * 64;
  float *A = aligned_alloc(64, a), *B = aligned_alloc(64, b), *C = aligned_alloc(64, c);
  srand(1);
  for (size_t i = 0; i < (size_t)m * k; ++i)
    A[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  for (size_t i = 0; i < (size_t)k * n; ++i)
    B[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  const char* callsEnv = getenv("MM_CALLS");
  int calls = callsEnv ? atoi(callsEnv) : 11;
  if (calls < 1 || calls > 1000)
    calls = 11;
  double* times = malloc(sizeof(double) * (size_t)calls);
  if (strcmp(argv[1], "risec") == 0) {
    int threads = atoi(argv[3]);
    omp_set_num_threads(threads);
    for (int r = 0; r <= calls; ++r) { // the first call also picks the level
      double t = now();
      int rc = threads == 0 ? mm_register_tiles_c(C, m, n, k, A, B)
                            : mm_register_tiles_openmp(C, m, n, k, A, B);
      t = now() - t;
      if (rc != 0) {
        fprintf(stderr, "mm_register_tiles returned %d\n", rc);
        return 1;
      }
      if (r > 0)
        times[r - 1] = t;
    }
    printf("%s ", threads == 0 ? mm_register_tiles_c_selected_isa()
                               : mm_register_tiles_openmp_selected_isa());
    printRates(m, n, k, times, calls);
    printf(" %.2g\n", check(m, n, k, A, B, C));
    return 0;
  }
  void* lib = dlopen(argv[3], RTLD_NOW | RTLD_LOCAL);
  sgemm_fn sgemm = lib ? (sgemm_fn)dlsym(lib, "cblas_sgemm") : NULL;
  if (!sgemm) {
    fprintf(stderr, "cannot load cblas_sgemm from %s\n", argv[3]);
    return 1;
  }
  for (int r = 0; r <= calls; ++r) {
    double t = now();
    sgemm(101 /* row major */, 111, 111, m, n, k, 1.0f, A, k, B, n, 0.0f, C, n);
    t = now() - t;
    if (r > 0)
      times[r - 1] = t;
  }
  printRates(m, n, k, times, calls);
  // the kernel OpenBLAS runs (OPENBLAS_CORETYPE, else its own detection,
  // which in 0.3.21 takes a CPU it does not know for Prescott: bench/isa/run)
  typedef char* (*corename_fn)(void);
  corename_fn corename = (corename_fn)dlsym(lib, "openblas_get_corename");
  printf(" %.2g %s\n", check(m, n, k, A, B, C), corename ? corename() : "?");
  return 0;
}
