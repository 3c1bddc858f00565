// RISE types (paper Fig. 3): data types (scalars, arrays, pairs, vectors,
// indices), function types and dependent function types over the kinds Nat,
// Data and AddrSpace. Types are immutable and shared.
//
// During inference types may contain unknowns: Nat meta variables (see Nat.h),
// data/type meta variables (TypeVarInfo::meta) and address-space meta
// variables. After inference every type in the program is free of metas.
#pragma once

#include "rise/nat/Nat.h"
#include "rise/types/Scalar.h"

#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace risec::rise {

enum class Kind { Nat, Data, AddrSpace };
std::string_view kindName(Kind k); ///< "Nat", "Data", "AddrSpace"

// ---- address spaces ---------------------------------------------------------

struct AddrVarInfo {
  std::uint64_t id;
  std::string name;
  bool meta = false;
};

/// Global | Local | Private, or a variable bound by `depFun(a: AddrSpace => ...)`.
struct AddrSpace {
  enum class Tag { Global, Local, Private, Var } tag = Tag::Private;
  std::shared_ptr<const AddrVarInfo> var; ///< for Tag::Var

  static AddrSpace global() { return {Tag::Global, nullptr}; }
  static AddrSpace local() { return {Tag::Local, nullptr}; }
  static AddrSpace privateSpace() { return {Tag::Private, nullptr}; }
  static AddrSpace fresh(const std::string& name, bool meta);

  bool operator==(const AddrSpace& o) const;
  std::string str() const;
};
std::optional<AddrSpace> addrSpaceFromName(std::string_view name);

// ---- types ------------------------------------------------------------------

class TypeNode;
using Type = std::shared_ptr<const TypeNode>;

/// What a type variable may stand for. Primitives constrain their type
/// parameters with these sorts (e.g. `add` works on Numeric values only).
enum class TypeSort {
  Any,     ///< any type, including functions (lambda parameters)
  Data,    ///< any data type
  Scalar,  ///< a scalar (including bool and natType)
  Numeric, ///< a non-bool scalar or a vector of them
  Float,   ///< f32, f64, or a vector of them
};
std::string_view sortName(TypeSort s);

struct TypeVarInfo {
  std::uint64_t id;
  std::string name;
  bool meta = false;
  TypeSort sort = TypeSort::Data;
};

enum class TypeKind {
  Scalar, ///< f32, i32, bool, natType, ...
  Array,  ///< n.dt
  Pair,   ///< (dt, dt)
  Vec,    ///< vec[scalar, n]
  Index,  ///< idx[n]
  Var,    ///< a type variable (bound by depFun over Data, or a meta)
  Fun,    ///< t -> t
  DepFun, ///< (x: K) -> t, or {x: K} -> t when implicit
};

/// The argument of a dependent function: a Nat, a data type or an address space.
using TypeArg = std::variant<Nat, Type, AddrSpace>;
Kind kindOf(const TypeArg& a);
std::string typeArgToString(const TypeArg& a);

/// The variable bound by a dependent function type or a depFun expression.
struct DepBinder {
  Kind kind = Kind::Nat;
  std::shared_ptr<const NatVarInfo> nat;   ///< kind Nat
  std::shared_ptr<const TypeVarInfo> data; ///< kind Data
  std::shared_ptr<const AddrVarInfo> addr; ///< kind AddrSpace
  bool implicit = false;                   ///< `{n: Nat}` in primitive signatures

  const std::string& name() const;
  std::uint64_t id() const;
  /// The binder as an argument (a reference to the bound variable).
  TypeArg asArg() const;
  static DepBinder fresh(Kind k, const std::string& name, bool implicit = false);
};

/// `Nat`, `AddrSpace`, `Data`, or the refined data kind of a signature
/// binder (`Scalar`, `Numeric`, `Float`).
std::string binderKindName(const DepBinder& b);

class TypeNode {
public:
  TypeKind kind() const { return kind_; }
  bool isData() const; ///< Scalar, Array, Pair, Vec, Index, or a Var of a data sort

  ScalarKind scalar() const { return scalar_; }    // Scalar
  const Nat& size() const { return size_; }        // Array, Vec, Index
  const Type& elem() const { return a_; }          // Array, Vec
  const Type& first() const { return a_; }         // Pair
  const Type& second() const { return b_; }        // Pair
  const Type& param() const { return a_; }         // Fun
  const Type& result() const { return b_; }        // Fun, DepFun (body)
  const TypeVarInfo& var() const { return *var_; } // Var
  const std::shared_ptr<const TypeVarInfo>& varInfo() const { return var_; }
  const DepBinder& binder() const { return binder_; } // DepFun

  TypeNode(TypeKind k, ScalarKind s, Nat size, Type a, Type b,
           std::shared_ptr<const TypeVarInfo> var, DepBinder binder)
      : kind_(k), scalar_(s), size_(std::move(size)), a_(std::move(a)), b_(std::move(b)),
        var_(std::move(var)), binder_(std::move(binder)) {}

private:
  TypeKind kind_;
  ScalarKind scalar_ = ScalarKind::I32;
  Nat size_;
  Type a_, b_;
  std::shared_ptr<const TypeVarInfo> var_;
  DepBinder binder_;
};

// ---- construction -----------------------------------------------------------

Type scalarType(ScalarKind k);
Type arrayType(Nat n, Type elem);
Type pairType(Type a, Type b);
Type vecType(Type elem, Nat n);
Type indexType(Nat n);
Type typeVar(std::shared_ptr<const TypeVarInfo> info);
Type freshTypeVar(const std::string& name, TypeSort sort, bool meta);
Type funType(Type param, Type result);
Type depFunType(DepBinder binder, Type body);

// ---- queries ----------------------------------------------------------------

/// Structural equality up to renaming of bound dependent variables; Nats are
/// compared by their normal forms.
bool typeEqual(const Type& a, const Type& b);
bool typeHasMeta(const Type& t);

/// RISE syntax: `n.m.f32`, `(f32, i32)`, `vec[f32, 4]`, `idx[n]`,
/// `f32 -> f32`, `(n: Nat) -> n.f32 -> f32`, `{n: Nat} -> ...`.
std::string typeToString(const Type& t);

// ---- substitution -----------------------------------------------------------

/// A simultaneous substitution of Nat, data and address-space variables (by id).
struct TypeSubst {
  std::map<std::uint64_t, Nat> nats;
  std::map<std::uint64_t, Type> types;
  std::map<std::uint64_t, AddrSpace> addrs;

  bool empty() const { return nats.empty() && types.empty() && addrs.empty(); }
  void bind(const DepBinder& b, const TypeArg& value);
};

Type substitute(const Type& t, const TypeSubst& s);
Nat substitute(const Nat& n, const TypeSubst& s);
AddrSpace substitute(const AddrSpace& a, const TypeSubst& s);
TypeArg substitute(const TypeArg& a, const TypeSubst& s);

} // namespace risec::rise
