// Registration of the risec variants of one catalogue kernel: <kernel>_c and
// <kernel>_opencl (registered when OMP_NUM_THREADS=1) and <kernel>_openmp
// (registered as risec-omp-tN), called through the kernels.h umbrella header
// with the C ABI of DESIGN.md. Each source declares the three symbols with
// the ABI it expects (kernels.h must agree) and weak (`#pragma weak`), so a
// kernel or variant the library does not (yet) provide is skipped instead of
// breaking the build.
#pragma once

#include "../common/Harness.h"

#include <cstdint>

#define restrict __restrict
extern "C" {
#include "kernels.h"
}
#undef restrict

namespace bench {

template <typename F, typename Call>
void registerRisec(const std::string& kernel, F c, F openmp, F opencl, Call call) {
  auto variant = [call](F f) { return Variant{{}, [f, call](Data& d) { return call(f, d); }}; };
  bool first = threadsFromEnv() == 1;
  if (c && first)
    registerVariant(kernel, "risec-c", variant(c));
  if (openmp)
    registerVariant(kernel, "risec-omp" + threadSuffix(), variant(openmp));
  if (opencl && first)
    registerVariant(kernel, "risec-ocl", variant(opencl));
}

inline int dim(const Data& d, std::size_t i) {
  return int(d.dims[i]);
}
inline const float* input(const Data& d, std::size_t i) {
  return d.in[i].data();
}

} // namespace bench

/// Declares <k>_c, <k>_openmp and <k>_opencl with the C ABI PARAMS (a
/// different declaration in kernels.h is a compile error: the ABI check),
/// weak, so that a variant the library lacks is skipped, and registers them
/// with the call CALL: (auto f, Data& d) -> int.
#define RISEC_BENCH_KERNEL(k, PARAMS, CALL)                                                        \
  extern "C" {                                                                                     \
  int k##_c PARAMS;                                                                                \
  int k##_openmp PARAMS;                                                                           \
  int k##_opencl PARAMS;                                                                           \
  }                                                                                                \
  _Pragma(RISEC_BENCH_STR(weak k##_c)) _Pragma(RISEC_BENCH_STR(weak k##_openmp))                   \
      _Pragma(RISEC_BENCH_STR(weak k##_opencl)) namespace bench {                                  \
    void registerRisec_##k() {                                                                     \
      registerRisec(#k, &k##_c, &k##_openmp, &k##_opencl, CALL);                                   \
    }                                                                                              \
  }
#define RISEC_BENCH_STR(x) #x
