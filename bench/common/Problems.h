// The benchmark problems: for every catalogue kernel, its sizes (one
// cache-resident, one DRAM-sized), its inputs (random, fixed seed), and the
// FLOPs and bytes that define the GFLOP/s and GB/s counters. The semantics of
// every kernel are in bench/Kernels.md; the naive C in bench/naive is their
// executable definition.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace bench {

/// A float array aligned to 64 bytes (one cache line, one AVX-512 vector).
class Array {
public:
  Array() = default;
  explicit Array(std::size_t n)
      : n_(n), p_(static_cast<float*>(std::aligned_alloc(64, ((n * 4 + 63) / 64) * 64))) {}
  float* data() { return p_.get(); }
  const float* data() const { return p_.get(); }
  std::size_t size() const { return n_; }
  float& operator[](std::size_t i) { return p_[i]; }
  float operator[](std::size_t i) const { return p_[i]; }

private:
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  std::size_t n_ = 0;
  std::unique_ptr<float[], Free> p_;
};

/// One problem instance: a kernel at one size.
struct Problem {
  std::string kernel; ///< catalogue name, e.g. "axpy"
  std::vector<long> dims;
  std::string sizeLabel; ///< e.g. "n=16384" or "1024x1024x1024"
  bool small;            ///< cache-resident (run by --quick)
  double flops;          ///< floating-point operations per call
  double bytes;          ///< inputs read once + output written once
  bool reduction;        ///< scalar result of a long float sum (see Kernels.md)
};

/// Inputs and output of a problem. Roles per kernel are in Kernels.md.
struct Data {
  std::vector<long> dims;
  std::vector<Array> in; ///< the array inputs in the kernel's ABI order
  float alpha = 0, beta = 0;
  Array out;
  std::vector<std::int32_t> outIndex; ///< kmeans' output (cluster indices)
};

/// All problems of a kernel; only the small ones if `quick`.
std::vector<Problem> problems(const std::string& kernel, bool quick);
/// The kernels of the catalogue, in report order.
const std::vector<std::string>& catalogue();
/// Fresh random inputs (fixed seed) and a zeroed output.
Data makeData(const Problem& p);

/// True when RISEC_BENCH_QUICK is set (bench/run --quick).
bool quickMode();
/// Threads of this process: OMP_NUM_THREADS (or HL_NUM_THREADS), default 1.
int threadsFromEnv(const char* var = "OMP_NUM_THREADS");

} // namespace bench
