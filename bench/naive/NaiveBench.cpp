// The naive C loops of every catalogue kernel (single-threaded, -O3 -march=native).
#include "../common/Harness.h"

int main(int argc, char** argv) {
  for (const std::string& k : bench::catalogue())
    bench::registerVariant(k, "naive", bench::naiveVariant(k));
  return bench::runBenchmarks(argc, argv);
}
