// Internals shared by the Nat implementation files: raw node construction,
// checked integer arithmetic, the polynomial view of normal forms, and the
// interval analysis used by the bound prover. Not part of the public API.
#pragma once

#include "rise/nat/Nat.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace risec::rise::detail {

// ---- nodes ------------------------------------------------------------------

/// Builds a node without simplifying it. Used for normal forms that the
/// simplifier has already established, and for "keep unfolded" fallbacks.
Nat makeNode(NatKind kind, std::vector<Nat> ops);
Nat natOne();
Nat natZero();

/// Replaces every subterm structurally equal to `target` by `replacement`,
/// re-simplifying on the way up.
Nat natReplace(const Nat& n, const Nat& target, const Nat& replacement);
/// True if `target` occurs as a subterm of `n`.
bool natContains(const Nat& n, const Nat& target);

// ---- checked integer arithmetic (nullopt on overflow) --------------------------

std::optional<std::int64_t> checkedAdd(std::int64_t a, std::int64_t b);
std::optional<std::int64_t> checkedMul(std::int64_t a, std::int64_t b);
/// a^e for e >= 0.
std::optional<std::int64_t> checkedPow(std::int64_t a, std::int64_t e);
/// Floor division / modulo (result has the sign of the divisor); nullopt on
/// division by zero or overflow (INT64_MIN / -1).
std::optional<std::int64_t> floorDiv(std::int64_t a, std::int64_t b);
std::optional<std::int64_t> floorMod(std::int64_t a, std::int64_t b);

// ---- polynomial view ----------------------------------------------------------
//
// A normal-form Nat is a sum of terms; a term is an integer coefficient times a
// monomial; a monomial is a list of factors base^exp with distinct bases. The
// bases are atoms (Var, Div, Mod, Min, Max, an unexpanded Sum, or a constant
// raised to a symbolic power). All arithmetic in the simplifier happens here.

struct NatFactor {
  Nat base;
  Nat exp; ///< natConst(1) for a plain factor
};

struct NatTerm {
  std::int64_t coeff = 0;
  std::vector<NatFactor> factors; ///< sorted by base (natCompare), distinct bases
};

/// Sorted by monomial, distinct monomials, no zero coefficients.
using NatPoly = std::vector<NatTerm>;

int compareMonomial(const std::vector<NatFactor>& a, const std::vector<NatFactor>& b);
/// nullopt if a coefficient overflows (only possible for unfolded nodes).
std::optional<NatPoly> toPoly(const Nat& n);
NatPoly polyConst(std::int64_t c);
NatPoly polyOfTerm(NatTerm t);
std::optional<NatPoly> polyAdd(const NatPoly& a, const NatPoly& b);
std::optional<NatPoly> polySub(const NatPoly& a, const NatPoly& b);
std::optional<NatPoly> polyMul(const NatPoly& a, const NatPoly& b);
std::optional<NatPoly> polyScale(const NatPoly& a, std::int64_t c);
/// Builds the normal-form node of a polynomial without recombination.
Nat polyToNat(const NatPoly& p);
Nat termToNat(const NatTerm& t);
/// Applies the sum-level rewrites (div/mod recombination), then builds the node.
Nat finishPoly(NatPoly p);

/// True if every term of `part` occurs in `whole` with the same coefficient.
bool polyContains(const NatPoly& whole, const NatPoly& part);
/// `t / d` if the term `t` is exactly divisible by the monomial term `d`
/// (coefficient divides, each factor of d occurs in t with at least its
/// exponent), else nullopt.
std::optional<NatTerm> divideTerm(const NatTerm& t, const NatTerm& d);

/// Whether the rewrite rules may treat `d` as a positive divisor: sizes are
/// > 0, so any symbolic divisor is, except a single term with a negative
/// coefficient (-n); constants are checked.
bool isAssumedPositiveDivisor(const Nat& d);

/// Div/mod recombination over a sum: d*(x/d) + x%d = x, x - d*(x/d) = x%d.
NatPoly recombineDivMod(NatPoly p);

// ---- interval analysis ---------------------------------------------------------

/// Inclusive bounds; nullopt means unbounded in that direction.
struct NatInterval {
  std::optional<std::int64_t> lo;
  std::optional<std::int64_t> hi;
};

NatInterval natInterval(const Nat& n);

/// Proves n >= k from variable ranges (see NatProve.cpp).
bool proveAtLeast(const Nat& n, std::int64_t k);

} // namespace risec::rise::detail
