#include "rise/ast/Expr.h"

#include "support/Diagnostic.h"

#include <map>

namespace risec::rise {

struct ExprNode::Fields {
  ExprKind kind = ExprKind::Var;
  SourceLocation loc;
  Type type;
  std::string name;
  Type paramType;
  Expr a, b;
  TypeArg typeArg = Nat{};
  bool implicit = false;
  DepBinder binder;
  ScalarValue value;
  std::vector<Expr> elements;
  Prim prim = Prim::Map;
  std::shared_ptr<const ForeignDecl> foreign;
};

ExprNode::ExprNode(Fields f)
    : kind_(f.kind), loc_(std::move(f.loc)), type_(std::move(f.type)), name_(std::move(f.name)),
      paramType_(std::move(f.paramType)), a_(std::move(f.a)), b_(std::move(f.b)),
      typeArg_(std::move(f.typeArg)), implicit_(f.implicit), binder_(std::move(f.binder)),
      value_(f.value), elements_(std::move(f.elements)), prim_(f.prim),
      foreign_(std::move(f.foreign)) {}

ExprNode::Fields ExprNode::fields() const {
  Fields f;
  f.kind = kind_;
  f.loc = loc_;
  f.type = type_;
  f.name = name_;
  f.paramType = paramType_;
  f.a = a_;
  f.b = b_;
  f.typeArg = typeArg_;
  f.implicit = implicit_;
  f.binder = binder_;
  f.value = value_;
  f.elements = elements_;
  f.prim = prim_;
  f.foreign = foreign_;
  return f;
}

Expr ExprNode::withType(Type t) const {
  Fields f = fields();
  f.type = std::move(t);
  return std::make_shared<const ExprNode>(std::move(f));
}

Expr ExprNode::withLoc(SourceLocation loc) const {
  Fields f = fields();
  f.loc = std::move(loc);
  return std::make_shared<const ExprNode>(std::move(f));
}

Expr ExprNode::withChildren(Expr a, Expr b) const {
  Fields f = fields();
  f.a = std::move(a);
  f.b = std::move(b);
  return std::make_shared<const ExprNode>(std::move(f));
}

namespace {
Expr build(ExprNode::Fields f) {
  return std::make_shared<const ExprNode>(std::move(f));
}

ExprNode::Fields start(ExprKind k, SourceLocation loc, Type type) {
  ExprNode::Fields f;
  f.kind = k;
  f.loc = std::move(loc);
  f.type = std::move(type);
  return f;
}
} // namespace

Expr makeVar(std::string name, SourceLocation loc, Type type) {
  ExprNode::Fields f = start(ExprKind::Var, std::move(loc), std::move(type));
  f.name = std::move(name);
  return build(std::move(f));
}

Expr makeLambda(std::string param, Type paramType, Expr body, SourceLocation loc, Type type) {
  ExprNode::Fields f = start(ExprKind::Lambda, std::move(loc), std::move(type));
  f.name = std::move(param);
  f.paramType = std::move(paramType);
  f.a = std::move(body);
  return build(std::move(f));
}

Expr makeApp(Expr fn, Expr arg, SourceLocation loc, Type type) {
  ExprNode::Fields f = start(ExprKind::App, std::move(loc), std::move(type));
  f.a = std::move(fn);
  f.b = std::move(arg);
  return build(std::move(f));
}

Expr makeDepLambda(DepBinder binder, Expr body, SourceLocation loc, Type type) {
  ExprNode::Fields f = start(ExprKind::DepLambda, std::move(loc), std::move(type));
  f.binder = std::move(binder);
  f.a = std::move(body);
  return build(std::move(f));
}

Expr makeDepApp(Expr fn, TypeArg arg, bool implicit, SourceLocation loc, Type type) {
  ExprNode::Fields f = start(ExprKind::DepApp, std::move(loc), std::move(type));
  f.a = std::move(fn);
  f.typeArg = std::move(arg);
  f.implicit = implicit;
  return build(std::move(f));
}

Expr makeLiteral(ScalarValue v, SourceLocation loc, Type type) {
  ExprNode::Fields f = start(ExprKind::Literal, std::move(loc), std::move(type));
  f.value = v;
  return build(std::move(f));
}

Expr makeArrayLiteral(std::vector<Expr> elements, SourceLocation loc, Type type) {
  ExprNode::Fields f = start(ExprKind::Literal, std::move(loc), std::move(type));
  f.elements = std::move(elements);
  return build(std::move(f));
}

Expr makePrimitive(Prim p, SourceLocation loc, Type type) {
  ExprNode::Fields f = start(ExprKind::Primitive, std::move(loc), std::move(type));
  f.prim = p;
  return build(std::move(f));
}

Expr makeForeign(std::shared_ptr<const ForeignDecl> decl, SourceLocation loc, Type type) {
  ExprNode::Fields f = start(ExprKind::Foreign, std::move(loc), std::move(type));
  f.foreign = std::move(decl);
  return build(std::move(f));
}

// ---- alpha equivalence --------------------------------------------------------

namespace {

/// Compares two terms under a pairing of their binders: value binders by
/// de Bruijn-style depth, dependent binders through a renaming substitution.
class AlphaComparer {
public:
  bool equal(const Expr& a, const Expr& b) {
    if (a->kind() != b->kind())
      return false;
    switch (a->kind()) {
    case ExprKind::Var:
      return sameVar(a->name(), b->name());
    case ExprKind::Lambda: {
      if (static_cast<bool>(a->paramType()) != static_cast<bool>(b->paramType()))
        return false;
      if (a->paramType() && !typeEqual(substitute(a->paramType(), rename_), b->paramType()))
        return false;
      left_.push_back(a->name());
      right_.push_back(b->name());
      bool r = equal(a->body(), b->body());
      left_.pop_back();
      right_.pop_back();
      return r;
    }
    case ExprKind::App:
      return equal(a->fn(), b->fn()) && equal(a->arg(), b->arg());
    case ExprKind::DepLambda:
      if (a->binder().kind != b->binder().kind)
        return false;
      rename_.bind(a->binder(), b->binder().asArg());
      return equal(a->body(), b->body());
    case ExprKind::DepApp:
      return equal(a->fn(), b->fn()) && sameArg(a->typeArg(), b->typeArg());
    case ExprKind::Literal:
      if (a->elements().size() != b->elements().size())
        return false;
      for (std::size_t i = 0; i < a->elements().size(); ++i)
        if (!equal(a->elements()[i], b->elements()[i]))
          return false;
      return a->value() == b->value();
    case ExprKind::Primitive:
      return a->prim() == b->prim();
    case ExprKind::Foreign:
      return a->foreign()->name == b->foreign()->name;
    }
    return false;
  }

private:
  bool sameVar(const std::string& x, const std::string& y) const {
    // Innermost binder of each name; both bound at the same depth, or both free
    // with the same name.
    int dx = depthOf(left_, x), dy = depthOf(right_, y);
    if (dx >= 0 || dy >= 0)
      return dx == dy;
    return x == y;
  }
  static int depthOf(const std::vector<std::string>& scope, const std::string& x) {
    for (int i = static_cast<int>(scope.size()) - 1; i >= 0; --i)
      if (scope[i] == x)
        return i;
    return -1;
  }
  bool sameArg(const TypeArg& a, const TypeArg& b) const {
    if (a.index() != b.index())
      return false;
    if (auto n = std::get_if<Nat>(&a))
      return natEqual(substitute(*n, rename_), std::get<Nat>(b));
    if (auto t = std::get_if<Type>(&a))
      return typeEqual(substitute(*t, rename_), std::get<Type>(b));
    return substitute(std::get<AddrSpace>(a), rename_) == std::get<AddrSpace>(b);
  }

  std::vector<std::string> left_, right_;
  TypeSubst rename_;
};

} // namespace

bool alphaEquivalent(const Expr& a, const Expr& b) {
  return AlphaComparer().equal(a, b);
}

// ---- programs -----------------------------------------------------------------

const Def* Program::findDef(const std::string& name) const {
  // The last definition of a name wins, like shadowing.
  for (auto it = defs.rbegin(); it != defs.rend(); ++it)
    if (it->name == name)
      return &*it;
  return nullptr;
}

std::shared_ptr<const ForeignDecl> Program::findForeign(const std::string& name) const {
  for (const auto& f : foreigns)
    if (f->name == name)
      return f;
  return nullptr;
}

} // namespace risec::rise
