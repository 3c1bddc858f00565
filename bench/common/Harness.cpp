#include "Harness.h"

#include "../naive/Naive.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace bench {

namespace {

int I(const Data& d, std::size_t i) {
  return int(d.dims[i]);
}
const float* In(const Data& d, std::size_t i) {
  return d.in[i].data();
}

/// The naive C call of each kernel, in the risec ABI order.
const std::map<std::string, std::function<int(Data&)>>& naiveCalls() {
  static const std::map<std::string, std::function<int(Data&)>> m{
      {"scal", [](Data& d) { return naive_scal(d.out.data(), I(d, 0), d.alpha, In(d, 0)); }},
      {"axpy",
       [](Data& d) { return naive_axpy(d.out.data(), I(d, 0), d.alpha, In(d, 0), In(d, 1)); }},
      {"asum", [](Data& d) { return naive_asum(d.out.data(), I(d, 0), In(d, 0)); }},
      {"scan", [](Data& d) { return naive_scan(d.out.data(), I(d, 0), In(d, 0)); }},
      {"maxreduce", [](Data& d) { return naive_maxreduce(d.out.data(), I(d, 0), In(d, 0)); }},
      {"dot", [](Data& d) { return naive_dot(d.out.data(), I(d, 0), In(d, 0), In(d, 1)); }},
      {"gemv",
       [](Data& d) {
         return naive_gemv(d.out.data(), I(d, 0), I(d, 1), d.alpha, In(d, 0), In(d, 1), d.beta,
                           In(d, 2));
       }},
      {"mv", [](Data& d) { return naive_mv(d.out.data(), I(d, 0), I(d, 1), In(d, 0), In(d, 1)); }},
      {"mm",
       [](Data& d) {
         return naive_mm(d.out.data(), I(d, 0), I(d, 1), I(d, 2), In(d, 0), In(d, 1));
       }},
      {"transpose",
       [](Data& d) { return naive_transpose(d.out.data(), I(d, 0), I(d, 1), In(d, 0)); }},
      {"jacobi1d", [](Data& d) { return naive_jacobi1d(d.out.data(), I(d, 0), In(d, 0)); }},
      {"jacobi2d",
       [](Data& d) { return naive_jacobi2d(d.out.data(), I(d, 0), I(d, 1), In(d, 0)); }},
      {"heat3d",
       [](Data& d) { return naive_heat3d(d.out.data(), I(d, 0), I(d, 1), I(d, 2), In(d, 0)); }},
      {"gaussian",
       [](Data& d) { return naive_gaussian(d.out.data(), I(d, 0), I(d, 1), In(d, 0)); }},
      {"conv2d",
       [](Data& d) { return naive_conv2d(d.out.data(), I(d, 0), I(d, 1), In(d, 0), In(d, 1)); }},
      {"harris", [](Data& d) { return naive_harris(d.out.data(), I(d, 0), I(d, 1), In(d, 0)); }},
      {"nbody",
       [](Data& d) {
         return naive_nbody(d.out.data(), I(d, 0), In(d, 0), In(d, 1), In(d, 2), In(d, 3));
       }},
      {"kmeans",
       [](Data& d) {
         return naive_kmeans(d.outIndex.data(), I(d, 0), I(d, 1), I(d, 2), In(d, 0), In(d, 1));
       }},
      {"tree_reduce", [](Data& d) { return naive_tree_reduce(d.out.data(), I(d, 0), In(d, 0)); }},
  };
  return m;
}

/// The inputs and naive result of the problem being benchmarked; one problem
/// is alive at a time (registration order groups the variants of a problem).
struct Current {
  std::string key;
  std::unique_ptr<Data> data;
  Data reference; ///< naive output on the same inputs
  double refSum = 0;
};

Current& current(const Problem& p) {
  static Current c;
  std::string key = p.kernel + "/" + p.sizeLabel;
  if (c.key != key) {
    c.data.reset();
    c.reference = Data{};
    c.data = std::make_unique<Data>(makeData(p));
    c.reference = makeData(p);
    naiveCalls().at(p.kernel)(c.reference);
    c.refSum = 0;
    if (p.reduction) // the exact sum, for the reductions' tolerance
      for (std::size_t i = 0; i < c.reference.in[0].size(); i++) {
        double a = c.reference.in[0][i];
        c.refSum += p.kernel == "asum" ? std::fabs(a) : a * double(c.reference.in[1][i]);
      }
    c.key = key;
  }
  return c;
}

/// Compares `got` with the naive result; returns an error message or "".
/// Arrays: |got - ref| <= 1e-3 * (|ref| + mean |ref|) element-wise. Scalar
/// sums: |got - exact| <= 1e-3 * (sum |terms|) against the exact (double)
/// sum, at the cache-resident size only (Kernels.md, "Tolerance").
std::string check(const Problem& p, const Current& c, const Data& got) {
  if (p.kernel == "kmeans") {
    for (std::size_t i = 0; i < got.outIndex.size(); i++)
      if (got.outIndex[i] != c.reference.outIndex[i])
        return "point " + std::to_string(i) + ": cluster " + std::to_string(got.outIndex[i]) +
               ", expected " + std::to_string(c.reference.outIndex[i]);
    return "";
  }
  if (p.reduction) {
    if (!p.small)
      return "";
    double scale = 0;
    for (std::size_t i = 0; i < c.reference.in[0].size(); i++)
      scale += std::fabs(c.reference.in[0][i]);
    if (std::fabs(got.out[0] - c.refSum) > 1e-3 * scale)
      return "sum " + std::to_string(got.out[0]) + ", exact " + std::to_string(c.refSum);
    return "";
  }
  const Array& ref = c.reference.out;
  double mean = 0;
  for (std::size_t i = 0; i < ref.size(); i++)
    mean += std::fabs(ref[i]);
  mean /= double(ref.size());
  for (std::size_t i = 0; i < ref.size(); i++) {
    double e = std::fabs(double(got.out[i]) - ref[i]);
    if (!(e <= 1e-3 * (std::fabs(ref[i]) + mean)))
      return "element " + std::to_string(i) + ": " + std::to_string(got.out[i]) + ", expected " +
             std::to_string(ref[i]);
  }
  return "";
}

/// Size and seconds per call of each kernel/variant at its last size.
std::map<std::string, std::pair<std::string, double>>& lastSeconds() {
  static std::map<std::string, std::pair<std::string, double>> m;
  return m;
}

/// A variant that took longer than this per call at a smaller size of the
/// kernel is not run at the larger ones (it would take minutes).
constexpr double kSlowSeconds = 1.0;

void runOne(benchmark::State& state, const Problem& p, const std::string& name, const Variant& v) {
  static std::set<std::string> checked;
  std::string family = name.substr(0, name.rfind('/'));
  auto last = lastSeconds().find(family);
  if (last != lastSeconds().end() && last->second.first != p.sizeLabel &&
      last->second.second > kSlowSeconds) {
    std::string took = std::to_string(last->second.second).substr(0, 5);
    state.SkipWithError(("skipped: " + took + " s per call at the previous size").c_str());
    return;
  }
  Current& c = current(p);
  Data& d = *c.data;
  std::memset(d.out.data(), 0, 4 * d.out.size());
  if (v.prepare)
    v.prepare(d);
  if (!checked.count(name)) {
    int rc = v.run(d);
    if (rc == 0 && v.finish)
      v.finish(d);
    std::string err = rc != 0 ? "returned " + std::to_string(rc) : check(p, c, d);
    if (!err.empty()) {
      state.SkipWithError(("wrong result: " + err).c_str());
      std::fprintf(stderr, "%s: wrong result: %s\n", name.c_str(), err.c_str());
      return;
    }
    checked.insert(name);
    if (v.prepare)
      v.prepare(d);
  }
  auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    int rc = v.run(d);
    benchmark::DoNotOptimize(rc);
    benchmark::ClobberMemory();
  }
  std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  lastSeconds()[family] = {p.sizeLabel,
                           elapsed.count() /
                               double(std::max<benchmark::IterationCount>(state.iterations(), 1))};
  using C = benchmark::Counter;
  state.counters["FLOPs"] = C(p.flops, C::kIsIterationInvariantRate, C::kIs1000);
  state.counters["Bytes"] = C(p.bytes, C::kIsIterationInvariantRate, C::kIs1000);
  state.SetLabel(p.small ? "cache" : "dram");
}

} // namespace

Variant naiveVariant(const std::string& kernel) {
  return {{}, naiveCalls().at(kernel)};
}

namespace {

struct Registration {
  Problem problem;
  std::string name;
  Variant variant;
};

std::vector<Registration>& registrations() {
  static std::vector<Registration> r;
  return r;
}

} // namespace

void registerVariant(const std::string& kernel, const std::string& variantName, Variant v) {
  for (const Problem& p : problems(kernel, quickMode()))
    registrations().push_back({p, kernel + "/" + variantName + "/" + p.sizeLabel, v});
}

/// Registers with Google Benchmark grouped by problem (catalogue order, then
/// size), so that each problem's inputs and reference are made once.
void registerAll() {
  auto& regs = registrations();
  auto rank = [](const Registration& r) {
    const auto& k = catalogue();
    return std::find(k.begin(), k.end(), r.problem.kernel) - k.begin();
  };
  auto key = [&](const Registration& r) {
    return std::tuple(rank(r), !r.problem.small, r.problem.flops, r.problem.sizeLabel);
  };
  std::stable_sort(regs.begin(), regs.end(),
                   [&](const Registration& a, const Registration& b) { return key(a) < key(b); });
  for (const Registration& r : regs)
    benchmark::RegisterBenchmark(r.name.c_str(),
                                 [p = r.problem, name = r.name,
                                  v = r.variant](benchmark::State& s) { runOne(s, p, name, v); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  regs.clear();
}

std::string threadSuffix(const char* var) {
  return "-t" + std::to_string(threadsFromEnv(var));
}

int runBenchmarks(int argc, char** argv) {
  registerAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

} // namespace bench
