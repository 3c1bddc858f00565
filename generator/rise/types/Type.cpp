#include "rise/types/Type.h"
#include "rise/types/TypeEquality.h"

#include "support/Diagnostic.h"

#include <atomic>

namespace risec::rise {

namespace {
std::atomic<std::uint64_t> nextTypeVarId{1};
} // namespace

std::string_view kindName(Kind k) {
  switch (k) {
  case Kind::Nat:
    return "Nat";
  case Kind::Data:
    return "Data";
  case Kind::AddrSpace:
    return "AddrSpace";
  }
  return "?";
}

std::string_view sortName(TypeSort s) {
  switch (s) {
  case TypeSort::Any:
    return "any type";
  case TypeSort::Data:
    return "a data type";
  case TypeSort::Scalar:
    return "a scalar type";
  case TypeSort::Numeric:
    return "a numeric type (a non-bool scalar or a vector)";
  case TypeSort::Float:
    return "a floating-point type (f32, f64 or a vector of them)";
  }
  return "?";
}

// ---- address spaces ---------------------------------------------------------

AddrSpace AddrSpace::fresh(const std::string& name, bool meta) {
  auto info = std::make_shared<AddrVarInfo>(AddrVarInfo{nextTypeVarId++, name, meta});
  return {Tag::Var, info};
}

bool AddrSpace::operator==(const AddrSpace& o) const {
  if (tag != o.tag)
    return false;
  return tag != Tag::Var || var->id == o.var->id;
}

std::string AddrSpace::str() const {
  switch (tag) {
  case Tag::Global:
    return "Global";
  case Tag::Local:
    return "Local";
  case Tag::Private:
    return "Private";
  case Tag::Var:
    return (var->meta ? "?" : "") + var->name;
  }
  return "?";
}

std::optional<AddrSpace> addrSpaceFromName(std::string_view name) {
  if (name == "Global")
    return AddrSpace::global();
  if (name == "Local")
    return AddrSpace::local();
  if (name == "Private")
    return AddrSpace::privateSpace();
  return std::nullopt;
}

// ---- binders ----------------------------------------------------------------

Kind kindOf(const TypeArg& a) {
  if (std::holds_alternative<Nat>(a))
    return Kind::Nat;
  if (std::holds_alternative<Type>(a))
    return Kind::Data;
  return Kind::AddrSpace;
}

std::string typeArgToString(const TypeArg& a) {
  if (auto n = std::get_if<Nat>(&a))
    return natToString(*n);
  if (auto t = std::get_if<Type>(&a))
    return typeToString(*t);
  return std::get<AddrSpace>(a).str();
}

const std::string& DepBinder::name() const {
  switch (kind) {
  case Kind::Nat:
    return nat->name;
  case Kind::Data:
    return data->name;
  case Kind::AddrSpace:
    return addr->name;
  }
  throw InternalError("bad binder kind");
}

std::uint64_t DepBinder::id() const {
  switch (kind) {
  case Kind::Nat:
    return nat->id;
  case Kind::Data:
    return data->id;
  case Kind::AddrSpace:
    return addr->id;
  }
  throw InternalError("bad binder kind");
}

TypeArg DepBinder::asArg() const {
  switch (kind) {
  case Kind::Nat:
    return natVarRef(nat);
  case Kind::Data:
    return typeVar(data);
  case Kind::AddrSpace:
    return AddrSpace{AddrSpace::Tag::Var, addr};
  }
  throw InternalError("bad binder kind");
}

DepBinder DepBinder::fresh(Kind k, const std::string& name, bool implicit) {
  DepBinder b;
  b.kind = k;
  b.implicit = implicit;
  switch (k) {
  case Kind::Nat:
    b.nat = natVar(name)->varInfo();
    break;
  case Kind::Data:
    b.data = freshTypeVar(name, TypeSort::Data, false)->varInfo();
    break;
  case Kind::AddrSpace:
    b.addr = AddrSpace::fresh(name, false).var;
    break;
  }
  return b;
}

void TypeSubst::bind(const DepBinder& b, const TypeArg& value) {
  switch (b.kind) {
  case Kind::Nat:
    nats[b.nat->id] = std::get<Nat>(value);
    break;
  case Kind::Data:
    types[b.data->id] = std::get<Type>(value);
    break;
  case Kind::AddrSpace:
    addrs[b.addr->id] = std::get<AddrSpace>(value);
    break;
  }
}

// ---- construction -----------------------------------------------------------

namespace {
Type make(TypeKind k, ScalarKind s = ScalarKind::I32, Nat size = nullptr, Type a = nullptr,
          Type b = nullptr, std::shared_ptr<const TypeVarInfo> var = nullptr,
          DepBinder binder = {}) {
  return std::make_shared<const TypeNode>(k, s, std::move(size), std::move(a), std::move(b),
                                          std::move(var), std::move(binder));
}
} // namespace

bool TypeNode::isData() const {
  switch (kind_) {
  case TypeKind::Fun:
  case TypeKind::DepFun:
    return false;
  case TypeKind::Var:
    return var_->sort != TypeSort::Any;
  default:
    return true;
  }
}

Type scalarType(ScalarKind k) {
  return make(TypeKind::Scalar, k);
}
Type arrayType(Nat n, Type elem) {
  return make(TypeKind::Array, ScalarKind::I32, std::move(n), std::move(elem));
}
Type pairType(Type a, Type b) {
  return make(TypeKind::Pair, ScalarKind::I32, nullptr, std::move(a), std::move(b));
}
Type vecType(Type elem, Nat n) {
  return make(TypeKind::Vec, ScalarKind::I32, std::move(n), std::move(elem));
}
Type indexType(Nat n) {
  return make(TypeKind::Index, ScalarKind::I32, std::move(n));
}
Type typeVar(std::shared_ptr<const TypeVarInfo> info) {
  return make(TypeKind::Var, ScalarKind::I32, nullptr, nullptr, nullptr, std::move(info));
}
Type freshTypeVar(const std::string& name, TypeSort sort, bool meta) {
  return typeVar(std::make_shared<TypeVarInfo>(TypeVarInfo{nextTypeVarId++, name, meta, sort}));
}
Type funType(Type param, Type result) {
  return make(TypeKind::Fun, ScalarKind::I32, nullptr, std::move(param), std::move(result));
}
Type depFunType(DepBinder binder, Type body) {
  return make(TypeKind::DepFun, ScalarKind::I32, nullptr, nullptr, std::move(body), nullptr,
              std::move(binder));
}

// ---- equality ---------------------------------------------------------------

namespace {

bool equalUnder(const Type& a, const Type& b, TypeSubst& rename, const SizesEqual& sizes) {
  if (a->kind() != b->kind())
    return false;
  switch (a->kind()) {
  case TypeKind::Scalar:
    return a->scalar() == b->scalar();
  case TypeKind::Array:
  case TypeKind::Vec:
    return sizes(substitute(a->size(), rename), b->size()) &&
           equalUnder(a->elem(), b->elem(), rename, sizes);
  case TypeKind::Index:
    return sizes(substitute(a->size(), rename), b->size());
  case TypeKind::Pair:
  case TypeKind::Fun:
    return equalUnder(a->first(), b->first(), rename, sizes) &&
           equalUnder(a->second(), b->second(), rename, sizes);
  case TypeKind::Var: {
    auto it = rename.types.find(a->var().id);
    std::uint64_t id = it != rename.types.end() ? it->second->var().id : a->var().id;
    return id == b->var().id;
  }
  case TypeKind::DepFun: {
    const DepBinder& ba = a->binder();
    const DepBinder& bb = b->binder();
    if (ba.kind != bb.kind || ba.implicit != bb.implicit)
      return false;
    rename.bind(ba, bb.asArg());
    return equalUnder(a->result(), b->result(), rename, sizes);
  }
  }
  return false;
}

} // namespace

bool typeEqualBy(const Type& a, const Type& b, const SizesEqual& sizes) {
  TypeSubst rename;
  return equalUnder(a, b, rename, sizes);
}

bool typeEqual(const Type& a, const Type& b) {
  return typeEqualBy(a, b, natEqual);
}

bool typeHasMeta(const Type& t) {
  switch (t->kind()) {
  case TypeKind::Scalar:
    return false;
  case TypeKind::Array:
  case TypeKind::Vec:
    return natHasMeta(t->size()) || typeHasMeta(t->elem());
  case TypeKind::Index:
    return natHasMeta(t->size());
  case TypeKind::Pair:
  case TypeKind::Fun:
    return typeHasMeta(t->first()) || typeHasMeta(t->second());
  case TypeKind::Var:
    return t->var().meta;
  case TypeKind::DepFun:
    return typeHasMeta(t->result());
  }
  return false;
}

// ---- printing ---------------------------------------------------------------

namespace {

/// Array sizes are printed bare when they are atoms (`n.f32`, `32.f32`) and
/// parenthesised otherwise (`(n/32).32.f32`).
std::string sizePrefix(const Nat& n) {
  std::string s = natToString(n);
  bool atom = (n->kind() == NatKind::Const && n->value() >= 0) || n->kind() == NatKind::Var;
  return atom ? s : "(" + s + ")";
}

} // namespace

std::string binderKindName(const DepBinder& b) {
  if (b.kind == Kind::Data) {
    switch (b.data->sort) {
    case TypeSort::Scalar:
      return "Scalar";
    case TypeSort::Numeric:
      return "Numeric";
    case TypeSort::Float:
      return "Float";
    default:
      break;
    }
  }
  return std::string(kindName(b.kind));
}

namespace {

std::string print(const Type& t, bool inFunParam) {
  switch (t->kind()) {
  case TypeKind::Scalar:
    return std::string(scalarName(t->scalar()));
  case TypeKind::Array:
    return sizePrefix(t->size()) + "." + print(t->elem(), false);
  case TypeKind::Pair:
    return "(" + print(t->first(), false) + ", " + print(t->second(), false) + ")";
  case TypeKind::Vec:
    return "vec[" + print(t->elem(), false) + ", " + natToString(t->size()) + "]";
  case TypeKind::Index:
    return "idx[" + natToString(t->size()) + "]";
  case TypeKind::Var:
    return (t->var().meta ? "?" : "") + t->var().name;
  case TypeKind::Fun: {
    std::string s = print(t->param(), true) + " -> " + print(t->result(), false);
    return inFunParam ? "(" + s + ")" : s;
  }
  case TypeKind::DepFun: {
    const DepBinder& b = t->binder();
    std::string open = b.implicit ? "{" : "(", close = b.implicit ? "}" : ")";
    std::string s =
        open + b.name() + ": " + binderKindName(b) + close + " -> " + print(t->result(), false);
    return inFunParam ? "(" + s + ")" : s;
  }
  }
  return "?";
}

} // namespace

std::string typeToString(const Type& t) {
  return t ? print(t, false) : "<untyped>";
}

// ---- substitution -----------------------------------------------------------

Nat substitute(const Nat& n, const TypeSubst& s) {
  if (s.nats.empty())
    return n;
  // Replacements may mention variables that are themselves substituted (meta
  // solutions refer to other metas): substitute until nothing changes.
  Nat cur = n;
  for (int round = 0; round < 64; ++round) {
    Nat next = natSubstitute(cur, s.nats);
    if (natEqual(next, cur))
      return next;
    cur = next;
  }
  throw InternalError("cyclic Nat substitution for " + natToString(n));
}

AddrSpace substitute(const AddrSpace& a, const TypeSubst& s) {
  AddrSpace cur = a;
  for (int round = 0; round < 64 && cur.tag == AddrSpace::Tag::Var; ++round) {
    auto it = s.addrs.find(cur.var->id);
    if (it == s.addrs.end())
      return cur;
    cur = it->second;
  }
  return cur;
}

Type substitute(const Type& t, const TypeSubst& s) {
  if (s.empty())
    return t;
  switch (t->kind()) {
  case TypeKind::Scalar:
    return t;
  case TypeKind::Array:
    return arrayType(substitute(t->size(), s), substitute(t->elem(), s));
  case TypeKind::Vec:
    return vecType(substitute(t->elem(), s), substitute(t->size(), s));
  case TypeKind::Index:
    return indexType(substitute(t->size(), s));
  case TypeKind::Pair:
    return pairType(substitute(t->first(), s), substitute(t->second(), s));
  case TypeKind::Fun:
    return funType(substitute(t->param(), s), substitute(t->result(), s));
  case TypeKind::Var: {
    auto it = s.types.find(t->var().id);
    if (it == s.types.end())
      return t;
    if (it->second->kind() == TypeKind::Var && it->second->var().id == t->var().id)
      return t;
    return substitute(it->second, s);
  }
  case TypeKind::DepFun:
    // Bound variables have unique ids, so no capture is possible.
    return depFunType(t->binder(), substitute(t->result(), s));
  }
  return t;
}

TypeArg substitute(const TypeArg& a, const TypeSubst& s) {
  if (auto n = std::get_if<Nat>(&a))
    return substitute(*n, s);
  if (auto t = std::get_if<Type>(&a))
    return substitute(*t, s);
  return substitute(std::get<AddrSpace>(a), s);
}

} // namespace risec::rise
