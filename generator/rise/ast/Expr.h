// The RISE AST (paper Fig. 2): a closed algebraic data type of immutable
// nodes shared through std::shared_ptr<const ExprNode>. Every node keeps the
// source location it came from and, after inference, its type.
//
//   Var        x                       a reference to a `fun` binder or a def
//   Lambda     fun(x[: T] => body)
//   App        f(arg)                  (also `arg |> f`, infix operators, pairs)
//   DepLambda  depFun(x: K => body)
//   DepApp     f(N) | f(DT) | f(A)     explicit or inferred type-level argument
//   Literal    42, 1.5f, true; an array literal [1.0f, 2.0f] (its elements
//              are literals themselves, scalar or arrays)
//   Primitive  map, reduce, add, ...
//   Foreign    a function declared with `foreign`
#pragma once

#include "rise/ast/Primitive.h"
#include "rise/types/Type.h"
#include "support/SourceLocation.h"

#include <memory>
#include <string>
#include <vector>

namespace risec::rise {

class ExprNode;
using Expr = std::shared_ptr<const ExprNode>;

enum class ExprKind { Var, Lambda, App, DepLambda, DepApp, Literal, Primitive, Foreign };

/// A `foreign NAME(a: f32, b: f32): f32 = "C body"` declaration.
struct ForeignDecl {
  std::string name;
  std::vector<std::pair<std::string, Type>> params;
  Type result;
  std::string body; ///< C statements; must `return` the result
  SourceLocation loc;
};

class ExprNode {
public:
  ExprKind kind() const { return kind_; }
  const SourceLocation& loc() const { return loc_; }
  /// The inferred type; null before inference.
  const Type& type() const { return type_; }

  // Var, Lambda (binder name)
  const std::string& name() const { return name_; }
  // Lambda: declared parameter type (may be null)
  const Type& paramType() const { return paramType_; }
  // Lambda, DepLambda
  const Expr& body() const { return a_; }
  // App, DepApp
  const Expr& fn() const { return a_; }
  const Expr& arg() const { return b_; }              // App
  const TypeArg& typeArg() const { return typeArg_; } // DepApp
  /// DepApp: true when the argument was inferred rather than written.
  bool implicitArg() const { return implicit_; }
  // DepLambda
  const DepBinder& binder() const { return binder_; }
  // Literal: a scalar's value; an array literal's elements (Literal nodes,
  // each with its own location), none for a scalar
  const ScalarValue& value() const { return value_; }
  const std::vector<Expr>& elements() const { return elements_; }
  bool isArrayLiteral() const { return kind_ == ExprKind::Literal && !elements_.empty(); }
  // Primitive
  Prim prim() const { return prim_; }
  // Foreign
  const std::shared_ptr<const ForeignDecl>& foreign() const { return foreign_; }

  /// A copy of this node with a different type (nodes are immutable).
  Expr withType(Type t) const;
  /// A copy of this node with a different source location.
  Expr withLoc(SourceLocation loc) const;
  /// A copy of this node with other sub-expressions, everything else kept:
  /// `a` is the body (Lambda, DepLambda) or the function (App, DepApp), `b`
  /// the argument (App). See rise/ast/Traverse.h.
  Expr withChildren(Expr a, Expr b) const;

  struct Fields; // construction helper, see Expr.cpp
  explicit ExprNode(Fields f);

private:
  Fields fields() const; ///< every field, for the copies above

  ExprKind kind_;
  SourceLocation loc_;
  Type type_;
  std::string name_;
  Type paramType_;
  Expr a_, b_;
  TypeArg typeArg_;
  bool implicit_ = false;
  DepBinder binder_;
  ScalarValue value_;
  std::vector<Expr> elements_;
  Prim prim_ = Prim::Map;
  std::shared_ptr<const ForeignDecl> foreign_;
};

// ---- construction -----------------------------------------------------------

Expr makeVar(std::string name, SourceLocation loc, Type type = nullptr);
Expr makeLambda(std::string param, Type paramType, Expr body, SourceLocation loc,
                Type type = nullptr);
Expr makeApp(Expr fn, Expr arg, SourceLocation loc, Type type = nullptr);
Expr makeDepLambda(DepBinder binder, Expr body, SourceLocation loc, Type type = nullptr);
Expr makeDepApp(Expr fn, TypeArg arg, bool implicit, SourceLocation loc, Type type = nullptr);
Expr makeLiteral(ScalarValue v, SourceLocation loc, Type type = nullptr);
/// `[e1, ..., ek]` (k >= 1): the elements are literals (scalar or arrays).
Expr makeArrayLiteral(std::vector<Expr> elements, SourceLocation loc, Type type = nullptr);
Expr makePrimitive(Prim p, SourceLocation loc, Type type = nullptr);
Expr makeForeign(std::shared_ptr<const ForeignDecl> decl, SourceLocation loc, Type type = nullptr);

// ---- comparison -------------------------------------------------------------

/// Equality up to renaming of bound variables (value and dependent binders);
/// ignores locations and types. This is the equality of rule tests and of the
/// printer round-trip.
bool alphaEquivalent(const Expr& a, const Expr& b);

// ---- programs ---------------------------------------------------------------

/// `def NAME [: TYPE] = EXPR`
struct Def {
  std::string name;
  Type annotation; ///< may be null
  Expr body;
  SourceLocation loc;
};

/// A parsed `.rise` file: its defs and foreign declarations in source order.
struct Program {
  std::vector<Def> defs;
  std::vector<std::shared_ptr<const ForeignDecl>> foreigns;
  /// Declarations in source order: index into defs (>= 0) or ~index into foreigns.
  std::vector<int> order;

  const Def* findDef(const std::string& name) const;
  std::shared_ptr<const ForeignDecl> findForeign(const std::string& name) const;
};

} // namespace risec::rise
