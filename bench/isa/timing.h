// bench/isa/timing.h: the clock and the sort order of the bench/isa programs
// (mm_levels.c, blas_stream.c), which time calls and report medians.
#ifndef RISEC_BENCH_ISA_TIMING_H
#define RISEC_BENCH_ISA_TIMING_H

#include <time.h>

/// Seconds on the monotonic clock.
static inline double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/// qsort order of doubles, ascending.
static inline int byTime(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

#endif
