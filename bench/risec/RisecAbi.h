// The C ABI the benchmark expects of every catalogue kernel (bench/Kernels.md;
// docs/dpia.md, "The generated-code contract"), and how it is called on a problem.
#pragma once

#include "../common/Problems.h"

#include <cstdint>

struct pair_f32_pair_f32_f32; // defined by the kernel's header

namespace bench::abi {

inline int dim(const Data& d, std::size_t i) {
  return int(d.dims[i]);
}

/// The output pointer, converted to what the kernel takes (float*, int32_t*,
/// a pair struct: all laid out as 4-byte elements).
struct OutPtr {
  void* p;
  template <typename T> operator T*() const { return static_cast<T*>(p); }
};

/// Arrays in host memory: the C ABI. (DeviceArrays in RisecKernel.h: cl_mem.)
struct HostArrays {
  OutPtr out(Data& d) const {
    return {d.outIndex.empty() ? static_cast<void*>(d.out.data()) : d.outIndex.data()};
  }
  const float* in(const Data& d, std::size_t i) const { return d.in[i].data(); }
};

/// call_K(f, d, arrays): calls f with the kernel K's arguments in ABI order.
using scal = int(float*, int, float, const float*);
inline constexpr auto call_scal = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), d.alpha, a.in(d, 0));
};

using axpy = int(float*, int, float, const float*, const float*);
inline constexpr auto call_axpy = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), d.alpha, a.in(d, 0), a.in(d, 1));
};

using asum = int(float*, int, const float*);
inline constexpr auto call_asum = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), a.in(d, 0));
};

using scan = int(float*, int, const float*);
inline constexpr auto call_scan = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), a.in(d, 0));
};

using maxreduce = int(float*, int, const float*);
inline constexpr auto call_maxreduce = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), a.in(d, 0));
};

using dot = int(float*, int, const float*, const float*);
inline constexpr auto call_dot = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), a.in(d, 0), a.in(d, 1));
};

using gemv = int(float*, int, int, float, const float*, const float*, float, const float*);
inline constexpr auto call_gemv = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), dim(d, 1), d.alpha, a.in(d, 0), a.in(d, 1), d.beta, a.in(d, 2));
};

using mv = int(float*, int, int, const float*, const float*);
inline constexpr auto call_mv = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), dim(d, 1), a.in(d, 0), a.in(d, 1));
};

using mm = int(float*, int, int, int, const float*, const float*);
inline constexpr auto call_mm = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), dim(d, 1), dim(d, 2), a.in(d, 0), a.in(d, 1));
};

using transpose = int(float*, int, int, const float*);
inline constexpr auto call_transpose = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), dim(d, 1), a.in(d, 0));
};

using jacobi1d = int(float*, int, const float*);
inline constexpr auto call_jacobi1d = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), a.in(d, 0));
};

using jacobi2d = int(float*, int, int, const float*);
inline constexpr auto call_jacobi2d = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), dim(d, 1), a.in(d, 0));
};

using heat3d = int(float*, int, int, int, const float*);
inline constexpr auto call_heat3d = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), dim(d, 1), dim(d, 2), a.in(d, 0));
};

using gaussian = int(float*, int, int, const float*);
inline constexpr auto call_gaussian = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), dim(d, 1), a.in(d, 0));
};

using conv2d = int(float*, int, int, const float*, const float*);
inline constexpr auto call_conv2d = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), dim(d, 1), a.in(d, 0), a.in(d, 1));
};

using harris = int(float*, int, int, const float*);
inline constexpr auto call_harris = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), dim(d, 1), a.in(d, 0));
};

using kmeans = int(std::int32_t*, int, int, int, const float*, const float*);
inline constexpr auto call_kmeans = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), dim(d, 1), dim(d, 2), a.in(d, 0), a.in(d, 1));
};

/// out: n structs (ax, (ay, az)) of 3 floats (docs/dpia.md: arrays of pairs)
using nbody = int(pair_f32_pair_f32_f32*, int, const float*, const float*, const float*,
                  const float*);
inline constexpr auto call_nbody = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), a.in(d, 0), a.in(d, 1), a.in(d, 2), a.in(d, 3));
};
using tree_reduce = int(float*, int, const float*);
inline constexpr auto call_tree_reduce = [](auto f, Data& d, auto a) {
  return f(a.out(d), dim(d, 0), a.in(d, 0));
};

} // namespace bench::abi
