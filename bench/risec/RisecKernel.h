// Registration of the risec variants of one catalogue kernel: <kernel>_c and
// <kernel>_opencl (registered when OMP_NUM_THREADS=1) and <kernel>_openmp
// (registered as risec-omp-tN), called through the kernels.h umbrella header
// with the C ABI of docs/dpia.md. Each source declares the three symbols with
// the ABI it expects (kernels.h must agree) and weak (`#pragma weak`), so a
// kernel or variant the library does not (yet) provide is skipped instead of
// breaking the build.
#pragma once

#include "../common/Harness.h"
#include "RisecAbi.h"

#include <cstdint>
#include <string>
#include <vector>

#define restrict __restrict
extern "C" {
#include "kernels.h"
}
#undef restrict
#include "risec_cl.h"

namespace bench {

/// `SYMBOL_selected_isa` of a variant with ISA levels (`isas` in
/// generated/kernels.json), or null: the variant has one function, or the
/// library lacks it. Generated into RisecExtras.cpp by bench/CMakeLists.txt.
using SelectedIsa = const char* (*)();
SelectedIsa selectedIsaOf(const std::string& symbol);
/// The symbols with ISA levels in the manifest (also generated).
const std::vector<std::string>& isaSymbols();

/// The level of a per-ISA-level run: bench/run runs bench_risec once per
/// x86-64 level with RISEC_ISA=LEVEL and RISEC_BENCH_ISA_LABEL=LEVEL; "" in
/// the default run (the dispatchers' own choice).
std::string isaLabel();

/// The name under which `label` (the variant of `symbol`) is registered: as is
/// in the default run; in a per-level run, `label@LEVEL` if `symbol` has ISA
/// levels and its dispatcher runs LEVEL, otherwise "" (not registered: the
/// variants without levels are measured by the default run only).
std::string isaVariantName(const std::string& symbol, const std::string& label);

/// Records the level each dispatcher runs as Google Benchmark context
/// (`risec_isa:SYMBOL`), for the report.
void recordSelectedIsas();

/// Registers the variant `label` of `kernel` (`symbol`, a function of the
/// kernel's ABI).
template <typename F, typename Call>
void registerRisecSymbol(const std::string& kernel, const std::string& label,
                         const std::string& symbol, F* f, Call call) {
  if (!f)
    return;
  std::string name = isaVariantName(symbol, label);
  if (!name.empty())
    registerVariant(kernel, name,
                    Variant{{}, [f, call](Data& d) { return call(f, d, abi::HostArrays{}); }});
}

template <typename F, typename Call>
void registerRisec(const std::string& kernel, F* c, F* openmp, F* opencl, Call call) {
  bool first = threadsFromEnv() == 1;
  if (first)
    registerRisecSymbol(kernel, "risec-c", kernel + "_c", c, call);
  registerRisecSymbol(kernel, "risec-omp" + threadSuffix(), kernel + "_openmp", openmp, call);
  if (first)
    registerRisecSymbol(kernel, "risec-ocl", kernel + "_opencl", opencl, call);
}

/// A variant with its own symbol (from the manifest): `risec:SYMBOL`, with
/// -tN for OpenMP and -ocl for OpenCL; C and OpenCL in the 1-thread run only.
template <typename F, typename Call>
void registerRisecExtra(const std::string& kernel, const std::string& symbol,
                        const std::string& target, F* f, Call call) {
  bool first = threadsFromEnv() == 1;
  if (target == "openmp")
    registerRisecSymbol(kernel, "risec:" + symbol + threadSuffix(), symbol, f, call);
  else if (first)
    registerRisecSymbol(kernel, "risec:" + symbol + (target == "opencl" ? "-ocl" : ""), symbol, f,
                        call);
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
  if (!f || threadsFromEnv() != 1 || !isaLabel().empty()) // OpenCL has no ISA levels
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
