// `risec verify SPEC` (docs/usage.md, "Testing the library"): checks the c
// and openmp variants of a kernel spec on this machine with a given C
// compiler. Each function of each variant (one per ISA level of `isas:` or
// --isas that the CPU runs) is compiled as `risec generate` writes it, built
// with the compiler and the flags the manifest records for it (tune/Measure.h),
// run on random inputs at every `check:` size of the spec and compared with
// the reference interpreter. risec_add_kernel_library(... TESTS) runs it as
// one CTest test per variant.
#pragma once

#include <iosfwd>
#include <string>

namespace risec::driver {

struct VerifyOptions {
  std::string spec;
  std::string variant; ///< one variant's symbol; empty: every c and openmp variant
  std::string isas;    ///< as `risec generate --isas` (the library's ISAS)
  std::string cc;      ///< the C compiler; empty: $CC, else `cc`
};

/// Verifies; prints one line per function and check size to `out`. A wrong
/// result, a size the kernel rejects or a build failure is a CompileError
/// (E0840, E0841) located at the variant in the spec; spec errors are E08xx.
int runVerify(const VerifyOptions& opts, std::ostream& out);

} // namespace risec::driver
