// The constraint solver behind inference: first-order unification of RISE
// types with meta variables, extended with equations over Nats (the sizes in
// array types). A Nat equation is solved for an unknown that occurs linearly,
// e.g. `?m*32 = n` gives `?m = n/32` and records the precondition
// `n % 32 == 0`; equations that cannot be solved yet (two unknowns) are
// deferred until more is known.
#pragma once

#include "rise/infer/Infer.h"
#include "rise/types/Type.h"
#include "support/Diagnostic.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace risec::rise {

/// Where a constraint came from, for diagnostics: the location to point at
/// and a phrase such as "the 2nd argument of `zip`".
struct ConstraintSite {
  SourceLocation loc; ///< where a mismatch is reported (usually the argument)
  std::string what;
  SourceLocation origin = {}; ///< the primitive a size precondition is charged to
  const SourceLocation& preconditionLoc() const { return origin.known() ? origin : loc; }
};

class Unifier {
public:
  /// Unifies two types; throws CompileError (E03xx) on a mismatch.
  void unify(const Type& expected, const Type& found, const ConstraintSite& site);
  void unifyNat(const Nat& expected, const Nat& found, const ConstraintSite& site);
  void unifyAddr(const AddrSpace& expected, const AddrSpace& found, const ConstraintSite& site);

  /// Checks that `t` may stand for a variable of sort `sort`.
  void requireSort(const Type& t, TypeSort sort, const ConstraintSite& site);

  /// Records a run-time size condition (dropped if provably true, an error if
  /// provably false).
  void require(Precondition p);

  /// Replaces rigid variables everywhere the solver keeps them (solutions,
  /// deferred equations, preconditions): used when a depFun is applied.
  /// A precondition that becomes false is reported at `site`, the
  /// application that supplied the sizes.
  void instantiateRigid(const TypeSubst& s, const ConstraintSite& site);

  /// Retries deferred equations; with `force`, also solves equations with
  /// several unknowns by picking one. Throws if an equation stays unsolvable.
  void solveDeferred(bool force);

  Type resolve(const Type& t) const { return substitute(t, subst_); }
  Nat resolve(const Nat& n) const { return substitute(n, subst_); }
  AddrSpace resolve(const AddrSpace& a) const { return substitute(a, subst_); }
  TypeArg resolve(const TypeArg& a) const { return substitute(a, subst_); }
  /// `t` with the chain of unknowns at its top followed (not substituted
  /// inside): the shape of resolve(t), with its components as written, so
  /// that a mismatch in them can still tell where their unknowns were bound.
  Type boundType(const Type& t) const;

  /// The preconditions with all solutions applied, simplified and deduplicated.
  std::vector<Precondition> preconditions() const;

private:
  struct Deferred {
    Nat lhs, rhs;
    ConstraintSite site;
  };

  void unifyRec(const Type& a, const Type& b, const ConstraintSite& site, const Type& topA,
                const Type& topB);
  void bindTypeMeta(const Type& meta, const Type& t, const ConstraintSite& site);
  /// Tries to solve `lhs = rhs`; returns false if it must be deferred.
  bool trySolveNat(const Nat& lhs, const Nat& rhs, const ConstraintSite& site, bool force);
  void bindNatMeta(const NatVarInfo& meta, const Nat& solution);
  /// True if `d == 0` follows from the divisibility preconditions recorded so far.
  bool zeroUnderPreconditions(const Nat& d) const;
  /// mismatch() of two scalar types, with a hint on integer literals when
  /// one is i32 and the other a float.
  /// `fixedA`/`fixedB`: where an unknown on that side was bound to its
  /// scalar type (unknown when it was written in the program), so that the
  /// hint points at the literal that made it an i32.
  [[noreturn]] void scalarMismatch(ScalarKind a, ScalarKind b, const Type& topA, const Type& topB,
                                   const ConstraintSite& site, const SourceLocation& fixedA,
                                   const SourceLocation& fixedB);
  /// Where the chain of unknowns starting at `t` was bound to a type that is
  /// not an unknown; unknown if `t` is not an unknown.
  SourceLocation boundAt(const Type& t) const;
  /// The last unknown of the chain of bindings from `t`; null when `t` is
  /// not an unknown.
  Type lastUnknown(const Type& t) const;
  /// E0301: `expected a, found b` at the site, with `detail` in parentheses.
  CompileError mismatchError(const Type& a, const Type& b, const ConstraintSite& site,
                             const std::string& detail);
  [[noreturn]] void mismatch(const Type& a, const Type& b, const ConstraintSite& site,
                             const std::string& detail);

  TypeSubst subst_;
  /// For each type unknown bound to a known type: the site of that binding.
  std::map<std::uint64_t, SourceLocation> boundAt_;
  std::vector<Deferred> deferred_;
  std::vector<Precondition> preconditions_;
};

} // namespace risec::rise
