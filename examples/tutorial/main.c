/* Calls every variant of the kernel rowsum_relu, checks its return code and
 * compares its result with a plain C loop. Returns non-zero on any error. */
#include "tutorial_kernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The kernel in plain C: out[i] = max(alpha * (M[i][0] + ... + M[i][m-1]), 0). */
static void rowsum_relu_naive(float* out, int n, int m, float alpha, const float* M) {
  for (int i = 0; i < n; ++i) {
    float sum = 0.0f;
    for (int j = 0; j < m; ++j)
      sum += M[(size_t)i * m + j];
    out[i] = alpha * sum > 0.0f ? alpha * sum : 0.0f;
  }
}

/* 1 if `got` equals `want` up to rounding (the vectorised variants add in
 * another order), else 0 with a message. */
static int close_enough(const float* got, const float* want, int n, const char* what) {
  for (int i = 0; i < n; ++i)
    if (fabsf(got[i] - want[i]) > 1e-4f * (1.0f + fabsf(want[i]))) {
      fprintf(stderr, "%s: out[%d] is %g, expected %g\n", what, i, got[i], want[i]);
      return 0;
    }
  return 1;
}

typedef int (*kernel_fn)(float* restrict, int, int, float, const float* restrict);

/* Runs `kernel` on a random n x m matrix; 1 if it returns 0 with the right result. */
static int check(kernel_fn kernel, const char* name, int n, int m) {
  float* M = malloc(((size_t)n * m + 1) * sizeof(float));
  float* out = malloc(((size_t)n + 1) * sizeof(float));
  float* want = malloc(((size_t)n + 1) * sizeof(float));
  int ok = 0;
  if (M && out && want) {
    for (size_t k = 0; k < (size_t)n * m; ++k)
      M[k] = (float)(rand() % 2001) / 1000.0f - 1.0f;
    const float alpha = 0.5f;
    rowsum_relu_naive(want, n, m, alpha, M);
    int status = kernel(out, n, m, alpha, M);
    if (status != 0)
      fprintf(stderr, "%s(n=%d, m=%d) returned %d\n", name, n, m, status);
    else
      ok = close_enough(out, want, n, name);
  }
  free(M);
  free(out);
  free(want);
  return ok;
}

int main(void) {
  static const struct {
    kernel_fn kernel;
    const char* name;
  } variants[] = {
      {rowsum_relu_c, "rowsum_relu_c"},
      {rowsum_relu_vec_c, "rowsum_relu_vec_c"},
      {rowsum_relu_openmp, "rowsum_relu_openmp"},
  };
  static const int sizes[][2] = {{0, 5}, {1, 1}, {7, 13}, {100, 1000}, {3, 4099}};
  int ok = 1;
  srand(1);
  for (size_t v = 0; v < sizeof variants / sizeof variants[0]; ++v)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
      ok &= check(variants[v].kernel, variants[v].name, sizes[s][0], sizes[s][1]);

  /* A negative size is refused with 2 and nothing is written. */
  float M[4] = {1, 2, 3, 4}, out[1] = {42.0f};
  ok &= rowsum_relu_c(out, -1, 4, 1.0f, M) == 2 && out[0] == 42.0f;

#ifdef TUTORIAL_OPENCL
  /* The OpenCL variant runs on the default device (the environment variable
   * RISEC_CL_DEVICE chooses another); skip it when there is none. */
  risec_cl_context* ctx;
  if (risec_cl_default(&ctx) != 0)
    printf("rowsum_relu_opencl: skipped: %s\n", risec_cl_default_error());
  else
    ok &= check(rowsum_relu_opencl, "rowsum_relu_opencl", 100, 1000) &&
          check(rowsum_relu_opencl, "rowsum_relu_opencl", 3, 4099);
#endif

  printf("rowsum_relu_vec_c runs its %s function\n", rowsum_relu_vec_c_selected_isa());
  printf("%s\n", ok ? "tutorial: all results correct" : "tutorial: WRONG RESULTS");
  return ok ? 0 : 1;
}
