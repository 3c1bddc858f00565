#include "rise/infer/Elaborator.h"

#include "rise/ast/Spine.h"
#include "rise/ast/Substitute.h"
#include "rise/infer/Signatures.h"
#include "rise/print/Printer.h"
#include "support/Text.h"

#include <algorithm>

namespace risec::rise {

namespace {

int valueArgsInSpine(Expr e) {
  int n = 0;
  for (; e->kind() == ExprKind::App || e->kind() == ExprKind::DepApp; e = e->fn())
    n += e->kind() == ExprKind::App;
  return n;
}

std::optional<Prim> headPrim(const Expr& spine) {
  Expr h = spineHead(spine);
  if (h->kind() == ExprKind::Primitive)
    return h->prim();
  return std::nullopt;
}

std::string headName(const Expr& spine) {
  Expr h = spineHead(spine);
  switch (h->kind()) {
  case ExprKind::Primitive:
    return "`" + std::string(primName(h->prim())) + "`";
  case ExprKind::Var:
    return "`" + h->name() + "`";
  case ExprKind::Foreign:
    return "`" + h->foreign()->name + "`";
  default:
    return "this function";
  }
}

std::string ordinal(int n) {
  const char* suffix = "th";
  if (n % 100 < 11 || n % 100 > 13) {
    if (n % 10 == 1)
      suffix = "st";
    else if (n % 10 == 2)
      suffix = "nd";
    else if (n % 10 == 3)
      suffix = "rd";
  }
  return std::to_string(n) + suffix;
}

/// `a * xs |> f` as written: an application whose argument, an infix
/// operator's result, is written before the function (`|>`); `f` was meant
/// for `xs` alone.
bool pipedOperatorResult(const Expr& app) {
  const Expr& arg = app->arg();
  if (!arg->loc().known() || !app->loc().known() ||
      std::make_pair(arg->loc().line, arg->loc().column) >=
          std::make_pair(app->loc().line, app->loc().column))
    return false;
  if (arg->kind() != ExprKind::App || arg->fn()->kind() != ExprKind::App)
    return false;
  const Expr& op = arg->fn()->fn();
  return op->kind() == ExprKind::Primitive && primInfix(op->prim()).has_value();
}

/// An array literal with its type and its elements' types: `k.t` where every
/// element has type t (E0315 at the first element that differs from the
/// first one).
Expr typedArrayLiteral(const Expr& e) {
  std::vector<Expr> elements;
  for (const Expr& x : e->elements()) {
    elements.push_back(x->isArrayLiteral() ? typedArrayLiteral(x)
                                           : x->withType(scalarType(x->value().kind)));
    const Type& first = elements.front()->type();
    const Type& t = elements.back()->type();
    if (!typeEqual(first, t))
      throw CompileError("E0315", x->loc(),
                         "the elements of an array literal must have the same type: the " +
                             ordinal(static_cast<int>(elements.size())) + " is `" +
                             typeToString(t) + "`, the 1st is `" + typeToString(first) + "`");
  }
  Type t =
      arrayType(natConst(static_cast<std::int64_t>(elements.size())), elements.front()->type());
  return makeArrayLiteral(std::move(elements), e->loc(), std::move(t));
}

} // namespace

std::string describeArgument(const Expr& fnSpine, int valueIndex) {
  return "the " + ordinal(valueIndex) + " argument of " + headName(fnSpine);
}

// ---- entry --------------------------------------------------------------------

Expr Elaborator::elaborate(const Expr& e) {
  switch (e->kind()) {
  case ExprKind::Var:
    return elabVar(e);
  case ExprKind::Lambda:
    return elabLambda(e);
  case ExprKind::App:
    return elabApp(e);
  case ExprKind::DepLambda:
    return elabDepLambda(e);
  case ExprKind::DepApp:
    return elabDepApp(e);
  case ExprKind::Literal:
    return e->isArrayLiteral() ? typedArrayLiteral(e) : e->withType(scalarType(e->value().kind));
  case ExprKind::Primitive:
    return instantiatePrimitive(e->prim(), e->loc());
  case ExprKind::Foreign:
    return elabVar(makeVar(e->foreign()->name, e->loc()));
  }
  throw InternalError("unknown expression kind");
}

// ---- names ----------------------------------------------------------------------

namespace {
Type foreignType(const ForeignDecl& f) {
  Type t = f.result;
  for (auto it = f.params.rbegin(); it != f.params.rend(); ++it)
    t = funType(it->second, t);
  return t;
}
} // namespace

Expr Elaborator::elabVar(const Expr& e) {
  const std::string& name = e->name();
  for (auto it = values_.rbegin(); it != values_.rend(); ++it)
    if (it->name == name)
      return makeVar(name, e->loc(), it->type);
  if (const DepBinder* b = lookupDep(name))
    throw CompileError("E0202", e->loc(),
                       "`" + name + "` is a type-level " + std::string(kindName(b->kind)) +
                           " parameter, not a value; pass it as a type-level argument, e.g. "
                           "`split(" +
                           name + ")`" +
                           (b->kind == Kind::Nat
                                ? ", or take its value with `natValue(" + name + ")`"
                                : std::string()));
  if (program_) {
    for (std::size_t i = visibleDecls_; i-- > 0;) {
      int d = program_->order[i];
      if (d >= 0 && program_->defs[d].name == name)
        return inlineDef(program_->defs[d], i, e->loc());
      if (d < 0 && program_->foreigns[~d]->name == name) {
        const auto& f = program_->foreigns[~d];
        return makeForeign(f, e->loc(), foreignType(*f));
      }
    }
  }
  if (auto p = primFromName(name))
    return instantiatePrimitive(*p, e->loc());
  if (addrSpaceFromName(name))
    throw CompileError("E0202", e->loc(),
                       "`" + name +
                           "` is an address space, not a value; pass it to a "
                           "primitive that takes one, e.g. `oclToMem(" +
                           name + ")`");
  unknownName(e);
}

void Elaborator::unknownName(const Expr& e) const {
  const std::string& name = e->name();
  std::vector<std::string> candidates;
  for (const auto& v : values_)
    candidates.push_back(v.name);
  for (Prim p : allPrims())
    candidates.emplace_back(primName(p));
  if (program_) {
    for (std::size_t i = 0; i < visibleDecls_; ++i) {
      int d = program_->order[i];
      candidates.push_back(d >= 0 ? program_->defs[d].name : program_->foreigns[~d]->name);
    }
  }
  std::string best;
  std::size_t bestDist = 3;
  for (const auto& c : candidates) {
    std::size_t dist = editDistance(name, c);
    if (dist < bestDist || (dist == bestDist && !best.empty() && c < best)) {
      bestDist = dist;
      best = c;
    }
  }
  std::string msg = "unknown identifier `" + name + "`";
  bool later = false;
  if (program_) {
    for (std::size_t i = visibleDecls_; i < program_->order.size(); ++i) {
      int d = program_->order[i];
      later |= (d >= 0 ? program_->defs[d].name : program_->foreigns[~d]->name) == name;
    }
  }
  if (later)
    msg += "; it is declared later in the file, and a def can only use earlier declarations";
  else if (!best.empty() && bestDist <= std::max<std::size_t>(1, name.size() / 3))
    msg += "; did you mean `" + best + "`?";
  throw CompileError("E0201", e->loc(), msg);
}

const DepBinder* Elaborator::lookupDep(const std::string& name) const {
  for (auto it = values_.rbegin(); it != values_.rend(); ++it)
    if (it->name == name)
      return nullptr; // shadowed by a value binder
  for (auto it = deps_.rbegin(); it != deps_.rend(); ++it)
    if (it->name() == name)
      return &*it;
  return nullptr;
}

Expr Elaborator::inlineDef(const Def& def, std::size_t index, const SourceLocation& useLoc) {
  (void)useLoc;
  Elaborator inner(program_, index, u_);
  Expr body = inner.elaborate(def.body);
  if (def.annotation)
    u_.unify(def.annotation, body->type(),
             {def.body->loc(), "the definition of `" + def.name + "`"});
  inlinedNames_[body.get()] = def.name;
  return body;
}

// ---- primitives and dependent application ------------------------------------------

Expr Elaborator::instantiatePrimitive(Prim p, const SourceLocation& loc) {
  return instantiateImplicits(makePrimitive(p, loc, signature(p)));
}

Expr Elaborator::instantiateImplicits(Expr fn) {
  for (;;) {
    Type t = u_.resolve(fn->type());
    if (t->kind() != TypeKind::DepFun || !t->binder().implicit)
      return fn;
    const DepBinder& b = t->binder();
    TypeArg meta;
    switch (b.kind) {
    case Kind::Nat:
      meta = natMeta(b.name());
      break;
    case Kind::Data:
      meta = freshTypeVar(b.name(), b.data->sort, true);
      break;
    case Kind::AddrSpace:
      meta = AddrSpace::fresh(b.name(), true);
      break;
    }
    if (headPrim(fn) == Prim::PadClamp && b.kind == Kind::Nat) {
      // padClamp(l, r) repeats the border elements: it needs one unless it
      // pads nothing (a padding to a multiple of a tile size is 0 for an
      // empty array): n >= min(1, l + r).
      Nat padding = natConst(1);
      Spine s = collectSpine(fn, false);
      if (s.depArgs.size() == 2 && std::holds_alternative<Nat>(s.depArgs[0]) &&
          std::holds_alternative<Nat>(s.depArgs[1]))
        padding = natMin(padding, std::get<Nat>(s.depArgs[0]) + std::get<Nat>(s.depArgs[1]));
      u_.require({Precondition::Rel::Ge, std::get<Nat>(meta), padding, fn->loc(),
                  "padClamp needs a non-empty input array"});
    }
    fn = applyDep(fn, meta, true, fn->loc());
  }
}

Expr Elaborator::applyDep(Expr fn, const TypeArg& arg, bool implicit, const SourceLocation& loc) {
  Type t = u_.resolve(fn->type());
  const DepBinder& b = t->binder();
  if (b.kind == Kind::Data && !implicit)
    u_.requireSort(std::get<Type>(arg), b.data->sort,
                   {loc, "the type argument of " + headName(fn)});
  TypeSubst s;
  s.bind(b, arg);
  if (fn->kind() == ExprKind::DepLambda) {
    // Beta-reduce a depFun (typically an inlined def) applied to its
    // argument, so that its body and the size preconditions found in it speak
    // about the argument: `chunks(12, 5)` must check 12 % 5 == 0.
    auto named = inlinedNames_.find(fn.get());
    std::string callee = named != inlinedNames_.end() ? "`" + named->second + "`" : headName(fn);
    u_.instantiateRigid(
        s, {loc, "the size argument " + b.name() + " = " + typeArgToString(arg) + " of " + callee});
    Expr body = substituteInExpr(fn->body(), s);
    if (named != inlinedNames_.end())
      inlinedNames_[body.get()] = named->second;
    return body;
  }
  // A depFun reached through value arguments, `(fun(w => depFun(n => e)))(x)`
  // applied to a size (an inlined def whose sizes follow a value parameter,
  // `conv(1.0f, h, w, x)`): the size is applied under the lambda, which does
  // not depend on it, so that the depFun is beta-reduced as above and its
  // preconditions speak about the argument rather than its own binder.
  if (fn->kind() == ExprKind::App)
    if (Expr pushed = applyDepUnder(fn, 0, arg, implicit, loc))
      return pushed;
  return makeDepApp(fn, arg, implicit, loc, substitute(t->result(), s));
}

Expr Elaborator::applyDepUnder(const Expr& fn, std::size_t pending, const TypeArg& arg,
                               bool implicit, const SourceLocation& loc) {
  switch (fn->kind()) {
  case ExprKind::DepLambda:
    return pending == 0 ? applyDep(fn, arg, implicit, loc) : nullptr;
  case ExprKind::App: {
    Expr inner = applyDepUnder(fn->fn(), pending + 1, arg, implicit, loc);
    if (!inner)
      return nullptr;
    return makeApp(inner, fn->arg(), fn->loc(), u_.resolve(inner->type())->second());
  }
  case ExprKind::Lambda: {
    if (pending == 0)
      return nullptr;
    Expr inner = applyDepUnder(fn->body(), pending - 1, arg, implicit, loc);
    if (!inner)
      return nullptr;
    Type param = u_.resolve(fn->type())->first();
    return makeLambda(fn->name(), fn->paramType(), inner, fn->loc(), funType(param, inner->type()));
  }
  default:
    return nullptr;
  }
}

void Elaborator::checkExplicitArg(Prim p, int position, const TypeArg& arg,
                                  const SourceLocation& loc) {
  (void)position;
  if (kindOf(arg) != Kind::Nat)
    return;
  Nat n = std::get<Nat>(arg);
  std::string name(primName(p));
  if (primInfo(p).traits.positiveSizes) {
    if (n->isConst(0))
      throw CompileError("E0313", loc, "`" + name + "` needs sizes of at least 1, but got 0");
    u_.require({Precondition::Rel::Ge, n, natConst(1), loc,
                "`" + name + "` needs its size argument " + natToString(n) + " to be at least 1"});
  }
  if (isOpenClMap(p) && !(n->isConst() && n->value() >= 0 && n->value() <= 2))
    throw CompileError("E0312", loc,
                       "`" + name + "` takes an OpenCL dimension 0, 1 or 2, but got " +
                           natToString(n));
}

std::optional<Nat> Elaborator::asNat(const Expr& arg) const {
  switch (arg->kind()) {
  case ExprKind::Literal: {
    const ScalarValue& v = arg->value();
    if (arg->isArrayLiteral())
      return std::nullopt;
    if (isUnsignedInt(v.kind))
      return natConst(static_cast<std::int64_t>(v.u));
    if (isSignedInt(v.kind) && v.i >= 0)
      return natConst(v.i);
    return std::nullopt;
  }
  case ExprKind::Var: {
    const DepBinder* b = lookupDep(arg->name());
    if (b && b->kind == Kind::Nat)
      return natVarRef(b->nat);
    return std::nullopt;
  }
  case ExprKind::App: {
    if (arg->fn()->kind() != ExprKind::App || arg->fn()->fn()->kind() != ExprKind::Primitive)
      return std::nullopt;
    auto lhs = asNat(arg->fn()->arg());
    auto rhs = asNat(arg->arg());
    if (!lhs || !rhs)
      return std::nullopt;
    switch (arg->fn()->fn()->prim()) {
    case Prim::Add:
      return natAdd(*lhs, *rhs);
    case Prim::Sub:
      return natSub(*lhs, *rhs);
    case Prim::Mul:
      return natMul(*lhs, *rhs);
    case Prim::Div:
      return natDiv(*lhs, *rhs);
    case Prim::Mod:
      return natMod(*lhs, *rhs);
    default:
      return std::nullopt;
    }
  }
  default:
    return std::nullopt;
  }
}

std::optional<TypeArg> Elaborator::asTypeArg(const Expr& arg, Kind k) const {
  switch (k) {
  case Kind::Nat:
    if (auto n = asNat(arg))
      return *n;
    return std::nullopt;
  case Kind::Data:
    if (arg->kind() == ExprKind::Var)
      if (const DepBinder* b = lookupDep(arg->name()); b && b->kind == Kind::Data)
        return typeVar(b->data);
    return std::nullopt;
  case Kind::AddrSpace:
    if (arg->kind() != ExprKind::Var)
      return std::nullopt;
    if (const DepBinder* b = lookupDep(arg->name()); b && b->kind == Kind::AddrSpace)
      return AddrSpace{AddrSpace::Tag::Var, b->addr};
    if (auto a = addrSpaceFromName(arg->name()))
      return *a;
    return std::nullopt;
  }
  return std::nullopt;
}

// ---- applications -------------------------------------------------------------------

Expr Elaborator::elabApp(const Expr& e) {
  Expr fn = instantiateImplicits(elaborate(e->fn()));
  for (;;) {
    Type t = u_.resolve(fn->type());
    if (t->kind() != TypeKind::DepFun)
      break;
    const DepBinder& b = t->binder();
    if (auto arg = asTypeArg(e->arg(), b.kind)) {
      if (auto p = headPrim(fn))
        checkExplicitArg(*p, 0, *arg, e->loc());
      return instantiateImplicits(applyDep(fn, *arg, false, e->loc()));
    }
    if (headPrim(fn))
      throw CompileError("E0306", e->arg()->loc(),
                         headName(fn) + " expects a type-level argument of kind " +
                             std::string(kindName(b.kind)) + " (`" + b.name() + "`) here, but `" +
                             printExpr(e->arg()) + "` is not one" +
                             (b.kind == Kind::Nat    ? "; write a size such as `32` or `n`"
                              : b.kind == Kind::Data ? "; write a data type such as `f32`"
                                                     : "; write `Global`, `Local` or `Private`"));
    // A user depFun applied to a value: infer its dependent argument.
    TypeArg meta = b.kind == Kind::Nat    ? TypeArg{natMeta(b.name())}
                   : b.kind == Kind::Data ? TypeArg{freshTypeVar(b.name(), TypeSort::Data, true)}
                                          : TypeArg{AddrSpace::fresh(b.name(), true)};
    fn = applyDep(fn, meta, true, fn->loc());
  }
  Type t = u_.resolve(fn->type());
  int index = valueArgsInSpine(fn) + 1;
  if (t->kind() == TypeKind::Fun) {
    Expr arg = elaborate(e->arg());
    try {
      // The parameter as written (its unknowns not substituted), so that a
      // mismatch can point at where they were bound.
      u_.unify(u_.boundType(fn->type())->param(), arg->type(),
               {arg->loc(), describeArgument(fn, index), spineHead(fn)->loc()});
    } catch (CompileError& err) {
      // the usual mistake: an array operand (`xs`) of a scalar operator
      if (pipedOperatorResult(e) && u_.resolve(t->param())->kind() == TypeKind::Array &&
          u_.resolve(arg->type())->kind() == TypeKind::Scalar)
        err.note(e->arg()->loc(),
                 "`|>` binds more loosely than arithmetic and comparison operators: `a * xs |> f` "
                 "means `(a * xs) |> f`; write `a * (xs |> f)` to apply `f` to `xs` alone");
      throw;
    }
    return makeApp(fn, arg, e->loc(), t->result());
  }
  if (t->kind() == TypeKind::Var && t->var().meta && t->var().sort == TypeSort::Any) {
    Expr arg = elaborate(e->arg());
    Type result = freshTypeVar("r", TypeSort::Any, true);
    u_.unify(t, funType(arg->type(), result), {e->loc(), "the application of " + headName(fn)});
    return makeApp(fn, arg, e->loc(), result);
  }
  throw CompileError("E0305", e->arg()->loc(),
                     "too many arguments: " + headName(fn) + " has type `" + typeToString(t) +
                         "` here, which is not a function");
}

Expr Elaborator::elabDepApp(const Expr& e) {
  Expr fn = instantiateImplicits(elaborate(e->fn()));
  Type t = u_.resolve(fn->type());
  Kind k = kindOf(e->typeArg());
  if (t->kind() != TypeKind::DepFun || t->binder().kind != k)
    throw CompileError("E0307", e->loc(),
                       headName(fn) + " does not take a " + std::string(kindName(k)) +
                           " argument here; its type is `" + typeToString(t) + "`");
  if (auto p = headPrim(fn))
    checkExplicitArg(*p, 0, e->typeArg(), e->loc());
  return instantiateImplicits(applyDep(fn, e->typeArg(), false, e->loc()));
}

// ---- binders ---------------------------------------------------------------------------

Expr Elaborator::elabLambda(const Expr& e) {
  Type param = e->paramType() ? e->paramType() : freshTypeVar(e->name(), TypeSort::Any, true);
  values_.push_back({e->name(), param});
  Expr body = elaborate(e->body());
  values_.pop_back();
  return makeLambda(e->name(), e->paramType(), body, e->loc(), funType(param, body->type()));
}

Expr Elaborator::elabDepLambda(const Expr& e) {
  deps_.push_back(e->binder());
  Expr body = elaborate(e->body());
  deps_.pop_back();
  return makeDepLambda(e->binder(), body, e->loc(), depFunType(e->binder(), body->type()));
}

} // namespace risec::rise
