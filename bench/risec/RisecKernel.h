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
#include "risec_cl.h"

namespace bench {

/// Registers the variant `label` of `kernel` (a function of the kernel's ABI).
template <typename F, typename Call>
void registerRisecSymbol(const std::string& kernel, const std::string& label, F* f, Call call) {
  if (f)
    registerVariant(kernel, label,
                    Variant{{}, [f, call](Data& d) { return call(f, d, abi::HostArrays{}); }});
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

/// `K_opencl_buffers`: the declaration of a kernel's device-buffer entry
/// point, from its C ABI (arrays become cl_mem, the context comes first).
template <typename T> struct DeviceParam { using type = T; };
template <typename T> struct DeviceParam<T*> { using type = cl_mem; };
template <typename F> struct BuffersOf;
template <typename R, typename... P> struct BuffersOf<R(P...)> {
  using type = R(risec_cl_context*, typename DeviceParam<P>::type...);
};

/// Device buffers of the problem being run and the default risec context.
struct DeviceArrays {
  cl_mem out(Data&) const;
  cl_mem in(const Data&, std::size_t i) const;
};
risec_cl_context* deviceContext();
void uploadInputs(Data& d);
void downloadOutput(Data& d);

/// `risec-ocl-dev`: the OpenCL kernel on device-resident buffers (inputs
/// uploaded before timing, the result read after): the kernel alone, as
/// `clblast-dev`.
template <typename F, typename Call>
void registerRisecBuffers(const std::string& kernel, const std::string& label, F* f, Call call) {
  if (!f || threadsFromEnv() != 1)
    return;
  registerVariant(kernel, label,
                  Variant{uploadInputs,
                          [f, call](Data& d) {
                            auto g = [f](auto... args) { return f(deviceContext(), args...); };
                            return call(g, d, DeviceArrays{});
                          },
                          downloadOutput});
}

} // namespace bench

/// Declares <k>_c, <k>_openmp and <k>_opencl with the kernel's ABI
/// (abi::k in RisecAbi.h; a different declaration in kernels.h is a compile
/// error: the ABI check), weak, so that a variant the library lacks is
/// skipped, and registers them.
#define RISEC_BENCH_KERNEL(k)                                                                      \
  extern "C" {                                                                                     \
  bench::abi::k k##_c, k##_openmp, k##_opencl;                                                     \
  bench::BuffersOf<bench::abi::k>::type k##_opencl_buffers;                                        \
  }                                                                                                \
  _Pragma(RISEC_BENCH_STR(weak k##_opencl_buffers)) _Pragma(RISEC_BENCH_STR(weak k##_c))           \
      _Pragma(RISEC_BENCH_STR(weak k##_openmp))                                                    \
          _Pragma(RISEC_BENCH_STR(weak k##_opencl)) namespace bench {                              \
    void registerRisec_##k() {                                                                     \
      registerRisec(#k, &k##_c, &k##_openmp, &k##_opencl, abi::call_##k);                          \
      registerRisecBuffers(#k, "risec-ocl-dev", &k##_opencl_buffers, abi::call_##k);               \
    }                                                                                              \
  }
#define RISEC_BENCH_STR(x) #x
