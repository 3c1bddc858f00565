// Registration of the risec variants of one catalogue kernel: <kernel>_c and
// <kernel>_opencl (registered when OMP_NUM_THREADS=1) and <kernel>_openmp
// (registered as risec-omp-tN), called through the kernels.h umbrella header
// with the C ABI of DESIGN.md. Each source declares the three symbols with
// the ABI it expects (kernels.h must agree) and weak (`#pragma weak`), so a
// kernel or variant the library does not (yet) provide is skipped instead of
// breaking the build.
#pragma once

#include "../common/Harness.h"
#include "RisecAbi.h"

#include <cstdint>

#define restrict __restrict
extern "C" {
#include "kernels.h"
}
#undef restrict

namespace bench {

/// Registers the variant `label` of `kernel` (a function of the kernel's ABI).
template <typename F, typename Call>
void registerRisecSymbol(const std::string& kernel, const std::string& label, F* f, Call call) {
  if (f)
    registerVariant(kernel, label, Variant{{}, [f, call](Data& d) { return call(f, d); }});
}

template <typename F, typename Call>
void registerRisec(const std::string& kernel, F* c, F* openmp, F* opencl, Call call) {
  bool first = threadsFromEnv() == 1;
  if (first)
    registerRisecSymbol(kernel, "risec-c", c, call);
  registerRisecSymbol(kernel, "risec-omp" + threadSuffix(), openmp, call);
  if (first)
    registerRisecSymbol(kernel, "risec-ocl", opencl, call);
}

/// A variant with its own symbol (from the manifest): `risec:SYMBOL`, with
/// -tN for OpenMP and -ocl for OpenCL; C and OpenCL in the 1-thread run only.
template <typename F, typename Call>
void registerRisecExtra(const std::string& kernel, const std::string& symbol,
                        const std::string& target, F* f, Call call) {
  bool first = threadsFromEnv() == 1;
  if (target == "openmp")
    registerRisecSymbol(kernel, "risec:" + symbol + threadSuffix(), f, call);
  else if (first)
    registerRisecSymbol(kernel, "risec:" + symbol + (target == "opencl" ? "-ocl" : ""), f, call);
}

} // namespace bench

/// Declares <k>_c, <k>_openmp and <k>_opencl with the kernel's ABI
/// (abi::k in RisecAbi.h; a different declaration in kernels.h is a compile
/// error: the ABI check), weak, so that a variant the library lacks is
/// skipped, and registers them.
#define RISEC_BENCH_KERNEL(k)                                                                      \
  extern "C" {                                                                                     \
  bench::abi::k k##_c, k##_openmp, k##_opencl;                                                     \
  }                                                                                                \
  _Pragma(RISEC_BENCH_STR(weak k##_c)) _Pragma(RISEC_BENCH_STR(weak k##_openmp))                   \
      _Pragma(RISEC_BENCH_STR(weak k##_opencl)) namespace bench {                                  \
    void registerRisec_##k() {                                                                     \
      registerRisec(#k, &k##_c, &k##_openmp, &k##_opencl, abi::call_##k);                          \
    }                                                                                              \
  }
#define RISEC_BENCH_STR(x) #x
