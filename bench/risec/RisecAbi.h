// The C ABI the benchmark expects of every catalogue kernel (bench/Kernels.md;
// DESIGN.md, "Generated code contract"), and how it is called on a problem.
#pragma once

#include "../common/Problems.h"

#include <cstdint>

struct pair_f32_pair_f32_f32; // defined by the kernel's header

namespace bench::abi {

inline int dim(const Data& d, std::size_t i) {
  return int(d.dims[i]);
}
inline const float* input(const Data& d, std::size_t i) {
  return d.in[i].data();
}

using scal = int(float*, int, float, const float*);
inline int call_scal(scal* f, Data& d) {
  return f(d.out.data(), dim(d, 0), d.alpha, input(d, 0));
}

using axpy = int(float*, int, float, const float*, const float*);
inline int call_axpy(axpy* f, Data& d) {
  return f(d.out.data(), dim(d, 0), d.alpha, input(d, 0), input(d, 1));
}

using asum = int(float*, int, const float*);
inline int call_asum(asum* f, Data& d) {
  return f(d.out.data(), dim(d, 0), input(d, 0));
}

using dot = int(float*, int, const float*, const float*);
inline int call_dot(dot* f, Data& d) {
  return f(d.out.data(), dim(d, 0), input(d, 0), input(d, 1));
}

using gemv = int(float*, int, int, float, const float*, const float*, float, const float*);
inline int call_gemv(gemv* f, Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), d.alpha, input(d, 0), input(d, 1), d.beta,
           input(d, 2));
}

using mv = int(float*, int, int, const float*, const float*);
inline int call_mv(mv* f, Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0), input(d, 1));
}

using mm = int(float*, int, int, int, const float*, const float*);
inline int call_mm(mm* f, Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), dim(d, 2), input(d, 0), input(d, 1));
}

using transpose = int(float*, int, int, const float*);
inline int call_transpose(transpose* f, Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0));
}

using jacobi1d = int(float*, int, const float*);
inline int call_jacobi1d(jacobi1d* f, Data& d) {
  return f(d.out.data(), dim(d, 0), input(d, 0));
}

using jacobi2d = int(float*, int, int, const float*);
inline int call_jacobi2d(jacobi2d* f, Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0));
}

using heat3d = int(float*, int, int, int, const float*);
inline int call_heat3d(heat3d* f, Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), dim(d, 2), input(d, 0));
}

using gaussian = int(float*, int, int, const float*);
inline int call_gaussian(gaussian* f, Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0));
}

using conv2d = int(float*, int, int, const float*, const float*);
inline int call_conv2d(conv2d* f, Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0), input(d, 1));
}

using harris = int(float*, int, int, const float*);
inline int call_harris(harris* f, Data& d) {
  return f(d.out.data(), dim(d, 0), dim(d, 1), input(d, 0));
}

using kmeans = int(std::int32_t*, int, int, int, const float*, const float*);
inline int call_kmeans(kmeans* f, Data& d) {
  return f(d.outIndex.data(), dim(d, 0), dim(d, 1), dim(d, 2), input(d, 0), input(d, 1));
}

/// out: n structs (ax, (ay, az)) of 3 floats (DESIGN.md: arrays of pairs)
using nbody = int(pair_f32_pair_f32_f32*, int, const float*, const float*, const float*,
                  const float*);
inline int call_nbody(nbody* f, Data& d) {
  return f(reinterpret_cast<pair_f32_pair_f32_f32*>(d.out.data()), dim(d, 0), input(d, 0),
           input(d, 1), input(d, 2), input(d, 3));
}
using tree_reduce = int(float*, int, const float*);
inline int call_tree_reduce(tree_reduce* f, Data& d) {
  return f(d.out.data(), dim(d, 0), input(d, 0));
}
using scal_vec = int(float*, int, float, const float*);
inline int call_scal_vec(scal_vec* f, Data& d) {
  return f(d.out.data(), dim(d, 0), d.alpha, input(d, 0));
}

} // namespace bench::abi
