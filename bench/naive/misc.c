/* Naive n-body, k-means, tree reduction and scal on 4-vectors; semantics in
 * bench/Kernels.md. */
#include "Naive.h"

#include <math.h>

/* Bodies at (x, y, z) with masses m; out: n x (ax, ay, az), softened gravity. */
int naive_nbody(float* restrict out, int n, const float* restrict x, const float* restrict y,
                const float* restrict z, const float* restrict m) {
  for (int i = 0; i < n; i++) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; j++) {
      float dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
      float inv = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz + 0.01f);
      float s = m[j] * inv * inv * inv;
      ax += s * dx;
      ay += s * dy;
      az += s * dz;
    }
    out[3L * i] = ax;
    out[3L * i + 1] = ay;
    out[3L * i + 2] = az;
  }
  return 0;
}

/* The assignment step: the index of the nearest centroid (first on ties). */
int naive_kmeans(int32_t* restrict out, int n, int k, int f, const float* restrict points,
                 const float* restrict centroids) {
  for (int i = 0; i < n; i++) {
    float best = 3.4e38f;
    int32_t arg = 0;
    for (int c = 0; c < k; c++) {
      float d = 0.0f;
      for (int q = 0; q < f; q++) {
        float t = points[(long)i * f + q] - centroids[c * f + q];
        d += t * t;
      }
      if (d < best) {
        best = d;
        arg = c;
      }
    }
    out[i] = arg;
  }
  return 0;
}

/* xs holds m chunks of 16; out[j] is the sum of chunk j by a tree of pairs. */
int naive_tree_reduce(float* restrict out, int m, const float* restrict xs) {
  for (int j = 0; j < m; j++) {
    float t[16];
    for (int i = 0; i < 16; i++)
      t[i] = xs[16L * j + i];
    for (int w = 8; w >= 1; w /= 2)
      for (int i = 0; i < w; i++)
        t[i] = t[2 * i] + t[2 * i + 1];
    out[j] = t[0];
  }
  return 0;
}
