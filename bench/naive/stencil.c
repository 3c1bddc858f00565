/* Naive stencils with zeros beyond the borders; semantics in bench/Kernels.md. */
#include "Naive.h"

int naive_jacobi1d(float* restrict out, int n, const float* restrict xs) {
  for (int i = 0; i < n; i++) {
    float l = i > 0 ? xs[i - 1] : 0.0f, r = i + 1 < n ? xs[i + 1] : 0.0f;
    out[i] = (0.0f + l + xs[i] + r) / 3.0f;
  }
  return 0;
}

static float at2(const float* g, int h, int w, int i, int j) {
  return i < 0 || i >= h || j < 0 || j >= w ? 0.0f : g[(long)i * w + j];
}

int naive_jacobi2d(float* restrict out, int h, int w, const float* restrict grid) {
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++)
      out[(long)i * w + j] =
          (at2(grid, h, w, i - 1, j) + at2(grid, h, w, i, j - 1) + grid[(long)i * w + j] +
           at2(grid, h, w, i, j + 1) + at2(grid, h, w, i + 1, j)) *
          0.2f;
  return 0;
}

static float at3(const float* u, int d, int h, int w, int p, int i, int j) {
  return p < 0 || p >= d || i < 0 || i >= h || j < 0 || j >= w ? 0.0f
                                                               : u[((long)p * h + i) * w + j];
}

int naive_heat3d(float* restrict out, int d, int h, int w, const float* restrict u) {
  for (int p = 0; p < d; p++)
    for (int i = 0; i < h; i++)
      for (int j = 0; j < w; j++) {
        float c = u[((long)p * h + i) * w + j];
        out[((long)p * h + i) * w + j] =
            c + 0.1f * (at3(u, d, h, w, p - 1, i, j) + at3(u, d, h, w, p + 1, i, j) +
                        at3(u, d, h, w, p, i - 1, j) + at3(u, d, h, w, p, i + 1, j) +
                        at3(u, d, h, w, p, i, j - 1) + at3(u, d, h, w, p, i, j + 1) - 6.0f * c);
      }
  return 0;
}
