/* bench/awkward/halide.h: the Halide anchors of awkward.c (halide.cpp), with
 * the risec C ABI (output, h, w, image; 0 on success). */
#ifndef RISEC_BENCH_AWKWARD_HALIDE_H
#define RISEC_BENCH_AWKWARD_HALIDE_H

#ifdef __cplusplus
extern "C" {
#endif

int halide_gaussian(float* out, int h, int w, const float* image);
int halide_harris(float* out, int h, int w, const float* image);

#ifdef __cplusplus
}
#endif

#endif
