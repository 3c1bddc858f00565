/* Naive image-processing kernels; semantics in bench/Kernels.md. */
#include "Naive.h"

#include <stdlib.h>

static int clampi(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static float blur5(float t0, float t1, float t2, float t3, float t4) {
  return (t0 + t4) * 0.0625f + (t1 + t3) * 0.25f + t2 * 0.375f;
}

/* Row pass into a temporary, then column pass; clamped borders. */
int naive_gaussian(float* restrict out, int h, int w, const float* restrict image) {
  float* tmp = malloc(sizeof(float) * (size_t)h * (size_t)w);
  if (!tmp)
    return 1;
  for (int i = 0; i < h; i++) {
    const float* r = image + (long)i * w;
    for (int j = 0; j < w; j++)
      tmp[(long)i * w + j] = blur5(r[clampi(j - 2, 0, w - 1)], r[clampi(j - 1, 0, w - 1)], r[j],
                                   r[clampi(j + 1, 0, w - 1)], r[clampi(j + 2, 0, w - 1)]);
  }
  for (int i = 0; i < h; i++) {
    const float* r0 = tmp + (long)clampi(i - 2, 0, h - 1) * w;
    const float* r1 = tmp + (long)clampi(i - 1, 0, h - 1) * w;
    const float* r2 = tmp + (long)i * w;
    const float* r3 = tmp + (long)clampi(i + 1, 0, h - 1) * w;
    const float* r4 = tmp + (long)clampi(i + 2, 0, h - 1) * w;
    for (int j = 0; j < w; j++)
      out[(long)i * w + j] = blur5(r0[j], r1[j], r2[j], r3[j], r4[j]);
  }
  free(tmp);
  return 0;
}

static float at(const float* g, int h, int w, int i, int j) {
  return i < 0 || i >= h || j < 0 || j >= w ? 0.0f : g[(long)i * w + j];
}

int naive_conv2d(float* restrict out, int h, int w, const float* restrict image,
                 const float* restrict weights) {
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++) {
      float s = 0.0f;
      for (int di = 0; di < 3; di++)
        for (int dj = 0; dj < 3; dj++)
          s += at(image, h, w, i + di - 1, j + dj - 1) * weights[di * 3 + dj];
      out[(long)i * w + j] = s;
    }
  return 0;
}

/* Sobel gradients of the zero-padded image, their products stored once, 3x3
 * box sums of the zero-padded products, response det - 0.04 trace^2. */
int naive_harris(float* restrict out, int h, int w, const float* restrict image) {
  size_t px = (size_t)h * (size_t)w;
  float* xx = malloc(sizeof(float) * px * 3);
  if (!xx)
    return 1;
  float *xy = xx + px, *yy = xy + px;
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++) {
#define A(di, dj) at(image, h, w, i + (di)-1, j + (dj)-1)
      float ix = (A(0, 2) + 2.0f * A(1, 2) + A(2, 2)) - (A(0, 0) + 2.0f * A(1, 0) + A(2, 0));
      float iy = (A(2, 0) + 2.0f * A(2, 1) + A(2, 2)) - (A(0, 0) + 2.0f * A(0, 1) + A(0, 2));
#undef A
      long o = (long)i * w + j;
      xx[o] = ix * ix;
      xy[o] = ix * iy;
      yy[o] = iy * iy;
    }
  for (int i = 0; i < h; i++)
    for (int j = 0; j < w; j++) {
      float sxx = 0.0f, sxy = 0.0f, syy = 0.0f;
      for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++) {
          sxx += at(xx, h, w, i + di, j + dj);
          sxy += at(xy, h, w, i + di, j + dj);
          syy += at(yy, h, w, i + di, j + dj);
        }
      out[(long)i * w + j] = sxx * syy - sxy * sxy - 0.04f * (sxx + syy) * (sxx + syy);
    }
  free(xx);
  return 0;
}
