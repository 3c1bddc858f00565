// Nat: the type-level natural-number expressions of RISE (array sizes, index
// expressions). Nats are immutable and always kept in a canonical normal form
// by the smart constructors below; two Nats are equal iff they are
// structurally equal, so `==` on the normal form decides equality.
//
// Normal form ("sums of products"):
//   - Sum:  a flat list of >= 2 terms, sorted, with at most one constant and
//           like terms combined (2*n + 3*n = 5*n). No zero terms.
//   - Prod: a flat list of >= 2 factors, sorted, with at most one constant
//           coefficient (first) and equal bases combined (n*n = n^2). A product
//           never contains a Sum (multiplication distributes over addition).
//   - Div, Mod, Pow, Min, Max: atoms that could not be simplified further.
// Arithmetic is over the integers with floor division and modulo; sizes are
// naturals, so subtraction may appear during solving (n - 3) and is removed by
// the simplifier whenever it can be.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace risec::rise {

class NatNode;
using Nat = std::shared_ptr<const NatNode>;

enum class NatKind { Const, Var, Sum, Prod, Div, Mod, Pow, Min, Max };

/// A Nat variable: a size parameter (`depFun(n: Nat => ...)`), a loop index in
/// generated code, or an inference unknown (`meta`). Identity is the `id`;
/// the name is for printing only. The range [lower, upper) is what the
/// simplifier may assume about the variable's value (upper null: unbounded).
struct NatVarInfo {
  std::uint64_t id;
  std::string name;
  bool meta = false;
  Nat lower; ///< inclusive lower bound; null means 0
  Nat upper; ///< exclusive upper bound; null means unbounded
};

class NatNode {
public:
  NatKind kind() const { return kind_; }

  // Const
  std::int64_t value() const { return value_; }
  // Var
  const NatVarInfo& var() const { return *var_; }
  const std::shared_ptr<const NatVarInfo>& varInfo() const { return var_; }
  // Sum, Prod: operands; Div, Mod, Pow, Min, Max: exactly two (lhs, rhs)
  const std::vector<Nat>& operands() const { return ops_; }
  const Nat& lhs() const { return ops_[0]; }
  const Nat& rhs() const { return ops_[1]; }

  bool isConst() const { return kind_ == NatKind::Const; }
  bool isConst(std::int64_t v) const { return kind_ == NatKind::Const && value_ == v; }

  // Construction is through the factory functions below only.
  NatNode(NatKind k, std::int64_t v, std::shared_ptr<const NatVarInfo> var, std::vector<Nat> ops)
      : kind_(k), value_(v), var_(std::move(var)), ops_(std::move(ops)) {}

private:
  NatKind kind_;
  std::int64_t value_ = 0;
  std::shared_ptr<const NatVarInfo> var_;
  std::vector<Nat> ops_;
};

// ---- construction (every result is simplified) -----------------------------

Nat natConst(std::int64_t v);
/// A fresh variable with a new unique id.
Nat natVar(const std::string& name, Nat lower = nullptr, Nat upper = nullptr);
/// A fresh inference unknown (meta variable).
Nat natMeta(const std::string& name);
/// A reference to an existing variable.
Nat natVarRef(std::shared_ptr<const NatVarInfo> info);

Nat natAdd(const Nat& a, const Nat& b);
Nat natSub(const Nat& a, const Nat& b);
Nat natMul(const Nat& a, const Nat& b);
Nat natDiv(const Nat& a, const Nat& b); ///< floor division
Nat natMod(const Nat& a, const Nat& b); ///< floor modulo
Nat natPow(const Nat& a, const Nat& b);
Nat natMin(const Nat& a, const Nat& b);
Nat natMax(const Nat& a, const Nat& b);

inline Nat operator+(const Nat& a, const Nat& b) {
  return natAdd(a, b);
}
inline Nat operator-(const Nat& a, const Nat& b) {
  return natSub(a, b);
}
inline Nat operator*(const Nat& a, const Nat& b) {
  return natMul(a, b);
}
inline Nat operator/(const Nat& a, const Nat& b) {
  return natDiv(a, b);
}
inline Nat operator%(const Nat& a, const Nat& b) {
  return natMod(a, b);
}
inline Nat operator+(const Nat& a, std::int64_t b) {
  return natAdd(a, natConst(b));
}
inline Nat operator-(const Nat& a, std::int64_t b) {
  return natSub(a, natConst(b));
}
inline Nat operator*(std::int64_t a, const Nat& b) {
  return natMul(natConst(a), b);
}
inline Nat operator*(const Nat& a, std::int64_t b) {
  return natMul(a, natConst(b));
}
inline Nat operator/(const Nat& a, std::int64_t b) {
  return natDiv(a, natConst(b));
}
inline Nat operator%(const Nat& a, std::int64_t b) {
  return natMod(a, natConst(b));
}

// ---- comparison -------------------------------------------------------------

/// Structural equality of normal forms (variables compared by id).
bool natEqual(const Nat& a, const Nat& b);
/// A total, deterministic order (never depends on pointers or ids' allocation
/// beyond variable ids): used to sort operands in the normal form.
int natCompare(const Nat& a, const Nat& b);

// ---- facts ------------------------------------------------------------------

/// Best known constant lower / upper bound (inclusive), from variable ranges.
std::optional<std::int64_t> natConstLowerBound(const Nat& n);
std::optional<std::int64_t> natConstUpperBound(const Nat& n);
/// True only if `n >= 0` is provable from the ranges of its variables.
bool proveNonNegative(const Nat& n);
/// True only if `a < b` is provable (symbolically, e.g. i < n for i in [0, n)).
bool proveLess(const Nat& a, const Nat& b);
bool proveLessEqual(const Nat& a, const Nat& b);

// ---- traversal --------------------------------------------------------------

/// Replaces variables (by id) and re-simplifies.
Nat natSubstitute(const Nat& n, const std::map<std::uint64_t, Nat>& subst);
/// Replaces variables through a callback (return null to keep the variable).
Nat natMapVars(const Nat& n, const std::function<Nat(const NatVarInfo&)>& f);
/// Calls `f` on every variable occurrence.
void natForEachVar(const Nat& n, const std::function<void(const NatVarInfo&)>& f);
bool natContainsVar(const Nat& n, std::uint64_t id);
bool natHasMeta(const Nat& n);
/// A min or max anywhere in `n` (a clamp, in an index).
bool natContainsMinOrMax(const Nat& n);

/// Evaluates with concrete values for the variables (by id). Returns nullopt if
/// a variable is unbound or a division/modulo by zero happens.
std::optional<std::int64_t>
natEvaluate(const Nat& n,
            const std::function<std::optional<std::int64_t>(const NatVarInfo&)>& lookup);

// ---- printing ---------------------------------------------------------------

/// RISE surface syntax with minimal parentheses, terms in a natural order
/// (`i + m*lId + m*s*wgId`, `n/32`, `(n + 2)*m`). Parses back to an equal Nat.
std::string natToString(const Nat& n);

} // namespace risec::rise
