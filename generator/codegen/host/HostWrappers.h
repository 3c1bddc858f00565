// The files around a kernel that are not the kernel itself (docs/host.md),
// made from its KernelAbi by rendering the mustache templates in templates/
// (embedded into risec at build time):
//   - the doc comment at the top of SYMBOL.c / SYMBOL.cl / SYMBOL.h: what
//     generated it, the RISE type, each parameter with its RISE type and
//     element count, the preconditions, the return codes;
//   - c/openmp: SYMBOL.h declaring the function;
//   - opencl: SYMBOL.h declaring SYMBOL (the C ABI on a default context),
//     SYMBOL_ctx, SYMBOL_buffers (cl_mem), SYMBOL_check and SYMBOL_launch,
//     and SYMBOL_host.c defining them with SYMBOL.cl embedded.
// Declarations only the emitter knows (pair structs, the prototype, the check
// function) come in pre-rendered as `declarations`.
#pragma once

#include "codegen/KernelAbi.h"
#include "codegen/c/EmitC.h"
#include "codegen/host/Launch.h"

#include <string>

namespace risec::codegen::host {

/// The `/* ... */` comment that opens every file of the kernel.
std::string docComment(const KernelAbi& abi, const c::COptions& opts);

/// SYMBOL.h for the c and openmp targets.
std::string cHeader(const KernelAbi& abi, const c::COptions& opts, const std::string& declarations);

/// The launch configuration a wrapper uses: the given one (--launch, the
/// spec) or the default rule, and the kernel's grid loops for the clamp.
struct LaunchPlan {
  Launch launch;
  bool given = false;
  GridLoops loops;
};

/// SYMBOL.h for the opencl target.
std::string openclHeader(const KernelAbi& abi, const c::COptions& opts, const LaunchPlan& plan,
                         const std::string& declarations);

/// SYMBOL_host.c for the opencl target; `kernelSource` is SYMBOL.cl.
std::string openclHostSource(const KernelAbi& abi, const c::COptions& opts, const LaunchPlan& plan,
                             const std::string& kernelSource);

/// The same for a program of several kernels (abi.kernels; docs/dpia.md,
/// "Kernel phases"), one plan per kernel: SYMBOL_buffers launches them in
/// order on the context's in-order queue, each with its own launch
/// function (SYMBOL_launch for the first, KERNEL_launch for the others),
/// and waits once at the end. With one kernel, the files above.
std::string openclHeader(const KernelAbi& abi, const c::COptions& opts,
                         const std::vector<LaunchPlan>& plans, const std::string& declarations);
std::string openclHostSource(const KernelAbi& abi, const c::COptions& opts,
                             const std::vector<LaunchPlan>& plans, const std::string& kernelSource);

/// host/risec_cl.h as embedded in risec (to verify the wrappers against it).
std::string runtimeHeader();

/// `text` as a C string literal, one `"line\n"` piece per line.
std::string cStringLiteral(const std::string& text);

/// The size in bytes of the largest OpenCL vector type that `kernelSource`
/// names (`float4`: 16, `double3`: 32), 0 if none: the alignment that the
/// zero-copy path of SYMBOL_ctx requires of a host array (with the element's).
std::size_t largestVectorBytes(const std::string& kernelSource);

} // namespace risec::codegen::host
