/* Naive BLAS-like loops; semantics in bench/Kernels.md. */
#include "Naive.h"

#include <math.h>

int naive_scal(float* restrict out, int n, float alpha, const float* restrict xs) {
  for (int i = 0; i < n; i++)
    out[i] = alpha * xs[i];
  return 0;
}

int naive_axpy(float* restrict out, int n, float a, const float* restrict x,
               const float* restrict y) {
  for (int i = 0; i < n; i++)
    out[i] = a * x[i] + y[i];
  return 0;
}

int naive_asum(float* restrict out, int n, const float* restrict xs) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += fabsf(xs[i]);
  out[0] = s;
  return 0;
}

int naive_scan(float* restrict out, int n, const float* restrict xs) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    s += xs[i];
    out[i] = s;
  }
  return 0;
}

int naive_maxreduce(float* restrict out, int n, const float* restrict xs) {
  float m = -3.4e38f;
  for (int i = 0; i < n; i++)
    m = xs[i] > m ? xs[i] : m;
  out[0] = m;
  return 0;
}

int naive_dot(float* restrict out, int n, const float* restrict a, const float* restrict b) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  out[0] = s;
  return 0;
}

int naive_gemv(float* restrict out, int n, int m, float alpha, const float* restrict A,
               const float* restrict x, float beta, const float* restrict y) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += A[(long)i * m + j] * x[j];
    out[i] = alpha * s + beta * y[i];
  }
  return 0;
}

int naive_mv(float* restrict out, int n, int m, const float* restrict M, const float* restrict x) {
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      s += M[(long)i * m + j] * x[j];
    out[i] = s;
  }
  return 0;
}

/* i-k-j order: the textbook cache-friendly loop nest a user writes. */
int naive_mm(float* restrict out, int m, int n, int k, const float* restrict A,
             const float* restrict B) {
  for (int i = 0; i < m; i++) {
    float* c = out + (long)i * n;
    for (int j = 0; j < n; j++)
      c[j] = 0.0f;
    for (int p = 0; p < k; p++) {
      float a = A[(long)i * k + p];
      const float* b = B + (long)p * n;
      for (int j = 0; j < n; j++)
        c[j] += a * b[j];
    }
  }
  return 0;
}

int naive_transpose(float* restrict out, int n, int m, const float* restrict A) {
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      out[(long)j * n + i] = A[(long)i * m + j];
  return 0;
}
