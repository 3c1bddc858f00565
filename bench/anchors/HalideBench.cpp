// Halide 14 anchors of bench/run: the pipelines of HalidePipelines.h, each
// JIT-compiled once, outside the timed region; HL_NUM_THREADS sets the thread
// pool size. Results are checked against the naive C before timing.
#include "../common/Harness.h"
#include "HalidePipelines.h"

#include <benchmark/benchmark.h>

#include <map>
#include <memory>

using bench::Data;
using namespace bench::halide;

int main(int argc, char** argv) {
  std::map<std::string, std::shared_ptr<JitPipeline>> pipelines{{"gaussian", gaussian()},
                                                                {"conv2d", conv2d()},
                                                                {"jacobi2d", jacobi2d()},
                                                                {"harris", harris()}};
  std::string name = "halide" + bench::threadSuffix("HL_NUM_THREADS");
  benchmark::AddCustomContext("halide_target",
                              Halide::get_jit_target_from_environment().to_string());
  benchmark::AddCustomContext("halide_vector_width", std::to_string(vectorWidth()));
  for (auto& [kernel, pipeline] : pipelines) {
    pipeline->compile(); // JIT, once, outside every timed region
    bench::registerVariant(
        kernel, name, {{}, [pl = pipeline](Data& d) {
                         return pl->run(d.out.data(), int(d.dims[0]), int(d.dims[1]),
                                        d.in[0].data(), pl->usesWeights ? d.in[1].data() : nullptr);
                       }});
  }
  return bench::runBenchmarks(argc, argv);
}
