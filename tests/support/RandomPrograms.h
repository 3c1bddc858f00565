// A generator of random well-typed high-level RISE programs over small
// concrete sizes, for randomized differential tests of the rewrite rules and
// the back ends (tests/unit/RewriteFuzzTest.cpp).
//
// Programs are produced as RISE text (a single `def`), so that a failure can
// be reported and re-run as it is. Every program has one to two inputs of
// concrete types (`8.f32`, `4.6.f32`, ...) and a body built from map (small
// scalar lambdas), reduce, zip, split, join, transpose, slide and padCst,
// composed up to a small depth; the scalar lambdas use add, sub, mul, neg,
// fabs, max (as a reduction's operator), fst and snd of a zip's pairs, and
// pairs built and projected at once (`fst((a, b))`). RewriteFuzz's coverage
// tally checks that the default run uses each of these (kClaimedPrimitives). The generator tracks
// the shape of every intermediate so that each program type-checks; one that does not is a bug of
// the generator.
//
// Randomness: a seeded std::mt19937_64 with hand-written uniform helpers
// (no <random> distributions, whose output differs between standard
// libraries), so a seed gives the same program everywhere.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace risec::testsupport {

/// Uniform choices from a std::mt19937_64, identical on every platform.
class Rng {
public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}

  /// Uniform in [0, n); n > 0. Rejection sampling avoids modulo bias.
  std::uint64_t below(std::uint64_t n);
  /// Uniform in [lo, hi].
  std::int64_t range(std::int64_t lo, std::int64_t hi);
  /// True with probability num/den.
  bool chance(std::uint64_t num, std::uint64_t den) { return below(den) < num; }
  template <typename T> const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }
  template <typename T> void shuffle(std::vector<T>& v) {
    for (std::size_t i = v.size(); i > 1; --i)
      std::swap(v[i - 1], v[below(i)]);
  }

  std::mt19937_64& engine() { return engine_; }

private:
  std::mt19937_64 engine_;
};

struct GeneratorOptions {
  std::int64_t maxDim = 12;      ///< sizes of every dimension in [1, maxDim]
  std::int64_t maxElements = 96; ///< bound on the elements of every intermediate array
  int maxOps = 5;                ///< data-parallel operations on the main pipeline
  int maxNesting = 2;            ///< nesting of lambdas with their own pipelines
};

/// A generated program: `def f = fun(x: ... => ...)`.
struct RandomProgram {
  std::string text;  ///< the whole `.rise` text
  std::string entry; ///< the def's name
};

RandomProgram randomProgram(Rng& rng, const GeneratorOptions& opts = {});

/// The divisors of n (n >= 1), ascending.
std::vector<std::int64_t> divisors(std::int64_t n);

} // namespace risec::testsupport
