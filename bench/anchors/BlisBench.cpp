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

#include "CblasVariants.h"

#include <string>

int main(int argc, char** argv) {
  std::string name = "blis" + bench::threadSuffix();
  benchmark::AddCustomContext("blis_version", bli_info_get_version_str());
  benchmark::AddCustomContext("blis_arch", bli_arch_string(bli_arch_query_id()));
  bench::cblas::registerVariants(name);
  return bench::runBenchmarks(argc, argv);
}
