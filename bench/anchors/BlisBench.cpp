// BLIS (Debian's libblis4-openmp, through its CBLAS layer) for scal, axpy,
// asum, dot, gemv, mv and mm (sgemm): the second BLAS beside OpenBLAS (issue
// 22). The variant is blis-tN; BLIS takes its thread count from
// BLIS_NUM_THREADS, else OMP_NUM_THREADS, which bench/run sets. The report
// compares risec with the faster of OpenBLAS and BLIS at each size and
// thread count (bench/report.py, the BLAS column).
#include "../common/Harness.h"

#include <benchmark/benchmark.h>
#include <blis.h>
#include <cblas.h>

#include <cstring>
#include <string>

using bench::Data;
using bench::Variant;

namespace {

void copyInto(Data& d, std::size_t input) {
  std::memcpy(d.out.data(), d.in[input].data(), 4 * d.out.size());
}

} // namespace

int main(int argc, char** argv) {
  std::string name = "blis" + bench::threadSuffix();
  benchmark::AddCustomContext("blis_version", bli_info_get_version_str());
  benchmark::AddCustomContext("blis_arch", bli_arch_string(bli_arch_query_id()));
  // scal and axpy are in place in BLAS: the output starts as x (scal) or y
  // (axpy), outside the timed loop, as for OpenBLAS (OpenBlasBench.cpp).
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
