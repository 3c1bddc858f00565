/* Calls a kernel of the installed library (mv_c from kernels.h) and the
 * kernels of our own library (rowsum_c and rowsum_openmp from mykernels.h),
 * and checks them against plain C loops. Returns non-zero on a wrong result. */
#include "kernels.h"
#include "mykernels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int close_enough(const float* got, const float* want, int n, const char* what) {
  for (int i = 0; i < n; ++i)
    if (fabsf(got[i] - want[i]) > 1e-3f * (1.0f + fabsf(want[i]))) {
      fprintf(stderr, "%s: element %d is %g, expected %g\n", what, i, got[i], want[i]);
      return 0;
    }
  return 1;
}

int main(void) {
  enum { n = 64, m = 37 };
  static float M[n * m], x[m], y[n], want[n];
  srand(7);
  for (int i = 0; i < n * m; ++i)
    M[i] = (float)(rand() % 1000) / 100.0f - 5.0f;
  for (int j = 0; j < m; ++j)
    x[j] = (float)(rand() % 1000) / 100.0f - 5.0f;
  int ok = 1;

  for (int i = 0; i < n; ++i) {
    want[i] = 0.0f;
    for (int j = 0; j < m; ++j)
      want[i] += M[i * m + j] * x[j];
  }
  ok &= mv_c(y, n, m, M, x) == 0 && close_enough(y, want, n, "mv_c");

  for (int i = 0; i < n; ++i) {
    want[i] = 0.0f;
    for (int j = 0; j < m; ++j)
      want[i] += M[i * m + j];
  }
  ok &= rowsum_c(y, n, m, M) == 0 && close_enough(y, want, n, "rowsum_c");
  ok &= rowsum_openmp(y, n, m, M) == 0 && close_enough(y, want, n, "rowsum_openmp");

  printf("%s\n", ok ? "downstream: all results correct" : "downstream: WRONG RESULTS");
  return ok ? 0 : 1;
}
