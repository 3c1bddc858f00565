// The risec variants of every catalogue kernel (one source per kernel).
#include "../common/Harness.h"

namespace bench {
void registerRisec_scal();
void registerRisec_axpy();
void registerRisec_asum();
void registerRisec_scan();
void registerRisec_maxreduce();
void registerRisec_dot();
void registerRisec_gemv();
void registerRisec_mv();
void registerRisec_mm();
void registerRisec_transpose();
void registerRisec_jacobi1d();
void registerRisec_jacobi2d();
void registerRisec_heat3d();
void registerRisec_gaussian();
void registerRisec_conv2d();
void registerRisec_harris();
void registerRisec_nbody();
void registerRisec_kmeans();
void registerRisec_tree_reduce();
void registerRisecExtras();
void recordSelectedIsas();
} // namespace bench

int main(int argc, char** argv) {
  bench::registerRisec_scal();
  bench::registerRisec_axpy();
  bench::registerRisec_asum();
  bench::registerRisec_scan();
  bench::registerRisec_maxreduce();
  bench::registerRisec_dot();
  bench::registerRisec_gemv();
  bench::registerRisec_mv();
  bench::registerRisec_mm();
  bench::registerRisec_transpose();
  bench::registerRisec_jacobi1d();
  bench::registerRisec_jacobi2d();
  bench::registerRisec_heat3d();
  bench::registerRisec_gaussian();
  bench::registerRisec_conv2d();
  bench::registerRisec_harris();
  bench::registerRisec_nbody();
  bench::registerRisec_kmeans();
  bench::registerRisec_tree_reduce();
  bench::registerRisecExtras();
  bench::recordSelectedIsas();
  return bench::runBenchmarks(argc, argv);
}
