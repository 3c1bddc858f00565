// OpenBLAS for scal, axpy, asum, dot, gemv and mm (sgemm). The same source is
// linked twice, by full path, against the serial and the OpenMP build of
// OpenBLAS (they export the same symbols); OPENBLAS_VARIANT names the build.
// With OPENBLAS_CORETYPE=CORE (OpenBLAS's own variable: its DYNAMIC_ARCH
// builds then use that core's kernels, e.g. Haswell for AVX2) the variants are
// named openblas-<core>-serial and openblas-<core>-omp-tN (core in lower
// case); if OpenBLAS does not run that core, nothing is registered.
#include "../common/Harness.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include "CblasVariants.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

} // namespace

int main(int argc, char** argv) {
  std::string name = OPENBLAS_VARIANT;
  if (name != "openblas-serial")
    name += bench::threadSuffix();
  std::string core = openblas_get_corename();
  benchmark::AddCustomContext("openblas_corename", core);
  if (const char* forced = std::getenv("OPENBLAS_CORETYPE"); forced && *forced) {
    if (lower(forced) != lower(core)) {
      std::fprintf(stderr,
                   "%s: OPENBLAS_CORETYPE=%s, but OpenBLAS runs its %s kernels; "
                   "nothing is registered\n",
                   argv[0], forced, core.c_str());
      return bench::runBenchmarks(argc, argv);
    }
    name.insert(std::strlen("openblas-"), lower(forced) + "-");
  }
  bench::cblas::registerVariants(name);
  return bench::runBenchmarks(argc, argv);
}
