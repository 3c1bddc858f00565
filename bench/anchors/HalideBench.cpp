// Halide 14 anchors of bench/run: the pipelines of HalidePipelines.h, each
// JIT-compiled once, outside the timed region; HL_NUM_THREADS sets the thread
// pool size. Results are checked against the naive C before timing.
#include "../common/Harness.h"
#include "HalidePipelines.h"

#include <benchmark/benchmark.h>

#include <cctype>
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
  // Each autoscheduler of Halide 14, given the estimates of the problem's
  // size and the thread count: one pipeline per size, scheduled and
  // JIT-compiled in the untimed prepare step (halide-NAME-tN).
  using Factory = std::unique_ptr<JitPipeline> (*)(const std::string&);
  const std::map<std::string, Factory> factories{
      {"gaussian", gaussian}, {"conv2d", conv2d}, {"jacobi2d", jacobi2d}, {"harris", harris}};
  const int threads = bench::threadsFromEnv("HL_NUM_THREADS");
  for (const std::string& as : autoschedulers()) {
    std::string lower = as;
    for (char& c : lower)
      c = char(std::tolower(static_cast<unsigned char>(c)));
    std::string asName = "halide-" + lower + bench::threadSuffix("HL_NUM_THREADS");
    for (const auto& [kernel, factory] : factories) {
      auto sized = std::make_shared<std::map<std::pair<int, int>, std::shared_ptr<JitPipeline>>>();
      auto pipelineFor = [sized, factory = factory, as, threads](const Data& d) {
        std::pair<int, int> hw{int(d.dims[0]), int(d.dims[1])};
        std::shared_ptr<JitPipeline>& pl = (*sized)[hw];
        if (!pl) {
          pl = factory(as);
          pl->compile(hw.first, hw.second, threads);
        }
        return pl;
      };
      bench::registerVariant(kernel, asName,
                             {[pipelineFor](Data& d) { pipelineFor(d); },
                              [pipelineFor](Data& d) {
                                auto pl = pipelineFor(d);
                                return pl->run(d.out.data(), int(d.dims[0]), int(d.dims[1]),
                                               d.in[0].data(),
                                               pl->usesWeights ? d.in[1].data() : nullptr);
                              }});
    }
  }
  return bench::runBenchmarks(argc, argv);
}
