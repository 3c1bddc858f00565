#include "Problems.h"

#include <cstring>
#include <map>

namespace bench {

namespace {

std::string x2(long a, long b) {
  return std::to_string(a) + "x" + std::to_string(b);
}

/// One kernel's sizes and cost model: dims -> problem.
struct Family {
  std::vector<std::vector<long>> small, large;
  Problem (*make)(const std::vector<long>&);
};

Problem vec(const std::string& k, const std::vector<long>& d, double flopsPerElem,
            double arraysRead, double arraysWritten) {
  double n = double(d[0]);
  return {k,
          d,
          "n=" + std::to_string(d[0]),
          false,
          flopsPerElem * n,
          4.0 * n * arraysRead + 4.0 * arraysWritten,
          false};
}

Problem grid2(const std::string& k, const std::vector<long>& d, double flopsPerPixel,
              double extraBytes = 0) {
  double px = double(d[0]) * double(d[1]);
  return {k, d, x2(d[0], d[1]), false, flopsPerPixel * px, 8.0 * px + extraBytes, false};
}

const std::vector<long> kVecSmall{1L << 14}, kVecLarge{1L << 26};

const std::map<std::string, Family>& families() {
  static const std::map<std::string, Family> f{
      // out = alpha * x: 1 FLOP, read n, write n
      {"scal",
       {{kVecSmall},
        {kVecLarge},
        [](const std::vector<long>& d) {
          auto p = vec("scal", d, 1, 1, 0);
          p.bytes += 4.0 * d[0];
          return p;
        }}},
      {"axpy",
       {{kVecSmall},
        {kVecLarge},
        [](const std::vector<long>& d) {
          auto p = vec("axpy", d, 2, 2, 0);
          p.bytes += 4.0 * d[0];
          return p;
        }}},
      {"asum",
       {{kVecSmall},
        {kVecLarge},
        [](const std::vector<long>& d) {
          auto p = vec("asum", d, 2, 1, 1);
          p.reduction = true;
          return p;
        }}},
      // out[i] = xs[0] + ... + xs[i]: 1 FLOP, read n, write n (checked element by
      // element against the naive running sum: the blocked scan's difference is
      // a quarter of the tolerance at 2^26)
      {"scan",
       {{kVecSmall},
        {kVecLarge},
        [](const std::vector<long>& d) {
          auto p = vec("scan", d, 1, 1, 0);
          p.bytes += 4.0 * d[0];
          return p;
        }}},
      // out[0] = max xs: 1 comparison an element, read n; exact, so compared
      // as an array of one element
      {"maxreduce",
       {{kVecSmall},
        {kVecLarge},
        [](const std::vector<long>& d) { return vec("maxreduce", d, 1, 1, 1); }}},
      {"dot",
       {{kVecSmall},
        {kVecLarge},
        [](const std::vector<long>& d) {
          auto p = vec("dot", d, 2, 2, 1);
          p.reduction = true;
          return p;
        }}},
      // m chunks of 16 floats, each summed by a tree: 15 additions a chunk
      {"tree_reduce",
       {{{1L << 10}},
        {{1L << 22}},
        [](const std::vector<long>& d) {
          double m = double(d[0]);
          return Problem{"tree_reduce",    d,    "m=" + std::to_string(d[0]), false, 15 * m,
                         4 * (16 * m + m), false};
        }}},
      {"jacobi1d",
       {{kVecSmall},
        {kVecLarge},
        [](const std::vector<long>& d) {
          auto p = vec("jacobi1d", d, 3, 1, 0);
          p.bytes += 4.0 * d[0];
          return p;
        }}},
      // A is n x m: 2nm + 3n FLOPs; read A, x, y; write out
      {"gemv",
       {{{256, 256}},
        {{16384, 8192}},
        [](const std::vector<long>& d) {
          double n = d[0], m = d[1];
          return Problem{
              "gemv", d, x2(d[0], d[1]), false, 2 * n * m + 3 * n, 4 * (n * m + m + n + n), false};
        }}},
      {"mv",
       {{{256, 256}},
        {{16384, 8192}},
        [](const std::vector<long>& d) {
          double n = d[0], m = d[1];
          return Problem{"mv", d, x2(d[0], d[1]), false, 2 * n * m, 4 * (n * m + m + n), false};
        }}},
      // A m x k, B k x n: 2mnk FLOPs
      {"mm",
       {{{256, 256, 256}},
        {{1024, 1024, 1024}, {2048, 2048, 2048}},
        [](const std::vector<long>& d) {
          double m = d[0], n = d[1], k = d[2];
          return Problem{"mm",
                         d,
                         std::to_string(d[0]) + "x" + x2(d[1], d[2]),
                         false,
                         2 * m * n * k,
                         4 * (m * k + k * n + m * n),
                         false};
        }}},
      {"transpose",
       {{{256, 256}},
        {{8192, 8192}},
        [](const std::vector<long>& d) { return grid2("transpose", d, 0); }}},
      {"jacobi2d",
       {{{256, 256}},
        {{8192, 8192}},
        [](const std::vector<long>& d) { return grid2("jacobi2d", d, 5); }}},
      {"gaussian",
       {{{256, 256}},
        {{8192, 8192}},
        [](const std::vector<long>& d) { return grid2("gaussian", d, 14); }}},
      {"conv2d",
       {{{256, 256}},
        {{8192, 8192}},
        [](const std::vector<long>& d) { return grid2("conv2d", d, 17, 36); }}},
      {"harris",
       {{{256, 256}},
        {{8192, 8192}},
        [](const std::vector<long>& d) { return grid2("harris", d, 49); }}},
      {"heat3d",
       {{{32, 32, 32}},
        {{512, 512, 512}},
        [](const std::vector<long>& d) {
          double v = double(d[0]) * d[1] * d[2];
          return Problem{"heat3d", d,    std::to_string(d[0]) + "x" + x2(d[1], d[2]), false, 9 * v,
                         8 * v,    false};
        }}},
      // n bodies (x, y, z, m in four arrays; out n x 3): 20 FLOPs per pair (the usual count)
      {"nbody",
       {{{1024}},
        {{16384}},
        [](const std::vector<long>& d) {
          double n = d[0];
          return Problem{"nbody", d, "n=" + std::to_string(d[0]), false, 20 * n * n, 32 * n, false};
        }}},
      // n points, k centroids, f features: 3fk FLOPs per point
      {"kmeans",
       {{{4096, 16, 4}},
        {{1L << 24, 16, 4}},
        [](const std::vector<long>& d) {
          double n = d[0], k = d[1], f = d[2];
          return Problem{"kmeans",
                         d,
                         "n=" + std::to_string(d[0]) + ",k=" + std::to_string(d[1]) +
                             ",f=" + std::to_string(d[2]),
                         false,
                         3 * f * k * n,
                         4 * (n * f + k * f + n),
                         false};
        }}},
  };
  return f;
}

/// xorshift64*: fast, deterministic, good enough for benchmark inputs.
struct Rng {
  std::uint64_t s;
  float next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return float((s * 0x2545F4914F6CDD1DULL) >> 40) / float(1 << 24); // [0, 1)
  }
};

Array randomArray(std::size_t n, std::uint64_t seed, float lo = 0.0f, float hi = 1.0f) {
  Array a(n);
  Rng r{seed * 0x9E3779B97F4A7C15ULL + 1};
  for (std::size_t i = 0; i < n; i++)
    a[i] = lo + (hi - lo) * r.next();
  return a;
}

} // namespace

const std::vector<std::string>& catalogue() {
  static const std::vector<std::string> k{
      "scal",   "axpy",   "asum",      "scan",     "maxreduce",  "dot",    "gemv",
      "mv",     "mm",     "transpose", "jacobi1d", "jacobi2d",   "heat3d", "gaussian",
      "conv2d", "harris", "nbody",     "kmeans",   "tree_reduce"};
  return k;
}

std::vector<Problem> problems(const std::string& kernel, bool quick) {
  const Family& f = families().at(kernel);
  std::vector<Problem> out;
  for (const auto& d : f.small) {
    out.push_back(f.make(d));
    out.back().small = true;
  }
  if (!quick)
    for (const auto& d : f.large)
      out.push_back(f.make(d));
  return out;
}

Data makeData(const Problem& p) {
  Data d;
  d.dims = p.dims;
  const auto& k = p.kernel;
  auto dim = [&](std::size_t i) { return std::size_t(p.dims[i]); };
  std::size_t outSize = 1;
  if (k == "scal" || k == "jacobi1d") {
    d.in.push_back(randomArray(dim(0), 1, -1, 1));
    outSize = dim(0);
    d.alpha = -1.0f; // repeated in-place scaling (OpenBLAS) stays bounded
  } else if (k == "axpy") {
    d.in.push_back(randomArray(dim(0), 1, -1, 1));
    d.in.push_back(randomArray(dim(0), 2, -1, 1));
    d.alpha = 0.5f;
    outSize = dim(0);
  } else if (k == "tree_reduce") {
    d.in.push_back(randomArray(16 * dim(0), 1, -1, 1));
    outSize = dim(0);
  } else if (k == "scan") {
    d.in.push_back(randomArray(dim(0), 1, -1, 1));
    outSize = dim(0);
  } else if (k == "asum" || k == "maxreduce") {
    d.in.push_back(randomArray(dim(0), 1, -1, 1));
  } else if (k == "dot") {
    d.in.push_back(randomArray(dim(0), 1, -1, 1));
    d.in.push_back(randomArray(dim(0), 2, -1, 1));
  } else if (k == "gemv") {
    d.in.push_back(randomArray(dim(0) * dim(1), 1));
    d.in.push_back(randomArray(dim(1), 2));
    d.in.push_back(randomArray(dim(0), 3));
    d.alpha = 1.5f;
    d.beta = 0.5f;
    outSize = dim(0);
  } else if (k == "mv") {
    d.in.push_back(randomArray(dim(0) * dim(1), 1));
    d.in.push_back(randomArray(dim(1), 2));
    outSize = dim(0);
  } else if (k == "mm") {
    d.in.push_back(randomArray(dim(0) * dim(2), 1));
    d.in.push_back(randomArray(dim(2) * dim(1), 2));
    outSize = dim(0) * dim(1);
  } else if (k == "heat3d") {
    outSize = dim(0) * dim(1) * dim(2);
    d.in.push_back(randomArray(outSize, 1));
  } else if (k == "conv2d") {
    outSize = dim(0) * dim(1);
    d.in.push_back(randomArray(outSize, 1));
    d.in.push_back(randomArray(9, 2, -1, 1));
  } else if (k == "transpose" || k == "jacobi2d" || k == "gaussian" || k == "harris") {
    outSize = dim(0) * dim(1);
    d.in.push_back(randomArray(outSize, 1));
  } else if (k == "nbody") {
    for (std::uint64_t i = 1; i <= 4; i++) // x, y, z, m
      d.in.push_back(randomArray(dim(0), i));
    outSize = dim(0) * 3;
  } else if (k == "kmeans") {
    d.in.push_back(randomArray(dim(0) * dim(2), 1));
    d.in.push_back(randomArray(dim(1) * dim(2), 2));
    d.outIndex.assign(dim(0), -1);
    outSize = 0;
  }
  d.out = Array(outSize ? outSize : 1);
  std::memset(d.out.data(), 0, 4 * d.out.size());
  return d;
}

bool quickMode() {
  const char* q = std::getenv("RISEC_BENCH_QUICK");
  return q && *q && std::string(q) != "0";
}

int threadsFromEnv(const char* var) {
  const char* v = std::getenv(var);
  int t = v ? std::atoi(v) : 0;
  return t > 0 ? t : 1;
}

} // namespace bench
