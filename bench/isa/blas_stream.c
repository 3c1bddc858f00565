// bench/isa/blas_stream.c: the BLAS-1/2 kernels of libkernels.a (as
// ./build.sh builds it) against STREAM-style loops of the same shape, in one
// process, so each kernel's bandwidth is a fraction of what the memory gives
// that access pattern (issue 14: at least 0.95). Used by bench/isa/blas.
//   blas_stream THREADS [N]
// THREADS 1: the `_c` kernels and the STREAM loops on one thread; 2 (or
// more): the `_openmp` kernels and the STREAM loops on that many OpenMP
// threads. N floats per vector (default 2^25, 128 MiB: far beyond the
// caches); gemv is N/1024 x 1024. Each line: kernel, STREAM loop, GB/s of
// both (median of MM_CALLS calls, default 11; bytes counted as STREAM does:
// each array read or written once), and the ratio.
// bench/isa/blas builds this file with -march=native (the loops are the
// machine's reference) and links the kernels from libkernels.a as it is.
#include "kernels.h"
#include "timing.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum Op { SCAL, AXPY, DOT, ASUM, GEMV, COPY_SCALE, TRIAD, READ2, READ1, READ_MATRIX };

static float *x, *y, *z, *A, *res;
static int n, calls, threads;
static volatile float sink;

// The reference for the kernels that only read: the sum of a[i] (times
// b[i] when b is given) with 64 independent partial sums per thread, so that
// the loop waits on memory, not on the latency of one chain of additions.
static float readSum(const float* a, const float* b, int len) {
  float total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
  {
    float part[64] = {0};
    if (b) {
#pragma omp for
      for (int i = 0; i < len / 64; ++i)
        for (int j = 0; j < 64; ++j)
          part[j] += a[64 * i + j] * b[64 * i + j];
    } else {
#pragma omp for
      for (int i = 0; i < len / 64; ++i)
        for (int j = 0; j < 64; ++j)
          part[j] += a[64 * i + j];
    }
    for (int j = 0; j < 64; ++j)
      total += part[j];
  }
  return total;
}

// One call of `op`; returns non-zero on a kernel error.
static int run(enum Op op) {
  int rows = n / 1024, cols = 1024;
  int par = threads > 1;
  switch (op) {
  case SCAL:
    return par ? scal_openmp(z, n, 1.5f, x) : scal_c(z, n, 1.5f, x);
  case AXPY:
    return par ? axpy_openmp(z, n, 1.5f, x, y) : axpy_c(z, n, 1.5f, x, y);
  case DOT:
    return par ? dot_openmp(res, n, x, y) : dot_c(res, n, x, y);
  case ASUM:
    return par ? asum_openmp(res, n, x) : asum_c(res, n, x);
  case GEMV:
    return par ? gemv_openmp(z, rows, cols, 1.5f, A, x, 0.5f, y)
               : gemv_c(z, rows, cols, 1.5f, A, x, 0.5f, y);
  case COPY_SCALE:
#pragma omp parallel for simd num_threads(threads)
    for (int i = 0; i < n; ++i)
      z[i] = 1.5f * x[i];
    return 0;
  case TRIAD:
#pragma omp parallel for simd num_threads(threads)
    for (int i = 0; i < n; ++i)
      z[i] = 1.5f * x[i] + y[i];
    return 0;
  case READ2:
    sink = readSum(x, y, n);
    return 0;
  case READ1:
    sink = readSum(x, NULL, n);
    return 0;
  case READ_MATRIX:
    sink = readSum(A, NULL, rows * cols);
    return 0;
  }
  return 1;
}

// GB/s of `op` moving `bytes` per call: the median of `calls` calls.
static double rate(enum Op op, double bytes) {
  double t[1000];
  if (run(op) != 0) {
    fprintf(stderr, "blas_stream: a kernel returned an error\n");
    exit(1);
  }
  for (int r = 0; r < calls; ++r) {
    double s = now();
    run(op);
    t[r] = now() - s;
  }
  qsort(t, (size_t)calls, sizeof(double), byTime);
  return bytes / t[calls / 2] / 1e9;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: blas_stream THREADS [N]\n");
    return 2;
  }
  threads = atoi(argv[1]);
  n = argc > 2 ? atoi(argv[2]) : 1 << 25;
  if (threads < 1 || n < 1024) {
    fprintf(stderr, "blas_stream: THREADS >= 1, N >= 1024\n");
    return 2;
  }
  n -= n % 1024;
  const char* callsEnv = getenv("MM_CALLS");
  calls = callsEnv ? atoi(callsEnv) : 11;
  if (calls < 1 || calls > 1000)
    calls = 11;
  omp_set_num_threads(threads);
  size_t bytes = (size_t)n * sizeof(float);
  x = aligned_alloc(64, bytes);
  y = aligned_alloc(64, bytes);
  z = aligned_alloc(64, bytes);
  A = aligned_alloc(64, bytes);
  res = aligned_alloc(64, 64);
  // first touch by the threads that will use the pages
#pragma omp parallel for num_threads(threads)
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 17) - 8.0f;
    y[i] = (float)(i % 5) - 2.0f;
    z[i] = 0;
    A[i] = (float)(i % 3) - 1.0f;
  }
  double f = (double)n * sizeof(float);
  struct {
    const char* kernel;
    enum Op op;
    const char* loop;
    enum Op ref;
    double bytes;
  } rows[] = {
      {"scal", SCAL, "scale z = s*x", COPY_SCALE, 2 * f},
      {"axpy", AXPY, "triad z = s*x + y", TRIAD, 3 * f},
      {"dot", DOT, "read 2: sum x*y", READ2, 2 * f},
      {"asum", ASUM, "read 1: sum x", READ1, f},
      {"gemv", GEMV, "read the matrix", READ_MATRIX, f},
  };
  printf("| kernel (%s, %d thread%s, n = %d) | GB/s | STREAM-style loop | GB/s | ratio |\n",
         threads > 1 ? "_openmp" : "_c", threads, threads > 1 ? "s" : "", n);
  printf("|---|---:|---|---:|---:|\n");
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    double k = rate(rows[i].op, rows[i].bytes), s = rate(rows[i].ref, rows[i].bytes);
    printf("| %s | %.1f | %s | %.1f | %.2f |\n", rows[i].kernel, k, rows[i].loop, s, k / s);
  }
  return 0;
}
