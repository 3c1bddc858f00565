// bench/shine/ladder.c: the ICFP 2020 GEMM ladder of Shine (tvmGemm.scala),
// as ported to tests/shine/tvmGemm/*.elevate and compiled by risec into
// shine_STEP (bench/shine/run), next to the catalogue's ladder step of the
// same name in libkernels.a (mm_baseline_c ... mm_parallel_openmp) and
// OpenBLAS's cblas_sgemm (serial and OpenMP builds, dlopen), at one size
// m x n x k (C = A x B, A m.k, B k.n; the ports need m, n multiples of 32
// and k of 4).
//
//   ladder SIZE SERIAL_LIBOPENBLAS OPENMP_LIBOPENBLAS
//
// SIZE is N (N x N x N) or MxNxK. Every function is first called once on
// the same random inputs, into an output filled with NaN, and compared
// element by element with a naive loop in double precision (the tolerance
// of bench/common/Harness.cpp: |x - ref| <= 1e-3 (|ref| + mean |ref|)); a
// wrong or refused result is reported and never timed. Then LADDER_ROUNDS
// rounds (default 5), each of which calls every function in turn (starting
// one further each round, so that a burst of load hits them alike) for
// LADDER_SLICE seconds (default 0.3) and at least once: the slow first steps
// get one call per round, the fast ones many. Prints one Markdown table row
// per step with the median rate of all the calls in GFLOP/s and its speed-up
// over the baseline step of the same column.
//
// Run it with OMP_NUM_THREADS=2 on two CPUs (bench/pin.sh's `pinned 2`,
// OMP_PROC_BIND=close): the 1-thread rows set one OpenMP thread, and libgomp
// keeps the initial thread on the first place, so they run on one CPU.
#include "mm_array_packing_c.h"
#include "mm_baseline_c.h"
#include "mm_blocking_c.h"
#include "mm_cache_blocks_c.h"
#include "mm_loop_permutation_c.h"
#include "mm_parallel_openmp.h"
#include "mm_vectorisation_c.h"
#include "shine_arrayPacking.h"
#include "shine_baseline.h"
#include "shine_blocking.h"
#include "shine_cacheBlocks.h"
#include "shine_loopPerm.h"
#include "shine_par.h"
#include "shine_vectorization.h"

#include "../isa/timing.h"

#include <dlfcn.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*mm_fn)(float* restrict, int, int, int, const float* restrict, const float* restrict);
typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float*, int, const float*, int,
                         float, float*, int);

/// One timed function: a risec kernel (mm) or an OpenBLAS build (sgemm).
typedef struct {
  const char* name;
  mm_fn mm;
  sgemm_fn sgemm;
  int threads;
  int ok;        // passed the check
  double* times; // seconds per call
  int calls;
} Fn;

/// One row of the table: the Shine port and the catalogue step.
typedef struct {
  const char* step;
  int threads;
  int shine, catalogue; // indices into the function list
} Row;

enum { MAX_CALLS = 4096 };

static int m, n, k;
static float *A, *B, *C;
static double* ref;

static int call(const Fn* f) {
  omp_set_num_threads(f->threads);
  if (f->sgemm) {
    f->sgemm(101 /* row major */, 111, 111, m, n, k, 1.0f, A, k, B, n, 0.0f, C, n);
    return 0;
  }
  return f->mm(C, m, n, k, A, B);
}

/// Checks one call against the reference; 1 if right. Says why not.
static int check(const Fn* f) {
  size_t count = (size_t)m * n;
  for (size_t i = 0; i < count; ++i)
    C[i] = NAN;
  int rc = call(f);
  if (rc != 0) {
    printf("%s returned %d at %dx%dx%d: not timed\n", f->name, rc, m, n, k);
    return 0;
  }
  double mean = 0;
  for (size_t i = 0; i < count; ++i)
    mean += fabs(ref[i]);
  mean /= (double)count;
  for (size_t i = 0; i < count; ++i) {
    double e = fabs((double)C[i] - ref[i]);
    if (!(e <= 1e-3 * (fabs(ref[i]) + mean))) {
      printf("%s is wrong at %dx%dx%d: C[%zu][%zu] = %g, expected %g: not timed\n", f->name, m, n,
             k, i / (size_t)n, i % (size_t)n, (double)C[i], ref[i]);
      return 0;
    }
  }
  return 1;
}

static sgemm_fn loadSgemm(const char* path) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  sgemm_fn f = lib ? (sgemm_fn)dlsym(lib, "cblas_sgemm") : NULL;
  if (!f)
    printf("cannot load cblas_sgemm from %s: OpenBLAS not timed\n", path);
  return f;
}

/// The median rate of f in GFLOP/s, or 0 if it was not timed.
static double rate(Fn* f) {
  if (!f->ok || f->calls == 0)
    return 0;
  qsort(f->times, (size_t)f->calls, sizeof(double), byTime);
  double t = f->calls % 2 ? f->times[f->calls / 2]
                          : 0.5 * (f->times[f->calls / 2 - 1] + f->times[f->calls / 2]);
  return 2.0 * m * n * k / t / 1e9;
}

static void cell(double r, double base) {
  if (r == 0)
    printf(" - | - |");
  else if (base == 0)
    printf(" %.2f | - |", r);
  else
    printf(" %.2f | %.2fx |", r, r / base);
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: ladder SIZE SERIAL_LIBOPENBLAS OPENMP_LIBOPENBLAS\n");
    return 2;
  }
  if (sscanf(argv[1], "%dx%dx%d", &m, &n, &k) != 3)
    m = n = k = atoi(argv[1]);
  if (m < 1 || n < 1 || k < 1) {
    fprintf(stderr, "ladder: SIZE is N or MxNxK, each at least 1\n");
    return 2;
  }
  const char* env = getenv("LADDER_ROUNDS");
  int rounds = env ? atoi(env) : 5;
  if (rounds < 1 || rounds > 100)
    rounds = 5;
  env = getenv("LADDER_SLICE");
  double slice = env ? atof(env) : 0.3;
  if (!(slice > 0 && slice < 60))
    slice = 0.3;

  Fn fns[] = {
      {"shine_baseline", shine_baseline, NULL, 1, 0, NULL, 0},
      {"mm_baseline_c", mm_baseline_c, NULL, 1, 0, NULL, 0},
      {"shine_blocking", shine_blocking, NULL, 1, 0, NULL, 0},
      {"mm_blocking_c", mm_blocking_c, NULL, 1, 0, NULL, 0},
      {"shine_vectorization", shine_vectorization, NULL, 1, 0, NULL, 0},
      {"mm_vectorisation_c", mm_vectorisation_c, NULL, 1, 0, NULL, 0},
      {"shine_loopPerm", shine_loopPerm, NULL, 1, 0, NULL, 0},
      {"mm_loop_permutation_c", mm_loop_permutation_c, NULL, 1, 0, NULL, 0},
      {"shine_arrayPacking", shine_arrayPacking, NULL, 1, 0, NULL, 0},
      {"mm_array_packing_c", mm_array_packing_c, NULL, 1, 0, NULL, 0},
      {"shine_cacheBlocks", shine_cacheBlocks, NULL, 1, 0, NULL, 0},
      {"mm_cache_blocks_c", mm_cache_blocks_c, NULL, 1, 0, NULL, 0},
      {"shine_par", shine_par, NULL, 2, 0, NULL, 0},
      {"mm_parallel_openmp", mm_parallel_openmp, NULL, 2, 0, NULL, 0},
      {"shine_par", shine_par, NULL, 1, 0, NULL, 0},
      {"mm_parallel_openmp", mm_parallel_openmp, NULL, 1, 0, NULL, 0},
      {"OpenBLAS serial", NULL, loadSgemm(argv[2]), 1, 0, NULL, 0},
      {"OpenBLAS OpenMP", NULL, loadSgemm(argv[3]), 2, 0, NULL, 0},
  };
  const int nfns = (int)(sizeof fns / sizeof fns[0]);
  const Row rows[] = {
      {"baseline", 1, 0, 1},
      {"blocking", 1, 2, 3},
      {"vectorization", 1, 4, 5},
      {"loopPerm", 1, 6, 7},
      {"arrayPacking", 1, 8, 9},
      {"cacheBlocks", 1, 10, 11},
      {"par", 2, 12, 13},
      {"par", 1, 14, 15},
      {"OpenBLAS sgemm", 1, 16, 16},
      {"OpenBLAS sgemm", 2, 17, 17},
  };
  const char* catalogueNames[] = {"`mm_baseline_c`",          "`mm_blocking_c`",
                                  "`mm_vectorisation_c`",     "`mm_loop_permutation_c`",
                                  "`mm_array_packing_c`",     "`mm_cache_blocks_c`",
                                  "`mm_parallel_openmp`",     "`mm_parallel_openmp`",
                                  "OpenBLAS 0.3.21 (serial)", "OpenBLAS 0.3.21 (OpenMP)"};

  size_t a = ((size_t)m * k * sizeof(float) + 63) / 64 * 64,
         b = ((size_t)k * n * sizeof(float) + 63) / 64 * 64,
         c = ((size_t)m * n * sizeof(float) + 63) / 64 * 64;
  A = aligned_alloc(64, a);
  B = aligned_alloc(64, b);
  C = aligned_alloc(64, c);
  ref = calloc((size_t)m * n, sizeof(double));
  if (!A || !B || !C || !ref) {
    fprintf(stderr, "ladder: out of memory\n");
    return 1;
  }
  srand(1);
  for (size_t i = 0; i < (size_t)m * k; ++i)
    A[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  for (size_t i = 0; i < (size_t)k * n; ++i)
    B[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  for (int i = 0; i < m; ++i) // the naive loop, in double precision
    for (int l = 0; l < k; ++l) {
      double x = A[(size_t)i * k + l];
      for (int j = 0; j < n; ++j)
        ref[(size_t)i * n + j] += x * (double)B[(size_t)l * n + j];
    }

  for (int f = 0; f < nfns; ++f) {
    fns[f].times = malloc(sizeof(double) * MAX_CALLS);
    fns[f].ok = (fns[f].mm || fns[f].sgemm) && check(&fns[f]);
  }
  for (int r = 0; r < rounds; ++r)
    for (int s = 0; s < nfns; ++s) {
      Fn* f = &fns[(s + r) % nfns];
      if (!f->ok || f->calls >= MAX_CALLS)
        continue;
      double start = now();
      do {
        double t = now();
        call(f);
        f->times[f->calls++] = now() - t;
      } while (now() - start < slice && f->calls < MAX_CALLS);
    }

  double shineBase = rate(&fns[0]), catalogueBase = rate(&fns[1]);
  double rates[sizeof fns / sizeof fns[0]];
  for (int f = 0; f < nfns; ++f)
    rates[f] = rate(&fns[f]);
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    const Row* row = &rows[i];
    int blas = row->shine == row->catalogue;
    printf("| %dx%dx%d | %s%s%s | %d |", m, n, k, blas ? "" : "`", row->step, blas ? "" : "`",
           row->threads);
    cell(rates[row->shine], shineBase);
    printf(" %s |", catalogueNames[i]);
    cell(rates[row->catalogue], catalogueBase);
    printf(" %d / %d |\n", fns[row->shine].calls, fns[row->catalogue].calls);
  }
  return 0;
}
