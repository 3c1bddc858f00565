// bench/awkward/awkward.c: the fast kernels of libkernels.a (as ./build.sh
// builds it) at awkward sizes, each against its nearest size that divides
// the tiles, in the same process (issue 18, "Speed at awkward sizes"). Used
// by bench/awkward/run.
//
//   awkward THREADS OPENBLAS_LIB [KERNEL...]
//
// THREADS 1 runs the _c variants, 2 the _openmp ones on 2 OpenMP threads;
// OPENBLAS_LIB is the libopenblas.so.0 to dlopen (serial for 1 thread, the
// OpenMP build for 2); the Halide anchors (halide.cpp) use HL_NUM_THREADS.
// KERNEL picks among mm, gemv, gaussian, harris (default: all). For each
// pair of sizes it checks every output of risec and of the anchor once
// against a double-precision naive loop (bench/naive for the stencils; a
// wrong result is reported and never timed), then takes AWKWARD_CALLS
// samples (default 11) of each of the four (risec and anchor, awkward and
// divisible), interleaved, each sample the mean of enough calls to last
// 20 ms, and prints one Markdown row per pair with the medians and ratios.
#include "../isa/timing.h"
#include "../naive/Naive.h"
#include "kernels.h"
#ifdef AWKWARD_HALIDE
#include "halide.h"
#endif

#include <dlfcn.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float*, int, const float*, int,
                         float, float*, int);
typedef void (*sgemv_fn)(int, int, int, int, float, const float*, int, const float*, int, float,
                         float*, int);

enum Kind { MM, GEMV, GAUSSIAN, HARRIS };
static const char* const kKindNames[] = {"mm", "gemv", "gaussian", "harris"};

/// One problem: its sizes (mm m, n, k; gemv n, m; stencils h, w), inputs,
/// output and the reference result.
typedef struct {
  enum Kind kind;
  int d[3];
  float *in0, *in1, *in2, *out;
  double* ref;
  size_t outN;
} Problem;

static int threads;
static sgemm_fn sgemm;
static sgemv_fn sgemv;

static float* randomFloats(size_t n, unsigned* seed) {
  float* p = malloc(sizeof(float) * (n ? n : 1));
  if (!p) {
    fprintf(stderr, "awkward: out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < n; ++i) {
    *seed = *seed * 1664525u + 1013904223u;
    p[i] = (float)(*seed >> 8) / (float)(1u << 24) - 0.5f;
  }
  return p;
}

static Problem make(enum Kind kind, const int d[3]) {
  Problem p = {kind, {d[0], d[1], d[2]}, NULL, NULL, NULL, NULL, NULL, 0};
  unsigned seed = 1;
  size_t a = (size_t)d[0], b = (size_t)d[1], c = (size_t)d[2];
  switch (kind) {
  case MM: // A m.k, B k.n, C m.n
    p.in0 = randomFloats(a * c, &seed);
    p.in1 = randomFloats(c * b, &seed);
    p.outN = a * b;
    break;
  case GEMV: // A n.m, x m, y n
    p.in0 = randomFloats(a * b, &seed);
    p.in1 = randomFloats(b, &seed);
    p.in2 = randomFloats(a, &seed);
    p.outN = a;
    break;
  default: // an h.w image
    p.in0 = randomFloats(a * b, &seed);
    p.outN = a * b;
  }
  p.out = randomFloats(p.outN, &seed);
  p.ref = malloc(sizeof(double) * p.outN);
  if (!p.ref) {
    fprintf(stderr, "awkward: out of memory\n");
    exit(1);
  }
  return p;
}

static void release(Problem* p) {
  free(p->in0);
  free(p->in1);
  free(p->in2);
  free(p->out);
  free(p->ref);
}

/// The reference result: naive loops in double (mm, gemv), or bench/naive's
/// C (the stencils, whose definition it is).
static void reference(Problem* p) {
  int m = p->d[0], n = p->d[1], k = p->d[2];
  if (p->kind == MM) {
    for (size_t i = 0; i < p->outN; ++i)
      p->ref[i] = 0;
    for (int i = 0; i < m; ++i)
      for (int l = 0; l < k; ++l) {
        double a = p->in0[(size_t)i * k + l];
        const float* b = p->in1 + (size_t)l * n;
        double* r = p->ref + (size_t)i * n;
        for (int j = 0; j < n; ++j)
          r[j] += a * b[j];
      }
  } else if (p->kind == GEMV) { // n = d[0] rows of m = d[1]
    int rows = p->d[0], cols = p->d[1];
    for (int i = 0; i < rows; ++i) {
      double s = 0;
      for (int j = 0; j < cols; ++j)
        s += (double)p->in0[(size_t)i * cols + j] * p->in1[j];
      p->ref[i] = 1.5 * s + 0.5 * p->in2[i];
    }
  } else {
    float* tmp = malloc(sizeof(float) * p->outN);
    if (!tmp || (p->kind == GAUSSIAN ? naive_gaussian(tmp, m, n, p->in0)
                                     : naive_harris(tmp, m, n, p->in0)) != 0) {
      fprintf(stderr, "awkward: the naive reference failed\n");
      exit(1);
    }
    for (size_t i = 0; i < p->outN; ++i)
      p->ref[i] = tmp[i];
    free(tmp);
  }
}

/// bench/common/Harness.cpp's tolerance: |got - ref| <= 1e-3 (|ref| + mean
/// |ref|) element-wise. Returns the index of the first wrong element, or -1.
static long firstWrong(const Problem* p) {
  double mean = 0;
  for (size_t i = 0; i < p->outN; ++i)
    mean += fabs(p->ref[i]);
  mean /= (double)p->outN;
  for (size_t i = 0; i < p->outN; ++i) {
    double e = fabs((double)p->out[i] - p->ref[i]);
    if (!(e <= 1e-3 * (fabs(p->ref[i]) + mean)))
      return (long)i;
  }
  return -1;
}

/// One call of risec's variant (anchor = 0) or of the anchor (1); 0 on
/// success.
static int call(Problem* p, int anchor) {
  int* d = p->d;
  switch (p->kind) {
  case MM:
    if (anchor) {
      sgemm(101 /* row major */, 111, 111, d[0], d[1], d[2], 1.0f, p->in0, d[2], p->in1, d[1], 0.0f,
            p->out, d[1]);
      return 0;
    }
    return threads == 1 ? mm_register_tiles_c(p->out, d[0], d[1], d[2], p->in0, p->in1)
                        : mm_register_tiles_openmp(p->out, d[0], d[1], d[2], p->in0, p->in1);
  case GEMV:
    if (anchor) { // OpenBLAS updates y in place: a copy of y first
      memcpy(p->out, p->in2, sizeof(float) * (size_t)d[0]);
      sgemv(101, 111, d[0], d[1], 1.5f, p->in0, d[1], p->in1, 1, 0.5f, p->out, 1);
      return 0;
    }
    return threads == 1 ? gemv_c(p->out, d[0], d[1], 1.5f, p->in0, p->in1, 0.5f, p->in2)
                        : gemv_openmp(p->out, d[0], d[1], 1.5f, p->in0, p->in1, 0.5f, p->in2);
  case GAUSSIAN:
    if (anchor) {
#ifdef AWKWARD_HALIDE
      return halide_gaussian(p->out, d[0], d[1], p->in0);
#else
      return -1;
#endif
    }
    return threads == 1 ? gaussian_strips_c(p->out, d[0], d[1], p->in0)
                        : gaussian_strips_openmp(p->out, d[0], d[1], p->in0);
  case HARRIS:
    if (anchor) {
#ifdef AWKWARD_HALIDE
      return halide_harris(p->out, d[0], d[1], p->in0);
#else
      return -1;
#endif
    }
    return threads == 1 ? harris_strips_c(p->out, d[0], d[1], p->in0)
                        : harris_strips_openmp(p->out, d[0], d[1], p->in0);
  }
  return -1;
}

/// The work of one call: FLOPs, or bytes for gemv (memory-bound), with the
/// cost model of bench/Kernels.md.
static double work(const Problem* p) {
  double a = p->d[0], b = p->d[1], c = p->d[2];
  switch (p->kind) {
  case MM:
    return 2 * a * b * c;
  case GEMV:
    return 4 * (a * b + b + 2 * a);
  case GAUSSIAN:
    return 14 * a * b;
  case HARRIS:
    return 49 * a * b;
  }
  return 0;
}

static void sizeText(char* buf, size_t len, const Problem* p) {
  if (p->kind == MM)
    snprintf(buf, len, "%dx%dx%d", p->d[0], p->d[1], p->d[2]);
  else
    snprintf(buf, len, "%dx%d", p->d[0], p->d[1]);
}

/// A timed slot: a problem and who computes it.
typedef struct {
  Problem* p;
  int anchor;
  int reps;      // calls per sample
  int ok;        // checked and right
  double* rates; // one per sample, in G(FLOP|B)/s
} Slot;

/// The first call: checks the result, and sizes the samples to 20 ms.
static void prepare(Slot* s, int calls) {
  char size[64];
  sizeText(size, sizeof size, s->p);
  const char* who = s->anchor ? "the anchor" : "risec";
  memset(s->p->out, 0xff, sizeof(float) * s->p->outN); // NaN: a missed element shows
  double t = now();
  int rc = call(s->p, s->anchor);
  t = now() - t;
  s->rates = calloc((size_t)calls, sizeof(double));
  s->ok = 0;
  if (rc != 0) {
    fprintf(stderr, "awkward: %s %s at %s returned %d\n", who, kKindNames[s->p->kind], size, rc);
    return;
  }
  long bad = firstWrong(s->p);
  if (bad >= 0) {
    fprintf(stderr, "awkward: %s %s at %s (%d threads) is wrong at element %ld: %g, expected %g\n",
            who, kKindNames[s->p->kind], size, threads, bad, (double)s->p->out[bad],
            s->p->ref[bad]);
    return;
  }
  s->ok = 1;
  t = now(); // a second call, with the pipeline warm, for the sample size
  call(s->p, s->anchor);
  t = now() - t;
  s->reps = t >= 0.02 ? 1 : (int)(0.02 / (t > 1e-7 ? t : 1e-7)) + 1;
}

static void sample(Slot* s, int i) {
  if (!s->ok)
    return;
  double t = now();
  for (int r = 0; r < s->reps; ++r)
    call(s->p, s->anchor);
  t = (now() - t) / s->reps;
  s->rates[i] = work(s->p) / t / 1e9;
}

static double median(Slot* s, int calls) {
  if (!s->ok)
    return NAN;
  qsort(s->rates, (size_t)calls, sizeof(double), byTime);
  return s->rates[calls / 2];
}

static void rate(char* buf, size_t len, double r) {
  if (isnan(r))
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, "%.1f", r);
}

/// "0.95x", bold when below `bar`, "-" when either is missing.
static void ratio(char* buf, size_t len, double a, double b, double bar) {
  if (isnan(a) || isnan(b))
    snprintf(buf, len, "-");
  else if (a / b < bar)
    snprintf(buf, len, "**%.2fx**", a / b);
  else
    snprintf(buf, len, "%.2fx", a / b);
}

static void measure(enum Kind kind, const int awk[3], const int div[3], int calls) {
  Problem pa = make(kind, awk), pd = make(kind, div);
  reference(&pa);
  reference(&pd);
  Slot slots[4] = {
      {&pa, 0, 1, 0, NULL}, {&pd, 0, 1, 0, NULL}, {&pa, 1, 1, 0, NULL}, {&pd, 1, 1, 0, NULL}};
  int anchors = kind == MM || kind == GEMV;
#ifdef AWKWARD_HALIDE
  anchors = 1;
#endif
  for (int s = 0; s < (anchors ? 4 : 2); ++s)
    prepare(&slots[s], calls);
  for (int i = 0; i < calls; ++i) // interleaved; every other round in reverse
    for (int s = 0; s < 4; ++s)
      sample(&slots[i % 2 ? 3 - s : s], i);
  double r[4];
  for (int s = 0; s < 4; ++s) {
    r[s] = median(&slots[s], calls);
    free(slots[s].rates);
  }
  static const char* const symbols[2][4] = {
      {"mm_register_tiles_c", "gemv_c", "gaussian_strips_c", "harris_strips_c"},
      {"mm_register_tiles_openmp", "gemv_openmp", "gaussian_strips_openmp",
       "harris_strips_openmp"}};
  const char* isa = "";
  if (kind == MM)
    isa =
        threads == 1 ? mm_register_tiles_c_selected_isa() : mm_register_tiles_openmp_selected_isa();
  else if (kind == GEMV)
    isa = threads == 1 ? gemv_c_selected_isa() : gemv_openmp_selected_isa();
  const char* anchor = kind == MM     ? "OpenBLAS sgemm"
                       : kind == GEMV ? "OpenBLAS sgemv"
#ifdef AWKWARD_HALIDE
                                      : "Halide 14";
#else
                                      : "none (no Halide)";
#endif
  char sa[64], sd[64], c[6][32];
  sizeText(sa, sizeof sa, &pa);
  sizeText(sd, sizeof sd, &pd);
  rate(c[0], sizeof c[0], r[0]);
  rate(c[1], sizeof c[1], r[1]);
  ratio(c[2], sizeof c[2], r[0], r[1], 0.9);
  rate(c[3], sizeof c[3], r[2]);
  rate(c[4], sizeof c[4], r[3]);
  // below 0.9x of the anchor at the awkward size where the divisible size beats it
  double bar = !isnan(r[1]) && !isnan(r[3]) && r[1] >= r[3] ? 0.9 : 0;
  char vsA[32], vsD[32];
  ratio(vsA, sizeof vsA, r[0], r[2], bar);
  ratio(vsD, sizeof vsD, r[1], r[3], 0);
  printf("| %s %s%s%s%s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s / %s |\n",
         symbols[threads - 1][kind], *isa ? "(" : "", isa, *isa ? ") " : "",
         kind == GEMV ? "GB/s" : "GFLOP/s", sa, sd, threads, c[0], c[1], c[2], anchor, c[3], c[4],
         vsA, vsD);
  fflush(stdout);
  release(&pa);
  release(&pd);
}

static int wanted(int argc, char** argv, enum Kind kind) {
  if (argc <= 3)
    return 1;
  for (int i = 3; i < argc; ++i)
    if (strcmp(argv[i], kKindNames[kind]) == 0)
      return 1;
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3 || (atoi(argv[1]) != 1 && atoi(argv[1]) != 2)) {
    fprintf(stderr, "usage: awkward 1|2 OPENBLAS_LIB [mm|gemv|gaussian|harris...]\n");
    return 2;
  }
  threads = atoi(argv[1]);
  omp_set_num_threads(threads);
  void* lib = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
  sgemm = lib ? (sgemm_fn)dlsym(lib, "cblas_sgemm") : NULL;
  sgemv = lib ? (sgemv_fn)dlsym(lib, "cblas_sgemv") : NULL;
  if (!sgemm || !sgemv) {
    fprintf(stderr, "awkward: cannot load cblas_sgemm and cblas_sgemv from %s\n", argv[2]);
    return 1;
  }
  const char* callsEnv = getenv("AWKWARD_CALLS");
  int calls = callsEnv ? atoi(callsEnv) : 11;
  if (calls < 1 || calls > 1000)
    calls = 11;
  // the awkward size and its neighbour that divides the tiles; the skinny mm
  // shapes divide them already and are compared with the square 1024^3
  // (4096x64x4096 has as many FLOPs)
  static const int mm[][2][3] = {{{1000, 1000, 1000}, {1024, 1024, 1024}},
                                 {{1023, 1023, 1023}, {1024, 1024, 1024}},
                                 {{513, 257, 129}, {512, 256, 128}},
                                 {{4096, 64, 4096}, {1024, 1024, 1024}},
                                 {{64, 4096, 64}, {1024, 1024, 1024}}};
  static const int grid[2][3] = {{1000, 999, 0}, {1024, 1024, 0}};
  if (wanted(argc, argv, MM))
    for (size_t i = 0; i < sizeof mm / sizeof mm[0]; ++i)
      measure(MM, mm[i][0], mm[i][1], calls);
  for (enum Kind k = GEMV; k <= HARRIS; ++k)
    if (wanted(argc, argv, k))
      measure(k, grid[0], grid[1], calls);
  return 0;
}
