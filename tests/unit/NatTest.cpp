// Unit tests of the Nat simplifier, bounds, prover, traversals, evaluation and
// printer, plus a randomized check of the simplifier against an independent
// reference evaluator.
#include "rise/nat/Nat.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <random>

using namespace risec::rise;

namespace {

Nat c(std::int64_t v) {
  return natConst(v);
}
std::string str(const Nat& n) {
  return natToString(n);
}

#define EXPECT_NAT_EQ(a, b)                                                                        \
  do {                                                                                             \
    Nat lhs_ = (a);                                                                                \
    Nat rhs_ = (b);                                                                                \
    EXPECT_TRUE(natEqual(lhs_, rhs_)) << str(lhs_) << "  vs  " << str(rhs_);                       \
  } while (0)

// Size variables n, m, k, a, b (unbounded); index variables with ranges.
class NatTest : public ::testing::Test {
protected:
  Nat n = natVar("n");
  Nat m = natVar("m");
  Nat k = natVar("k");
  Nat a = natVar("a");
  Nat b = natVar("b");
  Nat i = natVar("i", nullptr, n);      // i in [0, n)
  Nat j = natVar("j", nullptr, m);      // j in [0, m)
  Nat i4 = natVar("i4", nullptr, c(4)); // in [0, 4)
  Nat u = natVar("u");                  // unbounded, no range
};

std::optional<std::int64_t> evalWith(const Nat& e,
                                     const std::map<std::uint64_t, std::int64_t>& env) {
  return natEvaluate(e, [&](const NatVarInfo& v) -> std::optional<std::int64_t> {
    auto it = env.find(v.id);
    if (it == env.end()) {
      return std::nullopt;
    }
    return it->second;
  });
}

std::uint64_t id(const Nat& v) {
  return v->var().id;
}

// ---- constant folding and units ------------------------------------------------

TEST_F(NatTest, ConstantFolding) {
  EXPECT_NAT_EQ(c(2) + c(3), c(5));
  EXPECT_NAT_EQ(c(2) - c(7), c(-5));
  EXPECT_NAT_EQ(c(6) * c(7), c(42));
  EXPECT_NAT_EQ(c(7) / c(2), c(3));
  EXPECT_NAT_EQ(c(-7) / c(2), c(-4)); // floor, not truncation
  EXPECT_NAT_EQ(c(7) % c(3), c(1));
  EXPECT_NAT_EQ(c(-7) % c(2), c(1)); // sign of the divisor
  EXPECT_NAT_EQ(c(7) % c(-2), c(-1));
  EXPECT_NAT_EQ(natPow(c(2), c(10)), c(1024));
  EXPECT_NAT_EQ(natPow(c(-2), c(3)), c(-8));
  EXPECT_NAT_EQ(natPow(c(0), c(0)), c(1));
  EXPECT_NAT_EQ(natMin(c(3), c(5)), c(3));
  EXPECT_NAT_EQ(natMax(c(3), c(5)), c(5));
  EXPECT_NAT_EQ((c(2) + n) * c(3) - n * c(3), c(6));
}

TEST_F(NatTest, Units) {
  EXPECT_NAT_EQ(n + 0, n);
  EXPECT_NAT_EQ(c(0) + n, n);
  EXPECT_NAT_EQ(n * 1, n);
  EXPECT_NAT_EQ(n * 0, c(0));
  EXPECT_NAT_EQ(c(0) / n, c(0));
  EXPECT_NAT_EQ(n / 1, n);
  EXPECT_NAT_EQ(n % 1, c(0));
  EXPECT_NAT_EQ(natPow(n, c(0)), c(1));
  EXPECT_NAT_EQ(natPow(n, c(1)), n);
  EXPECT_NAT_EQ(natPow(c(1), k), c(1));
  EXPECT_NAT_EQ(n / n, c(1));
  EXPECT_NAT_EQ(n % n, c(0));
  EXPECT_NAT_EQ(n - 0, n);
}

TEST_F(NatTest, OverflowIsNotFolded) {
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  Nat sum = c(max) + c(1);
  EXPECT_FALSE(sum->isConst());
  EXPECT_EQ(evalWith(sum, {}), std::nullopt);
  Nat prod = c(max) * c(2);
  EXPECT_FALSE(prod->isConst());
  EXPECT_EQ(evalWith(prod, {}), std::nullopt);
  EXPECT_FALSE(natPow(c(2), c(64))->isConst());
  EXPECT_NAT_EQ(natPow(c(2), c(62)), c(std::int64_t{1} << 62));
  EXPECT_EQ(evalWith(c(std::numeric_limits<std::int64_t>::min()) / c(-1), {}), std::nullopt);
  // Symbolic terms whose coefficients would overflow are kept, not wrapped.
  Nat big = c(max) * n + c(max) * n;
  EXPECT_EQ(evalWith(big, {{id(n), 1}}), std::nullopt);
  EXPECT_EQ(evalWith(big, {{id(n), 0}}), 0);
}

// ---- sums of products ----------------------------------------------------------

TEST_F(NatTest, SumsAndProducts) {
  EXPECT_NAT_EQ((n + m) + k, n + (m + k));
  EXPECT_NAT_EQ(n + m, m + n);
  EXPECT_NAT_EQ(n * m, m * n);
  EXPECT_NAT_EQ((n * m) * k, n * (m * k));
  EXPECT_NAT_EQ(2 * n + 3 * n, 5 * n);
  EXPECT_NAT_EQ(n - n, c(0));
  EXPECT_NAT_EQ(n + m - n, m);
  EXPECT_NAT_EQ((n + 2) * m, m * n + 2 * m);
  EXPECT_NAT_EQ((n + m) * (n - m), natPow(n, c(2)) - natPow(m, c(2)));
  EXPECT_NAT_EQ(2 * (n + m) - 2 * m, 2 * n);
  EXPECT_NAT_EQ(n * n, natPow(n, c(2)));
  EXPECT_NAT_EQ(n * n * n, natPow(n, c(3)));
  EXPECT_NAT_EQ(3 * (n * 2), 6 * n);
  EXPECT_NAT_EQ(n * m - m * n, c(0));
}

TEST_F(NatTest, Powers) {
  EXPECT_NAT_EQ(natPow(n, a) * natPow(n, b), natPow(n, a + b));
  EXPECT_NAT_EQ(natPow(n, k) * n, natPow(n, k + 1));
  EXPECT_NAT_EQ(natPow(n + 1, c(2)), n * n + 2 * n + 1);
  EXPECT_NAT_EQ(natPow(n + 1, c(2)), (n + 1) * (n + 1));
  EXPECT_NAT_EQ(natPow(2 * n, c(3)), 8 * natPow(n, c(3)));
  EXPECT_NAT_EQ(natPow(natPow(n, c(2)), c(3)), natPow(n, c(6)));
  EXPECT_NAT_EQ(natPow(n * m, k), natPow(n, k) * natPow(m, k));
  EXPECT_NAT_EQ(natPow(natPow(n, a), b), natPow(n, a * b));
  EXPECT_NAT_EQ(natPow(c(2), k) * natPow(c(2), a), natPow(c(2), a + k));
  EXPECT_NAT_EQ(natPow(n, c(3)) / natPow(n, c(2)), n);
  // n^k / n is not n^(k-1): k may be 0.
  EXPECT_FALSE(natEqual(natPow(n, k) / n, natPow(n, k - 1)));
  EXPECT_EQ(str(natPow(n, k)), "n^k");
  EXPECT_EQ(str(natPow(n, k + 1)), "n^(k + 1)");
  EXPECT_EQ(str(natPow(c(2), k)), "2^k");
  EXPECT_EQ(str(natPow(n + 1, k)), "(n + 1)^k");
  EXPECT_EQ(str(natPow(n, natPow(c(2), k))), "n^2^k");
  EXPECT_EQ(str(natPow(natPow(n + 1, k), a)), "(n + 1)^(a*k)");
}

// ---- division ------------------------------------------------------------------

TEST_F(NatTest, Division) {
  EXPECT_NAT_EQ((n * 32) / 32, n);
  EXPECT_NAT_EQ((4 * i + 8 * j) / 4, i + 2 * j);
  EXPECT_NAT_EQ((n * m) / m, n);
  EXPECT_NAT_EQ((2 * n) / n, c(2));
  EXPECT_NAT_EQ((i * m + j) / m, i);
  EXPECT_NAT_EQ((4 * n + i4) / 4, n);
  EXPECT_NAT_EQ((4 * n + 5) / 4, n + 1);
  EXPECT_NAT_EQ((4 * n + i4 + 4) / 4, n + 1);
  EXPECT_NAT_EQ((n / 2) / 3, n / 6);
  EXPECT_NAT_EQ((n / m) / k, n / (m * k));
  EXPECT_NAT_EQ((2 * n) / 4, n / 2);
  EXPECT_NAT_EQ((n + 4) / 2, n / 2 + 2);
  EXPECT_NAT_EQ(j / m, c(0));
  EXPECT_NAT_EQ((n % 4) / 4, c(0));
  EXPECT_NAT_EQ((n % m) / m, c(0));
  EXPECT_NAT_EQ(i4 / 4, c(0));
  EXPECT_NAT_EQ(i / (n + 1), c(0));
  EXPECT_NAT_EQ((n + 1) / (n + 1), c(1));
  // A remainder in [-d, 0) (the divisor is >= 1).
  EXPECT_NAT_EQ((m * n - 1) / m, n - 1);
  EXPECT_NAT_EQ((4 * n - 3) / 4, n - 1);
  EXPECT_NAT_EQ((n * m * k + j * k) / (m * k), n); // common factor k cancels
  EXPECT_EQ(str((n + 3) / 2), "(n + 3)/2");
  EXPECT_EQ(str(n / 32), "n/32");
  EXPECT_EQ(str(n / (m * k)), "n/(k*m)");
  EXPECT_EQ(str((n + 4) / 2), "n/2 + 2");
}

TEST_F(NatTest, DivisionNeedsRanges) {
  // u's range is unknown: (i*m + u)/m must not become i.
  Nat unknown = (i * m + u) / m;
  EXPECT_FALSE(natEqual(unknown, i));
  EXPECT_EQ(str(unknown), "i + u/m"); // exact terms still split off
  // i4 + 1 reaches 4: the remainder may carry.
  EXPECT_FALSE(natEqual((4 * n + i4 + 1) / 4, n));
  Nat j5 = natVar("j5", nullptr, c(5));
  EXPECT_FALSE(natEqual((4 * n + j5) / 4, n));
  // j < m, but j + 1 <= m only: (m*i + j + 1)/m may be i + 1.
  EXPECT_FALSE(natEqual((m * i + j + 1) / m, i));
  // A negative remainder is not in [0, d).
  EXPECT_FALSE(natEqual((m * n - 1) / m, n));
  EXPECT_FALSE(natEqual((m * n - 2) / m, n - 1)); // m may be 1
  // Ceiling division stays as written.
  EXPECT_EQ(str((n + m - 1) / m), "(m + n - 1)/m");
  // A remainder that may leave the stride: (4*n + j5)/16 is n/4 only for j5 < 4.
  EXPECT_FALSE(natEqual((4 * n + j5) / 16, n / 4));
  EXPECT_FALSE(natEqual((4 * n + j5) % 16, 4 * (n % 4) + j5));
  EXPECT_FALSE(natEqual((4 * n + u) / 16, n / 4));
  EXPECT_FALSE(natEqual((4 * n + 4) / 16, n / 4));
}

// An element of a block of g that a loop walks in steps of g:
// x = g*y + r, 0 <= r < g, g divides d's coefficient.
TEST_F(NatTest, DivisionAndModuloInsideAStride) {
  EXPECT_NAT_EQ((32 * n + 1) / 1024, n / 32);
  EXPECT_NAT_EQ((32 * n + 31) / 1024, n / 32);
  EXPECT_NAT_EQ((32 * n + 1) % 1024, 32 * (n % 32) + 1);
  EXPECT_NAT_EQ((4 * n + 8 * m + i4) / 16, (n + 2 * m) / 4);
  EXPECT_NAT_EQ((4 * n + i4) % 16, 4 * (n % 4) + i4);
  EXPECT_NAT_EQ((4 * k * n + 3) / (4 * m), (k * n) / m);
  EXPECT_NAT_EQ((4 * k * n + 3) % (4 * m), 4 * ((k * n) % m) + 3);
  EXPECT_EQ(str((16 * n + 1) % 512), "16*(n%32) + 1");
}

// ---- modulo --------------------------------------------------------------------

TEST_F(NatTest, Modulo) {
  EXPECT_NAT_EQ((4 * n + 3) % 4, c(3));
  EXPECT_NAT_EQ((i * m + j) % m, j);
  EXPECT_NAT_EQ((4 * n + i4) % 4, i4);
  EXPECT_NAT_EQ((n % 4) % 4, n % 4);
  EXPECT_NAT_EQ((n % m) % m, n % m);
  EXPECT_NAT_EQ((n % 8) % 4, n % 4);
  EXPECT_NAT_EQ((n * m) % m, c(0));
  EXPECT_NAT_EQ(i % n, i);
  EXPECT_NAT_EQ(i4 % 4, i4);
  EXPECT_NAT_EQ((i4 + 4) % 4, i4);
  EXPECT_NAT_EQ((8 * n + 2 * m + 1) % 2, c(1));
  EXPECT_NAT_EQ((n + 8) % 4, n % 4);
  EXPECT_NAT_EQ((m * n - 1) % m, m - 1);
  EXPECT_NAT_EQ((4 * n - 3) % 4, c(1));
  EXPECT_NAT_EQ((2 * n) % 4, 2 * (n % 2)); // common factors cancel
  EXPECT_NAT_EQ((k * n) % (k * m), k * (n % m));
  EXPECT_NAT_EQ((k * j) % (k * m), k * j);
  EXPECT_FALSE(natEqual((i * m + u) % m, u));
  EXPECT_FALSE(natEqual((n % 4) % 8, n % 8));
  EXPECT_EQ(str((n + 1) % 4), "(n + 1)%4");
  EXPECT_EQ(str(n % m), "n%m");
}

// ---- recombination -------------------------------------------------------------

TEST_F(NatTest, Recombination) {
  EXPECT_NAT_EQ((i / m) * m + i % m, i);
  EXPECT_NAT_EQ((n / 4) * 4 + n % 4, n);
  Nat x = n + 2 * k;
  EXPECT_NAT_EQ(m * (x / m) + x % m + 5, x + 5);
  EXPECT_NAT_EQ(a * m * (x / m) + a * (x % m), a * x);
  // Three-level split/join: i = (i/(m*k))*m*k + ((i/m)%k)*m + i%m.
  EXPECT_NAT_EQ((n / m / k) * m * k + ((n / m) % k) * m + n % m, n);
  // The remainder written out.
  EXPECT_NAT_EQ(n - m * (n / m), n % m);
  EXPECT_NAT_EQ(x - 4 * (x / 4) + 1, x % 4 + 1);
  EXPECT_NAT_EQ(4 * ((2 * n + 2) / 4) + (2 * n + 2) % 4, 2 * n + 2);
  EXPECT_NAT_EQ(m * ((m * n - 1) / m) + (m * n - 1) % m, m * n - 1);
  EXPECT_NAT_EQ(k * ((n / m) * m + n % m), k * n);
  EXPECT_EQ(str((n / m) * m + 1), "m*(n/m) + 1");
}

// ---- min / max -----------------------------------------------------------------

TEST_F(NatTest, MinMax) {
  EXPECT_NAT_EQ(natMin(i, n), i);
  EXPECT_NAT_EQ(natMax(i, n), n);
  EXPECT_NAT_EQ(natMin(n, n + 1), n);
  EXPECT_NAT_EQ(natMax(n + 1, n), n + 1);
  EXPECT_NAT_EQ(natMin(n, n), n);
  EXPECT_NAT_EQ(natMin(n, m), natMin(m, n));
  EXPECT_NAT_EQ(natMax(n, m), natMax(m, n));
  EXPECT_NAT_EQ(natMax(c(0), n), n);
  EXPECT_NAT_EQ(natMin(i4, c(7)), i4);
  EXPECT_FALSE(natMin(n, u)->isConst());
  EXPECT_EQ(str(natMin(a, b)), "min(a, b)");
  EXPECT_EQ(str(natMax(a, b + 1)), "max(a, b + 1)");
}

// ---- printing ------------------------------------------------------------------

TEST_F(NatTest, PrintsLikeAPerson) {
  Nat mm = natVar("m");
  Nat s = natVar("s");
  Nat ii = natVar("i", nullptr, mm);
  Nat lId = natVar("lId", nullptr, s);
  Nat wgId = natVar("wgId", nullptr, natVar("numWg"));
  EXPECT_EQ(str(ii + mm * lId + mm * s * wgId), "i + m*lId + m*s*wgId");
  EXPECT_EQ(str(wgId * s * mm + lId * mm + ii), "i + m*lId + m*s*wgId");
  EXPECT_EQ(str(n + 1), "n + 1");
  EXPECT_EQ(str(n - 1), "n - 1");
  EXPECT_EQ(str(n - 3), "n - 3");
  EXPECT_EQ(str(2 * n), "2*n");
  EXPECT_EQ(str(n * 2), "2*n");
  EXPECT_EQ(str(n - 2 * m), "n - 2*m");
  EXPECT_EQ(str((n + 2) * m), "m*n + 2*m");
  EXPECT_EQ(str(natPow(n + 1, c(2))), "n^2 + 2*n + 1");
  EXPECT_EQ(str((n + m) * (n - m)), "n^2 - m^2");
  EXPECT_EQ(str(c(0) - n), "-n");
  EXPECT_EQ(str(c(0) - 2 * n - 1), "-2*n - 1");
  EXPECT_EQ(str(c(-3)), "-3");
  EXPECT_EQ(str(c(4) - n), "4 - n");
  EXPECT_EQ(str(c(4) - n - 2 * m), "4 - n - 2*m");
  EXPECT_EQ(str(i + n / 2), "i + n/2");
  EXPECT_EQ(str(n / 2 + i), "i + n/2");
  EXPECT_EQ(str(2 * (n / 2)), "2*(n/2)");
  EXPECT_EQ(str(c(0) - n / 2), "-(n/2)");
  EXPECT_EQ(str(n - n / 2), "n - n/2");
  EXPECT_EQ(str((n / 2) * (m % 3)), "n/2*(m%3)");
  EXPECT_EQ(str((n + 1) / (m + 1)), "(n + 1)/(m + 1)");
  EXPECT_EQ(str((m * n) / 2), "m*n/2");
  EXPECT_EQ(str(natMeta("m")), "?m");
  EXPECT_EQ(str(natMeta("m") + 1), "?m + 1");
  EXPECT_EQ(str(b + a), "a + b");
  EXPECT_EQ(str(natPow(n, c(2)) * m), "m*n^2");
}

TEST_F(NatTest, PrintingIsDeterministic) {
  Nat e1 = (n + m * 3 + k * k) % (a + 1) + natMin(n, m);
  Nat e2 = natMin(m, n) + (k * k + 3 * m + n) % (c(1) + a);
  EXPECT_NAT_EQ(e1, e2);
  EXPECT_EQ(str(e1), str(e2));
}

// ---- order -----------------------------------------------------------------------

TEST_F(NatTest, CanonicalOrderIsStructural) {
  // Rebuilding the same expression gives an equal, identically ordered Nat.
  Nat e1 = 3 * n * m + (k / 2) - 7;
  Nat e2 = c(-7) + (k / 2) + m * (n * 3);
  EXPECT_EQ(natCompare(e1, e2), 0);
  EXPECT_LT(natCompare(n, m), 0); // n was created first
  EXPECT_GT(natCompare(m, n), 0);
  EXPECT_LT(natCompare(c(1), n), 0);
  EXPECT_NE(natCompare(n + 1, n + 2), 0);
  EXPECT_EQ(natCompare(n + 1, n + 2), -natCompare(n + 2, n + 1));
  // Two references to one variable are the same variable.
  EXPECT_NAT_EQ(natVarRef(n->varInfo()), n);
  EXPECT_NE(natVar("n")->var().id, n->var().id);
}

// ---- bounds and proofs -------------------------------------------------------------

TEST_F(NatTest, ConstantBounds) {
  EXPECT_EQ(natConstLowerBound(n), 0);
  EXPECT_EQ(natConstUpperBound(n), std::nullopt);
  EXPECT_EQ(natConstUpperBound(i4), 3);
  EXPECT_EQ(natConstUpperBound(i), std::nullopt); // n is unbounded
  EXPECT_EQ(natConstLowerBound(2 * i4 + 1), 1);
  EXPECT_EQ(natConstUpperBound(2 * i4 + 1), 7);
  EXPECT_EQ(natConstLowerBound(n - 1), -1);
  EXPECT_EQ(natConstUpperBound(c(0) - i4), 0);
  EXPECT_EQ(natConstLowerBound(c(0) - i4), -3);
  EXPECT_EQ(natConstUpperBound(n % 4), 3);
  EXPECT_EQ(natConstLowerBound(n % 4), 0);
  EXPECT_EQ(natConstUpperBound(i4 % 8), 3);
  Nat j8 = natVar("j8", nullptr, c(8));
  EXPECT_EQ(natConstUpperBound(j8 / 2), 3);
  EXPECT_EQ(natConstUpperBound(natPow(i4, c(2))), 9);
  EXPECT_EQ(natConstUpperBound(i4 * j8), 21);
  Nat nested = natVar("nested", nullptr, i4); // in [0, i4) so at most 2
  EXPECT_EQ(natConstUpperBound(nested), 2);
  Nat lowered = natVar("lowered", c(3), c(10));
  EXPECT_EQ(natConstLowerBound(lowered), 3);
  EXPECT_EQ(natConstUpperBound(natMin(i4, n)), 3);
  EXPECT_EQ(natConstLowerBound(natMax(lowered, n)), 3);
  EXPECT_EQ(natConstUpperBound(natMax(i4, n)), std::nullopt);
  EXPECT_EQ(natConstUpperBound(n / m), std::nullopt);
}

TEST_F(NatTest, Proofs) {
  EXPECT_TRUE(proveNonNegative(n));
  EXPECT_TRUE(proveNonNegative(n * m + 3));
  EXPECT_TRUE(proveNonNegative(n - i));
  EXPECT_FALSE(proveNonNegative(n - 1));
  EXPECT_FALSE(proveNonNegative(i - n));
  EXPECT_TRUE(proveLess(i, n));
  EXPECT_TRUE(proveLess(j, m));
  EXPECT_TRUE(proveLessEqual(i + 1, n));
  EXPECT_FALSE(proveLess(i + 1, n));
  EXPECT_FALSE(proveLess(n, i));
  EXPECT_FALSE(proveLess(u, m)); // unbounded
  EXPECT_FALSE(proveLess(i, m)); // bounded by a different size
  EXPECT_TRUE(proveLess(m * i + j, m * n));
  EXPECT_FALSE(proveLess(m * i + j + 1, m * n));
  EXPECT_TRUE(proveLessEqual(m * i + j + 1, m * n));
  EXPECT_TRUE(proveLess(n % m, m));
  EXPECT_FALSE(proveLess(n % m, m - 1));
  EXPECT_TRUE(proveLessEqual(natMin(n, m), n));
  EXPECT_TRUE(proveLessEqual(n, natMax(n, m)));
  EXPECT_TRUE(proveLess(i4, c(4)));
  EXPECT_FALSE(proveLess(i4, c(3)));
  EXPECT_TRUE(proveLessEqual(n, n));
  EXPECT_FALSE(proveLess(n, n));
  // A flattened 3D index stays below the product of the sizes.
  Nat i3 = natVar("i3", nullptr, k);
  Nat flat = (i * m + j) * k + i3;
  EXPECT_TRUE(proveLess(flat, n * m * k));
  EXPECT_NAT_EQ(natMin(flat, n * m * k), flat);
  EXPECT_FALSE(proveLess(flat + 1, n * m * k));
  EXPECT_FALSE(proveLess(flat, n * m));
  Nat lo = natVar("lo", m, nullptr); // lo >= m
  EXPECT_TRUE(proveLessEqual(m, lo));
  EXPECT_FALSE(proveLess(m, lo));
}

// d*(e/d) is e - e%d for a constant d > 0, so a size rounded up to a multiple
// of d is provably at least the size (padTile's padding is non-negative).
TEST_F(NatTest, ProofsThroughRoundedUpSizes) {
  EXPECT_TRUE(proveNonNegative(32 * ((n + 31) / 32) - n));
  EXPECT_TRUE(proveLessEqual(n, 32 * ((n + 31) / 32)));
  EXPECT_TRUE(proveNonNegative(4 * ((n + 3) / 4) - n));
  EXPECT_TRUE(proveNonNegative(3 * ((m + 2) / 3) - m));
  EXPECT_TRUE(proveNonNegative(64 * ((n + 31) / 32) - 2 * n)); // the coefficient a multiple of d
  // ... and at most d - 1 above it.
  EXPECT_TRUE(proveLessEqual(32 * ((n + 31) / 32) - n, c(31)));
  EXPECT_FALSE(proveLessEqual(32 * ((n + 31) / 32) - n, c(30)));
  // Rounded down is not at least the size (false for n = 1).
  EXPECT_FALSE(proveNonNegative(32 * (n / 32) - n));
  EXPECT_FALSE(proveLessEqual(n, 32 * (n / 32)));
  // Rounded up by too little (false for n = 2).
  EXPECT_FALSE(proveNonNegative(32 * ((n + 30) / 32) - n));
  // d does not divide the coefficient: 16*(n/32) is not n - n%32.
  EXPECT_FALSE(proveNonNegative(16 * ((n + 31) / 32) - n));
}

// n = 0 or n >= 1: an empty array may be padded by nothing, so padClamp's
// precondition n >= min(1, l + r) holds for the padding to a multiple.
TEST_F(NatTest, ProofsByCasesOnAnEmptySize) {
  EXPECT_TRUE(proveLessEqual(natMin(c(1), 16 * ((n + 15) / 16) - n), n));
  EXPECT_TRUE(proveNonNegative(n - natMin(c(1), 16 * ((n + 15) / 16) - n)));
  EXPECT_TRUE(proveLessEqual(natMin(c(1), 3 * ((m + 2) / 3) - m), m));
  EXPECT_TRUE(proveLessEqual(natMin(c(1), n), n));
  // False for n = 0 (min(1, 5) is 1).
  EXPECT_FALSE(proveNonNegative(n - natMin(c(1), c(5))));
  EXPECT_FALSE(proveLessEqual(natMin(c(1), n + 1), n));
  // False for n = 0, m = 1.
  EXPECT_FALSE(proveLessEqual(natMin(c(1), m), n));
  // False for n = 0: the padding plus one is 1.
  EXPECT_FALSE(proveLessEqual(natMin(c(1), 16 * ((n + 15) / 16) - n + 1), n));
  // False for n = 1: the padding is 15.
  EXPECT_FALSE(proveLessEqual(natMin(c(2), 16 * ((n + 15) / 16) - n), n));
  // False for i = 0.
  EXPECT_FALSE(proveLessEqual(natMin(c(1), i + 1), i));
}

// ---- traversals and evaluation --------------------------------------------------------

TEST_F(NatTest, Substitution) {
  EXPECT_NAT_EQ(natSubstitute(n + m, {{id(n), 2 * m}}), 3 * m);
  EXPECT_NAT_EQ(natSubstitute((u * m + k) / m, {{id(k), c(0)}}), u);
  EXPECT_NAT_EQ(natSubstitute(n * n, {{id(n), c(5)}}), c(25));
  EXPECT_NAT_EQ(natSubstitute(n / m, {{id(m), c(1)}}), n);
  EXPECT_NAT_EQ(natSubstitute(n + 1, {}), n + 1);
  Nat mapped = natMapVars(n + m * k,
                          [&](const NatVarInfo& v) -> Nat { return v.id == id(m) ? n : nullptr; });
  EXPECT_NAT_EQ(mapped, n + n * k);
  int count = 0;
  natForEachVar(n * m + n, [&](const NatVarInfo&) { ++count; });
  EXPECT_EQ(count, 3);
  EXPECT_TRUE(natContainsVar(n / (m + 1), id(m)));
  EXPECT_FALSE(natContainsVar(n / (m + 1), id(k)));
  EXPECT_FALSE(natHasMeta(n + m));
  EXPECT_TRUE(natHasMeta(n + natMeta("x")));
}

TEST_F(NatTest, Evaluation) {
  EXPECT_EQ(evalWith((n + 3) / 2, {{id(n), 5}}), 4);
  EXPECT_EQ(evalWith((n - 7) / 2, {{id(n), 0}}), -4);
  EXPECT_EQ(evalWith((n - 7) % 2, {{id(n), 0}}), 1);
  EXPECT_EQ(evalWith(natPow(n, m), {{id(n), 3}, {id(m), 4}}), 81);
  EXPECT_EQ(evalWith(natMin(n, m) + natMax(n, m), {{id(n), 3}, {id(m), 9}}), 12);
  EXPECT_EQ(evalWith(n + m, {{id(n), 1}}), std::nullopt); // m unbound
  EXPECT_EQ(evalWith(n / m, {{id(n), 1}, {id(m), 0}}), std::nullopt);
  EXPECT_EQ(evalWith(n % m, {{id(n), 1}, {id(m), 0}}), std::nullopt);
  EXPECT_EQ(evalWith(n / (m - m), {{id(n), 1}}), std::nullopt);
  EXPECT_EQ(evalWith(c(5) / c(0), {}), std::nullopt);
  EXPECT_EQ(evalWith(natPow(n, c(-1)), {{id(n), 2}}), std::nullopt);
}

// ---- randomized property test ------------------------------------------------------------
//
// An independent expression tree and evaluator; the simplified Nat must
// evaluate to the same value wherever the reference is defined.

struct Expr {
  enum Op { Lit, Var, Add, Sub, Mul, Div, Mod, Pow, Min, Max } op = Lit;
  std::int64_t value = 0; // Lit: the constant; Var: variable index
  std::shared_ptr<Expr> lhs, rhs;
};
using ExprPtr = std::shared_ptr<Expr>;

std::optional<std::int64_t> refFloorDiv(std::int64_t x, std::int64_t y) {
  if (y == 0) {
    return std::nullopt;
  }
  std::int64_t q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) {
    --q;
  }
  return q;
}

std::optional<std::int64_t> refEval(const Expr& e, const std::vector<std::int64_t>& env) {
  if (e.op == Expr::Lit) {
    return e.value;
  }
  if (e.op == Expr::Var) {
    return env[static_cast<std::size_t>(e.value)];
  }
  auto x = refEval(*e.lhs, env);
  auto y = refEval(*e.rhs, env);
  if (!x || !y) {
    return std::nullopt;
  }
  std::int64_t r = 0;
  switch (e.op) {
  case Expr::Add:
    return __builtin_add_overflow(*x, *y, &r) ? std::nullopt : std::optional(r);
  case Expr::Sub:
    return __builtin_sub_overflow(*x, *y, &r) ? std::nullopt : std::optional(r);
  case Expr::Mul:
    return __builtin_mul_overflow(*x, *y, &r) ? std::nullopt : std::optional(r);
  case Expr::Div:
    return refFloorDiv(*x, *y);
  case Expr::Mod: {
    auto q = refFloorDiv(*x, *y);
    return q ? std::optional(*x - *q * *y) : std::nullopt;
  }
  case Expr::Min:
    return std::min(*x, *y);
  case Expr::Max:
    return std::max(*x, *y);
  case Expr::Pow: {
    std::int64_t p = 1;
    for (std::int64_t t = 0; t < *y; ++t) {
      if (__builtin_mul_overflow(p, *x, &p)) {
        return std::nullopt;
      }
    }
    return p;
  }
  default:
    return std::nullopt;
  }
}

class RandomExprs {
public:
  RandomExprs(unsigned seed, bool symbolicDivisors)
      : rng_(seed), symbolicDivisors_(symbolicDivisors) {}

  ExprPtr make(int depth) {
    if (depth == 0 || pick(4) == 0) {
      return leaf();
    }
    switch (pick(8)) {
    case 0:
      return node(Expr::Add, make(depth - 1), make(depth - 1));
    case 1:
      return node(Expr::Sub, make(depth - 1), make(depth - 1));
    case 2:
      return node(Expr::Mul, make(depth - 1), make(depth - 1));
    case 3:
      return node(Expr::Div, make(depth - 1), divisor());
    case 4:
      return node(Expr::Mod, make(depth - 1), divisor());
    case 5:
      return node(Expr::Pow, make(depth - 1), lit(pick(4)));
    case 6:
      return node(pick(2) ? Expr::Min : Expr::Max, make(depth - 1), make(depth - 1));
    default:
      return node(pick(2) ? Expr::Add : Expr::Mul, make(depth - 1), leaf());
    }
  }

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

private:
  static ExprPtr node(Expr::Op op, ExprPtr l, ExprPtr r) {
    auto e = std::make_shared<Expr>();
    e->op = op;
    e->lhs = std::move(l);
    e->rhs = std::move(r);
    return e;
  }
  static ExprPtr lit(std::int64_t v) {
    auto e = std::make_shared<Expr>();
    e->value = v;
    return e;
  }
  static ExprPtr var(int index) {
    auto e = std::make_shared<Expr>();
    e->op = Expr::Var;
    e->value = index;
    return e;
  }
  ExprPtr leaf() { return pick(2) ? lit(pick(7)) : var(pick(3)); }
  // Divisors are always positive: constants 1..5, or (second test) the
  // variable z >= 1 and x + 1, y + 1, z + y.
  ExprPtr divisor() {
    if (!symbolicDivisors_ || pick(2) == 0) {
      return lit(1 + pick(5));
    }
    switch (pick(4)) {
    case 0:
      return var(2);
    case 1:
      return node(Expr::Add, var(0), lit(1));
    case 2:
      return node(Expr::Add, var(1), lit(1));
    default:
      return node(Expr::Add, var(2), var(1));
    }
  }

  std::mt19937 rng_;
  bool symbolicDivisors_;
};

Nat toNat(const Expr& e, const std::vector<Nat>& vars) {
  switch (e.op) {
  case Expr::Lit:
    return natConst(e.value);
  case Expr::Var:
    return vars[static_cast<std::size_t>(e.value)];
  default:
    break;
  }
  Nat l = toNat(*e.lhs, vars);
  Nat r = toNat(*e.rhs, vars);
  switch (e.op) {
  case Expr::Add:
    return l + r;
  case Expr::Sub:
    return l - r;
  case Expr::Mul:
    return l * r;
  case Expr::Div:
    return l / r;
  case Expr::Mod:
    return l % r;
  case Expr::Min:
    return natMin(l, r);
  case Expr::Max:
    return natMax(l, r);
  default:
    return natPow(l, r);
  }
}

// The same expression with the operands of every commutative operation
// swapped.
ExprPtr mirror(const ExprPtr& e) {
  if (e->op == Expr::Lit || e->op == Expr::Var) {
    return e;
  }
  auto m = std::make_shared<Expr>(*e);
  m->lhs = mirror(e->lhs);
  m->rhs = mirror(e->rhs);
  if (e->op == Expr::Add || e->op == Expr::Mul || e->op == Expr::Min || e->op == Expr::Max) {
    std::swap(m->lhs, m->rhs);
  }
  return m;
}

// Rebuilding a normal form from its own parts must give it back.
Nat rebuildAll(const Nat& n) {
  return natMapVars(
      n, [](const NatVarInfo& v) { return natVarRef(std::make_shared<const NatVarInfo>(v)); });
}

void checkRandomExpressions(unsigned seed, bool symbolicDivisors) {
  // x in [0, 4), z in [1, inf), y in [0, z).
  Nat z = natVar("z", natConst(1));
  std::vector<Nat> vars = {natVar("x", nullptr, natConst(4)), natVar("y", nullptr, z), z};
  RandomExprs gen(seed, symbolicDivisors);
  int compared = 0;
  int overflowed = 0;
  for (int iter = 0; iter < 2000; ++iter) {
    ExprPtr e = gen.make(4);
    Nat simplified = toNat(*e, vars);
    const std::string text = natToString(simplified);
    EXPECT_EQ(text, natToString(simplified));
    EXPECT_TRUE(natEqual(rebuildAll(simplified), simplified)) << "not a fixed point: " << text;
    Nat mirrored = toNat(*mirror(e), vars);
    EXPECT_TRUE(natEqual(mirrored, simplified))
        << text << "  vs mirrored  " << natToString(mirrored);
    for (int sample = 0; sample < 8; ++sample) {
      std::int64_t zv = 1 + gen.pick(12);
      std::vector<std::int64_t> env = {gen.pick(4), gen.pick(static_cast<int>(zv)), zv};
      auto expected = refEval(*e, env);
      if (!expected) {
        continue;
      }
      auto actual =
          natEvaluate(simplified, [&](const NatVarInfo& v) -> std::optional<std::int64_t> {
            for (std::size_t t = 0; t < vars.size(); ++t) {
              if (vars[t]->var().id == v.id) {
                return env[t];
              }
            }
            return std::nullopt;
          });
      // Divisors are positive and variables bound, so nullopt can only be an
      // int64 overflow of an intermediate value the simplified form computes
      // (x^27*y^27 for ((x*y)^3)^9): allowed, but must stay rare.
      if (!actual) {
        ++overflowed;
        continue;
      }
      ++compared;
      ASSERT_EQ(actual, expected) << "simplified: " << text << "  x=" << env[0] << " y=" << env[1]
                                  << " z=" << env[2];
    }
  }
  EXPECT_GT(compared, 10000);
  EXPECT_LT(overflowed, compared / 100);
}

TEST(NatProperty, RandomExpressionsConstantDivisors) {
  checkRandomExpressions(12345, false);
}

TEST(NatProperty, RandomExpressionsSymbolicDivisors) {
  checkRandomExpressions(777, true);
}

} // namespace
