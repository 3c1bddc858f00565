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

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using bench::Data;
using bench::Variant;

namespace {

void copyInto(Data& d, std::size_t input) {
  std::memcpy(d.out.data(), d.in[input].data(), 4 * d.out.size());
}

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
  // scal and axpy are in place in BLAS: the output starts as x (scal) or y
  // (axpy), outside the timed loop; alpha = -1 keeps repeated scal bounded.
  bench::registerVariant("scal", name,
                         Variant{[](Data& d) { copyInto(d, 0); },
                                 [](Data& d) {
                                   cblas_sscal(int(d.dims[0]), d.alpha, d.out.data(), 1);
                                   return 0;
                                 }});
  bench::registerVariant("axpy", name,
                         Variant{[](Data& d) { copyInto(d, 1); },
                                 [](Data& d) {
                                   cblas_saxpy(int(d.dims[0]), d.alpha, d.in[0].data(), 1,
                                               d.out.data(), 1);
                                   return 0;
                                 }});
  bench::registerVariant("asum", name, Variant{{}, [](Data& d) {
                                                 d.out[0] =
                                                     cblas_sasum(int(d.dims[0]), d.in[0].data(), 1);
                                                 return 0;
                                               }});
  bench::registerVariant("dot", name, Variant{{}, [](Data& d) {
                                                d.out[0] =
                                                    cblas_sdot(int(d.dims[0]), d.in[0].data(), 1,
                                                               d.in[1].data(), 1);
                                                return 0;
                                              }});
  // gemv: out = alpha A x + beta y, with out starting as y.
  bench::registerVariant("gemv", name,
                         Variant{[](Data& d) { copyInto(d, 2); },
                                 [](Data& d) {
                                   int n = int(d.dims[0]), m = int(d.dims[1]);
                                   cblas_sgemv(CblasRowMajor, CblasNoTrans, n, m, d.alpha,
                                               d.in[0].data(), m, d.in[1].data(), 1, d.beta,
                                               d.out.data(), 1);
                                   return 0;
                                 }});
  bench::registerVariant("mv", name, Variant{{}, [](Data& d) {
                                               int n = int(d.dims[0]), m = int(d.dims[1]);
                                               cblas_sgemv(CblasRowMajor, CblasNoTrans, n, m, 1.0f,
                                                           d.in[0].data(), m, d.in[1].data(), 1,
                                                           0.0f, d.out.data(), 1);
                                               return 0;
                                             }});
  bench::registerVariant("mm", name,
                         Variant{{}, [](Data& d) {
                                   int m = int(d.dims[0]), n = int(d.dims[1]), k = int(d.dims[2]);
                                   cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k,
                                               1.0f, d.in[0].data(), k, d.in[1].data(), n, 0.0f,
                                               d.out.data(), n);
                                   return 0;
                                 }});
  return bench::runBenchmarks(argc, argv);
}
