// The machine's limits: STREAM-style copy and triad bandwidth on arrays far
// larger than the last-level cache, and the FMA peak (AVX-512 when available)
// with enough independent accumulators to hide the FMA latency; 1 and 2
// threads (OpenMP). Reported as GB/s ("Bytes") and GFLOP/s ("FLOPs").
#include <benchmark/benchmark.h>
#include <immintrin.h>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

/// Elements per STREAM array: 4x the last-level cache (the STREAM rule),
/// at most 1/8 of the physical memory per array; 8M in quick mode.
std::size_t streamElements() {
  if (const char* q = std::getenv("RISEC_BENCH_QUICK"); q && *q && std::string(q) != "0")
    return std::size_t(1) << 23;
  long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (llc <= 0)
    llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
  std::size_t bytes = std::max<std::size_t>(4 * std::size_t(std::max(llc, 1L << 20)), 256 << 20);
  std::size_t phys = std::size_t(sysconf(_SC_PHYS_PAGES)) * std::size_t(sysconf(_SC_PAGESIZE));
  return std::min(bytes, phys / 8) / sizeof(float);
}

struct Arrays {
  std::size_t n;
  float *a, *b, *c;
  explicit Arrays(std::size_t n) : n(n) {
    a = static_cast<float*>(std::aligned_alloc(64, n * 4));
    b = static_cast<float*>(std::aligned_alloc(64, n * 4));
    c = static_cast<float*>(std::aligned_alloc(64, n * 4));
    // first touch by the threads that will use the pages
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; i++) {
      a[i] = 1.0f;
      b[i] = 2.0f;
      c[i] = 0.0f;
    }
  }
  ~Arrays() {
    std::free(a);
    std::free(b);
    std::free(c);
  }
};

Arrays& arrays() {
  static Arrays arr(streamElements());
  return arr;
}

void setCounters(benchmark::State& s, double bytes, double flops) {
  using C = benchmark::Counter;
  s.counters["Bytes"] = C(bytes, C::kIsIterationInvariantRate, C::kIs1000);
  s.counters["FLOPs"] = C(flops, C::kIsIterationInvariantRate, C::kIs1000);
}

/// c = a: reads n, writes n floats.
void streamCopy(benchmark::State& s) {
  Arrays& x = arrays();
  int t = int(s.range(0));
  for (auto _ : s) {
#pragma omp parallel for schedule(static) num_threads(t)
    for (std::size_t i = 0; i < x.n; i++)
      x.c[i] = x.a[i];
    benchmark::ClobberMemory();
  }
  setCounters(s, 8.0 * double(x.n), 0);
}

/// a = b + 3 c: reads 2n, writes n floats (STREAM counts no write-allocate).
void streamTriad(benchmark::State& s) {
  Arrays& x = arrays();
  int t = int(s.range(0));
  for (auto _ : s) {
#pragma omp parallel for schedule(static) num_threads(t)
    for (std::size_t i = 0; i < x.n; i++)
      x.a[i] = x.b[i] + 3.0f * x.c[i];
    benchmark::ClobberMemory();
  }
  setCounters(s, 12.0 * double(x.n), 2.0 * double(x.n));
}

#if defined(__AVX512F__)
using Vec = __m512;
constexpr int kLanes = 16;
inline Vec fma(Vec a, Vec b, Vec c) {
  return _mm512_fmadd_ps(a, b, c);
}
inline Vec splat(float f) {
  return _mm512_set1_ps(f);
}
inline float sum(Vec v) { // not _mm512_reduce_add_ps: GCC 12 warns in it (-Wuninitialized)
  alignas(64) float t[16];
  _mm512_store_ps(t, v);
  float s = 0;
  for (float f : t)
    s += f;
  return s;
}
#else
using Vec = __m256;
constexpr int kLanes = 8;
inline Vec fma(Vec a, Vec b, Vec c) {
  return _mm256_fmadd_ps(a, b, c);
}
inline Vec splat(float f) {
  return _mm256_set1_ps(f);
}
inline float sum(Vec v) {
  alignas(32) float t[8];
  _mm256_store_ps(t, v);
  float s = 0;
  for (float f : t)
    s += f;
  return s;
}
#endif

/// 16 independent accumulators: 2 FMA ports x 4 cycles latency need >= 8.
constexpr int kAcc = 16;
constexpr long kSteps = 1 << 20;

float fmaLoop(float seed) {
  Vec acc[kAcc];
  for (int j = 0; j < kAcc; j++)
    acc[j] = splat(seed * float(j + 1));
  Vec m = splat(0.999999f), a = splat(1e-7f);
  for (long i = 0; i < kSteps; i++)
    for (int j = 0; j < kAcc; j++)
      acc[j] = fma(acc[j], m, a);
  Vec total = acc[0];
  for (int j = 1; j < kAcc; j++)
    total = total + acc[j];
  return sum(total);
}

void fmaPeak(benchmark::State& s) {
  int t = int(s.range(0));
  float sink = 0;
  for (auto _ : s) {
#pragma omp parallel num_threads(t) reduction(+ : sink)
    sink += fmaLoop(float(omp_get_thread_num() + 1));
  }
  benchmark::DoNotOptimize(sink);
  setCounters(s, 0, 2.0 * kLanes * kAcc * double(kSteps) * t);
}

} // namespace

BENCHMARK(streamCopy)
    ->Name("limits/stream-copy")
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(streamTriad)
    ->Name("limits/stream-triad")
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(fmaPeak)
    ->Name("limits/fma-peak")
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
