// bench/shine/harris.c: Shine's CGO 2021 Harris schedules as ported
// (tests/shine/harris/*.elevate, compiled by bench/shine/harris_run) next to
// the catalogue's harris variants (libkernels.a). Shine's harris reads an RGB
// image 3.(h+4).w and writes h rows of w values, the last 4 of each row
// padding; the catalogue's reads a gray image h.w and writes h.w (borders
// clamped): the same per-pixel stencils (Sobel x/y, products, 3x3 sums,
// coarsity) but the gray conversion only in Shine's. Each port's result is
// first compared with Shine's harris under the default lowering (shine_harris,
// whose C ShineHarrisTest checks against the interpreter), element by
// element on the w - 4 computed columns; a wrong or refused result is
// printed and not timed. Then ROUNDS rounds call every function once in
// turn; the table gives the median time per call in ms and Mpixel/s (h*w
// output pixels per second).
#include "harris_c.h"
#include "harris_fused_c.h"
#include "harris_fused_openmp.h"
#include "harris_openmp.h"
#include "harris_strips_c.h"
#include "harris_strips_openmp.h"
#include "shine_harris.h"
#include "shine_harrisBuffered.h"
#include "shine_harrisBufferedSplitPar.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*Fn)(float* restrict, int, int, const float* restrict);

struct Entry {
  const char* name;
  Fn fn;
  int shine;   // reads the RGB image 3.(h+4).w
  int threads; // OpenMP threads
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  int rounds = getenv("HARRIS_ROUNDS") ? atoi(getenv("HARRIS_ROUNDS")) : 5;
  struct Entry entries[] = {
      {"shine harris (default lowering, C)", shine_harris, 1, 1},
      {"shine harrisBuffered (C)", shine_harrisBuffered, 1, 1},
      {"shine harrisBufferedSplitPar(4) (OpenMP, 1 thread)", shine_harrisBufferedSplitPar, 1, 1},
      {"shine harrisBufferedSplitPar(4) (OpenMP, 2 threads)", shine_harrisBufferedSplitPar, 1, 2},
      {"catalogue harris_c", harris_c, 0, 1},
      {"catalogue harris_fused_c", harris_fused_c, 0, 1},
      {"catalogue harris_strips_c", harris_strips_c, 0, 1},
      {"catalogue harris_openmp (2 threads)", harris_openmp, 0, 2},
      {"catalogue harris_fused_openmp (2 threads)", harris_fused_openmp, 0, 2},
      {"catalogue harris_strips_openmp (2 threads)", harris_strips_openmp, 0, 2},
  };
  int n = (int)(sizeof entries / sizeof entries[0]);
  printf("| function | N | ms per call | Mpixel/s |\n| --- | --- | --- | --- |\n");
  for (int a = 1; a < argc; ++a) {
    int N = atoi(argv[a]);
    size_t rgb = (size_t)3 * (size_t)(N + 4) * (size_t)N, px = (size_t)N * (size_t)N;
    float* in = malloc(rgb * sizeof(float));
    float* gray = malloc(px * sizeof(float));
    float* ref = malloc(px * sizeof(float));
    float* out = malloc(px * sizeof(float));
    srand(42);
    for (size_t i = 0; i < rgb; ++i)
      in[i] = (float)rand() / (float)RAND_MAX;
    for (size_t i = 0; i < px; ++i)
      gray[i] = (float)rand() / (float)RAND_MAX;
    if (shine_harris(ref, N, N, in) != 0) {
      printf("shine_harris refused %d\n", N);
      return 1;
    }
    int ok[16];
    for (int e = 0; e < n; ++e) {
      omp_set_num_threads(entries[e].threads);
      for (size_t i = 0; i < px; ++i)
        out[i] = NAN;
      int rc = entries[e].fn(out, N, N, entries[e].shine ? in : gray);
      ok[e] = rc == 0;
      if (rc != 0)
        printf("%s: rc %d at %d\n", entries[e].name, rc, N);
      if (ok[e] && entries[e].shine)
        for (int y = 0; y < N && ok[e]; ++y)
          for (int x = 0; x < N - 4; ++x) {
            float g = out[(size_t)y * N + x], r = ref[(size_t)y * N + x];
            if (!(fabsf(g - r) <= 1e-5f + 1e-3f * fabsf(r))) {
              printf("%s: wrong at %d,%d: %g, not %g\n", entries[e].name, y, x, g, r);
              ok[e] = 0;
              break;
            }
          }
    }
    double* t = malloc((size_t)rounds * (size_t)n * sizeof(double));
    for (int r = 0; r < rounds; ++r)
      for (int k = 0; k < n; ++k) {
        int e = (k + r) % n;
        if (!ok[e])
          continue;
        omp_set_num_threads(entries[e].threads);
        double t0 = now();
        entries[e].fn(out, N, N, entries[e].shine ? in : gray);
        t[e * rounds + r] = now() - t0;
      }
    for (int e = 0; e < n; ++e) {
      if (!ok[e])
        continue;
      qsort(t + e * rounds, (size_t)rounds, sizeof(double), cmp);
      double m = t[e * rounds + rounds / 2];
      printf("| %s | %d | %.2f | %.1f |\n", entries[e].name, N, 1e3 * m, (double)px / m / 1e6);
    }
    free(t);
    free(in);
    free(gray);
    free(ref);
    free(out);
  }
  return 0;
}
