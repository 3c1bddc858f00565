/* Times the variants of rowsum_relu against a plain C loop:
 *   bench [n m [repetitions]]        (default: 4096 4096 20)
 * prints, for each, the median time of the repetitions and the bandwidth it
 * reaches reading the n x m matrix. */
#define _POSIX_C_SOURCE 199309L
#include "tutorial_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The kernel in plain C, as a user would write it. */
static int rowsum_relu_naive(float* restrict out, int n, int m, float alpha,
                             const float* restrict M) {
  for (int i = 0; i < n; ++i) {
    float sum = 0.0f;
    for (int j = 0; j < m; ++j)
      sum += M[(size_t)i * m + j];
    out[i] = alpha * sum > 0.0f ? alpha * sum : 0.0f;
  }
  return 0;
}

typedef int (*kernel_fn)(float* restrict, int, int, float, const float* restrict);

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int by_value(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  int n = argc > 2 ? atoi(argv[1]) : 4096;
  int m = argc > 2 ? atoi(argv[2]) : 4096;
  int reps = argc > 3 ? atoi(argv[3]) : 20;
  if (n < 1 || m < 1 || reps < 1) {
    fprintf(stderr, "usage: bench [n m [repetitions]]\n");
    return 2;
  }
  static const struct {
    kernel_fn kernel;
    const char* name;
  } variants[] = {
      {rowsum_relu_naive, "naive C loop"},
      {rowsum_relu_c, "rowsum_relu_c"},
      {rowsum_relu_vec_c, "rowsum_relu_vec_c"},
      {rowsum_relu_openmp, "rowsum_relu_openmp"},
  };
  float* M = malloc((size_t)n * m * sizeof(float));
  float* out = malloc((size_t)n * sizeof(float));
  double* times = malloc((size_t)reps * sizeof(double));
  if (!M || !out || !times) {
    fprintf(stderr, "bench: out of memory\n");
    return 1;
  }
  for (size_t k = 0; k < (size_t)n * m; ++k)
    M[k] = (float)(rand() % 2001) / 1000.0f - 1.0f;

  printf("rowsum_relu, n=%d m=%d, median of %d runs; vectorised variants at %s\n", n, m, reps,
         rowsum_relu_vec_c_selected_isa());
  int status = 0;
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; ++v) {
    status |= variants[v].kernel(out, n, m, 0.5f, M); /* warm-up */
    for (int r = 0; r < reps; ++r) {
      double start = seconds();
      status |= variants[v].kernel(out, n, m, 0.5f, M);
      times[r] = seconds() - start;
    }
    qsort(times, (size_t)reps, sizeof(double), by_value);
    double median = times[reps / 2];
    printf("  %-20s %9.3f ms %8.2f GB/s\n", variants[v].name, 1e3 * median,
           (double)n * m * sizeof(float) / median * 1e-9);
  }
  free(M);
  free(out);
  free(times);
  if (status != 0)
    fprintf(stderr, "bench: a kernel returned an error\n");
  return status != 0;
}
