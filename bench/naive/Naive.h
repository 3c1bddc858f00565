/* The naive C loops: what a user would write by hand, compiled with
 * -O3 -march=native. They follow the risec C ABI (docs/dpia.md, "The
 * generated-code contract": output first, then the sizes, then the inputs; 0 on success) and
 * are the executable definition of every kernel's semantics (bench/Kernels.md).
 * Every benchmark variant is checked against them. */
#ifndef BENCH_NAIVE_H
#define BENCH_NAIVE_H

#include <stdint.h>

#ifdef __cplusplus
#define BENCH_RESTRICT __restrict
extern "C" {
#else
#define BENCH_RESTRICT restrict
#endif

/* BLAS-like (blas.c) */
int naive_scal(float* BENCH_RESTRICT out, int n, float alpha, const float* BENCH_RESTRICT xs);
int naive_axpy(float* BENCH_RESTRICT out, int n, float a, const float* BENCH_RESTRICT x,
               const float* BENCH_RESTRICT y);
int naive_asum(float* BENCH_RESTRICT out, int n, const float* BENCH_RESTRICT xs);
int naive_scan(float* BENCH_RESTRICT out, int n, const float* BENCH_RESTRICT xs);
int naive_maxreduce(float* BENCH_RESTRICT out, int n, const float* BENCH_RESTRICT xs);
int naive_dot(float* BENCH_RESTRICT out, int n, const float* BENCH_RESTRICT a,
              const float* BENCH_RESTRICT b);
int naive_gemv(float* BENCH_RESTRICT out, int n, int m, float alpha, const float* BENCH_RESTRICT A,
               const float* BENCH_RESTRICT x, float beta, const float* BENCH_RESTRICT y);
int naive_mv(float* BENCH_RESTRICT out, int n, int m, const float* BENCH_RESTRICT M,
             const float* BENCH_RESTRICT x);
int naive_mm(float* BENCH_RESTRICT out, int m, int n, int k, const float* BENCH_RESTRICT A,
             const float* BENCH_RESTRICT B);
int naive_transpose(float* BENCH_RESTRICT out, int n, int m, const float* BENCH_RESTRICT A);

/* Stencils (stencil.c) */
int naive_jacobi1d(float* BENCH_RESTRICT out, int n, const float* BENCH_RESTRICT xs);
int naive_jacobi2d(float* BENCH_RESTRICT out, int h, int w, const float* BENCH_RESTRICT grid);
int naive_heat3d(float* BENCH_RESTRICT out, int d, int h, int w, const float* BENCH_RESTRICT u);

/* Image processing (image.c) */
int naive_gaussian(float* BENCH_RESTRICT out, int h, int w, const float* BENCH_RESTRICT image);
int naive_conv2d(float* BENCH_RESTRICT out, int h, int w, const float* BENCH_RESTRICT image,
                 const float* BENCH_RESTRICT weights);
int naive_harris(float* BENCH_RESTRICT out, int h, int w, const float* BENCH_RESTRICT image);

/* Others (misc.c) */
int naive_nbody(float* BENCH_RESTRICT out, int n, const float* BENCH_RESTRICT x,
                const float* BENCH_RESTRICT y, const float* BENCH_RESTRICT z,
                const float* BENCH_RESTRICT m);
int naive_kmeans(int32_t* BENCH_RESTRICT out, int n, int k, int f,
                 const float* BENCH_RESTRICT points, const float* BENCH_RESTRICT centroids);
int naive_tree_reduce(float* BENCH_RESTRICT out, int m, const float* BENCH_RESTRICT xs);

#ifdef __cplusplus
}
#endif

#endif
