// Type inference and elaboration (pipeline stage "infer").
//
// Input: a parsed Program. Output, per def: an elaborated, fully typed AST in
// which
//   - every identifier is resolved: lambda-bound Vars stay Vars, uses of
//     earlier defs are inlined (so each use is typed on its own), primitives
//     become Primitive nodes and foreign functions Foreign nodes;
//   - every dependent parameter of a primitive or of a depFun is an explicit
//     DepApp node, in signature order; those the user did not write are
//     marked implicitArg() and carry the inferred value;
//   - every node carries its type, free of inference unknowns.
// Size preconditions discovered while solving Nat equations (e.g. `n % 32 ==
// 0` for `split(32)` of an `n.f32`) are returned with the location that
// caused them.
#pragma once

#include "rise/ast/Expr.h"

#include <string>
#include <vector>

namespace risec::rise {

/// A condition on the size parameters that must hold at run time, e.g.
/// `n % 32 == 0` or `n >= 3`. Generated code checks each one.
struct Precondition {
  enum class Rel { Eq, Ge } rel = Rel::Eq;
  Nat lhs;
  Nat rhs;
  SourceLocation loc; ///< the primitive application that requires it
  std::string reason; ///< e.g. "split(32) needs the array length to be a multiple of 32"
  /// The condition is `v >= 1` for a size `v` and fails only where the def's
  /// result has no elements (v = 0 empties it): such a call has nothing to
  /// compute, so it is not refused. Generated code returns 0 at once, the
  /// interpreter returns the empty result, and the manifest does not list
  /// the condition. Set by inference (markEmptyResultConditions).
  bool onlyForNonEmptyResult = false;

  std::string str() const; ///< "n % 32 == 0"
};

struct TypedDef {
  std::string name;
  Expr expr; ///< elaborated and typed; earlier defs inlined
  Type type; ///< remaining unknowns generalised to implicit binders `{n: Nat}`
  std::vector<Precondition> preconditions;
};

/// The preconditions of `def` that a call must meet (those not
/// onlyForNonEmptyResult): what the manifest and the headers list.
std::vector<Precondition> refusingPreconditions(const std::vector<Precondition>& pre);

/// The number of scalars in a value of data type `t` (the lanes of a
/// vector; both sides of a pair); null for a type variable.
Nat scalarCount(const Type& t);

/// The entry's Nat size parameters, in depFun order (the leading
/// `depFun((n: Nat, ...) => ...)` of its expression).
std::vector<DepBinder> sizeBinders(const TypedDef& def);

/// Infers the type of one def (by name). Throws CompileError on a type error.
TypedDef inferDef(const Program& program, const std::string& name);

/// Infers every def in source order (each independently).
std::vector<TypedDef> inferProgram(const Program& program);

/// Infers a standalone expression (no defs in scope). Used by tests.
TypedDef inferExpr(const Expr& e);

} // namespace risec::rise
