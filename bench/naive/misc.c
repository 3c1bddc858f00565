/* Naive n-body, k-means, tree reduction and vectorised map; semantics in
 * bench/Kernels.md. */
#include "Naive.h"

#include <math.h>

/* bodies: n x (x, y, z, mass); out: n x (ax, ay, az, 0). Softened gravity. */
int naive_nbody(float* restrict out, int n, const float* restrict bodies) {
  for (int i = 0; i < n; i++) {
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    const float* bi = bodies + 4L * i;
    for (int j = 0; j < n; j++) {
      const float* bj = bodies + 4L * j;
      float dx = bj[0] - bi[0], dy = bj[1] - bi[1], dz = bj[2] - bi[2];
      float r2 = dx * dx + dy * dy + dz * dz + 0.01f;
      float inv = 1.0f / sqrtf(r2);
      float s = bj[3] * inv * inv * inv;
      ax += s * dx;
      ay += s * dy;
      az += s * dz;
    }
    out[4L * i] = ax;
    out[4L * i + 1] = ay;
    out[4L * i + 2] = az;
    out[4L * i + 3] = 0.0f;
  }
  return 0;
}

/* The assignment step: the index of the nearest centroid (first on ties). */
int naive_kmeans(int32_t* restrict out, int n, int k, int f, const float* restrict points,
                 const float* restrict centroids) {
  for (int i = 0; i < n; i++) {
    float best = INFINITY;
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

int naive_reduce(float* restrict out, int n, const float* restrict xs) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += xs[i];
  out[0] = s;
  return 0;
}

int naive_vmap(float* restrict out, int n, const float* restrict xs) {
  for (int i = 0; i < n; i++)
    out[i] = xs[i] * xs[i] + 1.0f;
  return 0;
}
