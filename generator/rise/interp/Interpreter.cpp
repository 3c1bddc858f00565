#include "rise/interp/Interpreter.h"

#include "rise/infer/Signatures.h"
#include "rise/interp/Foreign.h"
#include "rise/interp/Json.h"
#include "rise/interp/Primitives.h"
#include "rise/interp/RuntimeError.h"
#include "rise/interp/ValueIO.h"

#include <algorithm>
#include <functional>

namespace risec::rise::interp {

namespace {

// ---- function values ------------------------------------------------------------

/// The number of dependent and value parameters of a primitive, computed once
/// from the signatures (looking them up on every application is slow).
struct Arity {
  std::size_t deps = 0, values = 0;
};

const Arity& arityOf(Prim p) {
  static const std::vector<Arity> table = [] {
    std::vector<Arity> t;
    for (Prim q : allPrims())
      t.push_back({static_cast<std::size_t>(depArity(q)), static_cast<std::size_t>(valueArity(q))});
    return t;
  }();
  return table.at(static_cast<std::size_t>(p));
}

[[noreturn]] void notApplicable(const std::string& what, const char* to) {
  throw InternalError("interpreter: " + what + " applied to " + to);
}

/// fun(x => body) with its environment.
class Closure final : public Callable {
public:
  Closure(Expr lambda, Env env) : lambda_(std::move(lambda)), env_(std::move(env)) {}

  Value apply(const Value& arg) const override {
    return evalExpr(lambda_->body(), env_.bindValue(lambda_->name(), arg));
  }
  Value applyDep(const DepArg&) const override {
    notApplicable("fun(" + lambda_->name() + " => ...)", "a type-level argument");
  }

private:
  Expr lambda_;
  Env env_;
};

/// depFun(x: K => body) with its environment.
class DepClosure final : public Callable {
public:
  DepClosure(Expr depLambda, Env env) : depLambda_(std::move(depLambda)), env_(std::move(env)) {}

  Value apply(const Value&) const override {
    notApplicable("depFun(" + depLambda_->binder().name() + " => ...)", "a value");
  }

  Value applyDep(const DepArg& arg) const override {
    const DepBinder& b = depLambda_->binder();
    if (b.kind != arg.kind)
      notApplicable("depFun(" + b.name() + ": " + std::string(kindName(b.kind)) + " => ...)",
                    "an argument of another kind");
    switch (b.kind) {
    case Kind::Nat:
      return evalExpr(depLambda_->body(), env_.bindNat(b.id(), natValue(arg)));
    case Kind::Data:
      return evalExpr(depLambda_->body(), env_.bindType(b.id(), arg.type));
    case Kind::AddrSpace: // address spaces do not change values
      return evalExpr(depLambda_->body(), env_);
    }
    throw InternalError("bad binder kind");
  }

private:
  std::int64_t natValue(const DepArg& arg) const {
    std::string text = arg.natExpr ? natToString(arg.natExpr) : "?";
    if (!arg.nat)
      runtimeError(errc::kBadSizeArgument, arg.loc,
                   "cannot evaluate the size `" + text + "` passed to `" +
                       depLambda_->binder().name() + "`");
    if (*arg.nat < 0)
      runtimeError(errc::kBadSizeArgument, arg.loc,
                   "the size `" + text + "` passed to `" + depLambda_->binder().name() +
                       "` is negative (" + std::to_string(*arg.nat) + ")");
    return *arg.nat;
  }

  Expr depLambda_;
  Env env_;
};

/// A primitive collecting its arguments: first all dependent arguments, then
/// the value arguments; it runs when it has them all.
class PrimitiveFunction final : public Callable {
public:
  PrimitiveFunction(Prim p, SourceLocation loc)
      : depArity_(arityOf(p).deps), valueArity_(arityOf(p).values) {
    call_.prim = p;
    call_.loc = std::move(loc);
  }

  Value applyDep(const DepArg& arg) const override {
    if (call_.deps.size() >= depArity_)
      notApplicable("`" + std::string(primName(call_.prim)) + "`", "too many type-level arguments");
    auto next = std::make_shared<PrimitiveFunction>(*this);
    next->call_.deps.push_back(arg);
    if (next->call_.deps.size() == depArity_ && valueArity_ == 0) // natValue(n)
      return runPrimitive(next->call_);
    return Value::function(next);
  }

  Value apply(const Value& arg) const override {
    if (call_.deps.size() != depArity_)
      notApplicable("`" + std::string(primName(call_.prim)) + "` without all type-level arguments",
                    "a value");
    PrimitiveFunction next = *this;
    next.call_.args.push_back(arg);
    if (next.call_.args.size() == valueArity_)
      return runPrimitive(next.call_);
    return Value::function(std::make_shared<PrimitiveFunction>(std::move(next)));
  }

private:
  PrimCall call_;
  std::size_t depArity_, valueArity_;
};

/// A foreign function collecting its arguments.
class ForeignFunction final : public Callable {
public:
  explicit ForeignFunction(std::shared_ptr<const ForeignDecl> decl) : decl_(std::move(decl)) {}

  Value applyDep(const DepArg&) const override {
    notApplicable("foreign function `" + decl_->name + "`", "a type-level argument");
  }

  Value apply(const Value& arg) const override {
    auto next = std::make_shared<ForeignFunction>(*this);
    next->args_.push_back(arg);
    if (next->args_.size() == decl_->params.size())
      return callForeign(*decl_, next->args_);
    return Value::function(next);
  }

private:
  std::shared_ptr<const ForeignDecl> decl_;
  std::vector<Value> args_;
};

// ---- expressions ----------------------------------------------------------------

DepArg evalDepArg(const ExprNode& depApp, const Env& env) {
  const TypeArg& a = depApp.typeArg();
  DepArg d;
  d.kind = kindOf(a);
  d.loc = depApp.loc();
  if (auto n = std::get_if<Nat>(&a)) {
    d.natExpr = *n;
    d.nat = env.evalNat(*n);
  } else if (auto t = std::get_if<Type>(&a)) {
    d.type = env.resolveType(*t);
  } else {
    d.addr = std::get<AddrSpace>(a);
  }
  return d;
}

Value evalForeign(const ExprNode& e) {
  // A foreign function without parameters is a constant: call it now.
  if (e.foreign()->params.empty())
    return callForeign(*e.foreign(), {});
  return Value::function(std::make_shared<ForeignFunction>(e.foreign()));
}

/// A shortcut for the usual case of a primitive applied to all of its
/// arguments, `p(N1)..(Nk)(a1)..(am)`: evaluates the arguments left to right
/// into one PrimCall and runs it. Applying a PrimitiveFunction one argument at
/// a time computes the same, in the same order, but allocates a partial
/// application per argument. Returns nullopt for any other expression.
std::optional<Value> evalSaturatedPrimitive(const ExprNode& e, const Env& env) {
  std::vector<const ExprNode*> spine; // the applications, outermost first
  const ExprNode* head = &e;
  while (head->kind() == ExprKind::App || head->kind() == ExprKind::DepApp) {
    spine.push_back(head);
    head = head->fn().get();
  }
  if (head->kind() != ExprKind::Primitive)
    return std::nullopt;
  const Arity& arity = arityOf(head->prim());
  if (spine.size() != arity.deps + arity.values)
    return std::nullopt;
  std::reverse(spine.begin(), spine.end()); // now in argument order
  for (std::size_t i = 0; i < spine.size(); ++i)
    if ((i < arity.deps) != (spine[i]->kind() == ExprKind::DepApp))
      return std::nullopt; // ill-formed: the general path reports it
  PrimCall call;
  call.prim = head->prim();
  call.loc = head->loc();
  call.deps.reserve(arity.deps);
  call.args.reserve(arity.values);
  for (std::size_t i = 0; i < spine.size(); ++i) {
    if (i < arity.deps)
      call.deps.push_back(evalDepArg(*spine[i], env));
    else
      call.args.push_back(evalExpr(spine[i]->arg(), env));
  }
  return runPrimitive(call);
}

} // namespace

Value evalExpr(const Expr& e, const Env& env) {
  if (e->kind() == ExprKind::App)
    if (std::optional<Value> v = evalSaturatedPrimitive(*e, env))
      return *v;
  switch (e->kind()) {
  case ExprKind::Var: {
    const Value* v = env.lookupValue(e->name());
    if (!v)
      throw InternalError("interpreter: unbound variable `" + e->name() + "` at " + e->loc().str());
    return *v;
  }
  case ExprKind::Lambda:
    return Value::function(std::make_shared<Closure>(e, env));
  case ExprKind::App: {
    Value f = evalExpr(e->fn(), env);
    return apply(f, evalExpr(e->arg(), env));
  }
  case ExprKind::DepLambda:
    return Value::function(std::make_shared<DepClosure>(e, env));
  case ExprKind::DepApp: {
    Value f = evalExpr(e->fn(), env);
    return applyDep(f, evalDepArg(*e, env));
  }
  case ExprKind::Literal:
    if (e->isArrayLiteral()) {
      std::vector<Value> elements;
      for (const Expr& x : e->elements())
        elements.push_back(evalExpr(x, env));
      return Value::array(std::move(elements));
    }
    return Value::scalar(e->value());
  case ExprKind::Primitive:
    return Value::function(std::make_shared<PrimitiveFunction>(e->prim(), e->loc()));
  case ExprKind::Foreign:
    return evalForeign(*e);
  }
  throw InternalError("bad expression kind");
}

// ---- entries --------------------------------------------------------------------

namespace {

/// The parts of an entry `depFun(n..) => fun(x..) => body`.
struct EntryShape {
  std::vector<DepBinder> typeBinders; ///< leading dependent binders of the def's type
  std::vector<DepBinder> exprBinders; ///< leading depFun binders of the expression
  Expr body;                          ///< the expression inside those depFuns
  Type funType;                       ///< the type inside the dependent binders
  std::vector<std::string> names;     ///< size parameter names, in order, unique
};

[[noreturn]] void notRunnable(const TypedDef& def, const std::string& why) {
  runtimeError(errc::kNotRunnable, def.expr->loc(), "cannot run `" + def.name + "`: " + why);
}

void addSizeName(const TypedDef& def, EntryShape& s, const DepBinder& b) {
  if (b.kind != Kind::Nat)
    notRunnable(def, "it has the " + std::string(kindName(b.kind)) + " parameter `" + b.name() +
                         "`; only Nat parameters can be given values");
  for (const std::string& n : s.names)
    if (n == b.name())
      return;
  s.names.push_back(b.name());
}

EntryShape entryShape(const TypedDef& def) {
  EntryShape s;
  Type t = def.type;
  for (; t->kind() == TypeKind::DepFun; t = t->result())
    s.typeBinders.push_back(t->binder());
  s.funType = t;
  Expr e = def.expr;
  for (; e->kind() == ExprKind::DepLambda; e = e->body())
    s.exprBinders.push_back(e->binder());
  s.body = e;
  for (const DepBinder& b : s.typeBinders)
    addSizeName(def, s, b);
  for (const DepBinder& b : s.exprBinders)
    addSizeName(def, s, b);
  return s;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names)
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

/// Every size binder's id (of the type and of the expression) mapped to the
/// value given for its name.
std::map<std::uint64_t, std::int64_t> bindSizes(const TypedDef& def, const EntryShape& s,
                                                const SizeEnv& sizes) {
  for (const auto& [name, value] : sizes) {
    bool known = false;
    for (const std::string& n : s.names)
      known = known || n == name;
    if (!known)
      runtimeError(errc::kSizes, def.expr->loc(),
                   "unknown size `" + name + "` for `" + def.name + "`; " +
                       (s.names.empty() ? "it has no size parameters"
                                        : "its size parameters are " + joined(s.names)));
    if (value < 0)
      runtimeError(errc::kSizes, def.expr->loc(),
                   "size `" + name + "` of `" + def.name + "` is negative (" +
                       std::to_string(value) + ")");
  }
  for (const std::string& n : s.names)
    if (!sizes.count(n))
      runtimeError(errc::kSizes, def.expr->loc(),
                   "missing size `" + n + "` for `" + def.name + "` (its size parameters are " +
                       joined(s.names) + ")");
  std::map<std::uint64_t, std::int64_t> byId;
  for (const auto* binders : {&s.typeBinders, &s.exprBinders})
    for (const DepBinder& b : *binders)
      byId[b.id()] = sizes.at(b.name());
  return byId;
}

std::string sizesText(const EntryShape& s, const SizeEnv& sizes) {
  std::string text;
  for (const std::string& n : s.names)
    text += (text.empty() ? "" : ", ") + n + " = " + std::to_string(sizes.at(n));
  return text;
}

/// Checks the preconditions; returns false where one that holds for every
/// non-empty result fails (Precondition::onlyForNonEmptyResult): the result
/// is empty, and nothing is evaluated.
bool checkPreconditions(const TypedDef& def, const EntryShape& s, const SizeEnv& sizes,
                        const std::map<std::uint64_t, std::int64_t>& byId) {
  bool nonEmpty = true;
  auto lookup = [&byId](const NatVarInfo& v) -> std::optional<std::int64_t> {
    auto it = byId.find(v.id);
    return it == byId.end() ? std::nullopt : std::optional(it->second);
  };
  for (const Precondition& p : def.preconditions) {
    std::optional<std::int64_t> lhs = natEvaluate(p.lhs, lookup), rhs = natEvaluate(p.rhs, lookup);
    bool holds = lhs && rhs && (p.rel == Precondition::Rel::Eq ? *lhs == *rhs : *lhs >= *rhs);
    if (!holds && p.onlyForNonEmptyResult && lhs && rhs)
      nonEmpty = false;
    else if (!holds)
      runtimeError(errc::kPrecondition, p.loc,
                   "size precondition `" + p.str() + "` does not hold for " + sizesText(s, sizes) +
                       (p.reason.empty() ? "" : ": " + p.reason));
  }
  return nonEmpty;
}

/// Substitutes the sizes into a type and checks that the result is a data
/// type with constant sizes.
Type concreteType(const TypedDef& def, const Type& t, const TypeSubst& subst,
                  const std::string& what) {
  Type c = substitute(t, subst);
  std::function<bool(const Type&)> concrete = [&](const Type& u) {
    switch (u->kind()) {
    case TypeKind::Scalar:
      return true;
    case TypeKind::Array:
    case TypeKind::Vec:
      return u->size()->isConst() && concrete(u->elem());
    case TypeKind::Index:
      return u->size()->isConst();
    case TypeKind::Pair:
      return concrete(u->first()) && concrete(u->second());
    default:
      return false;
    }
  };
  if (!concrete(c))
    notRunnable(def, what + " has the type " + typeToString(c) +
                         ", which is not a data type with known sizes");
  return c;
}

/// Everything evaluate() needs, checked.
struct Instance {
  EntryShape shape;
  std::map<std::uint64_t, std::int64_t> sizeById;
  EntryInterface iface;
  bool emptyResult = false; ///< a condition that only a non-empty result needs fails
};

Instance instantiate(const TypedDef& def, const SizeEnv& sizes) {
  Instance inst;
  inst.shape = entryShape(def);
  inst.sizeById = bindSizes(def, inst.shape, sizes);
  inst.emptyResult = !checkPreconditions(def, inst.shape, sizes, inst.sizeById);
  TypeSubst subst;
  for (const auto& [id, v] : inst.sizeById)
    subst.nats[id] = natConst(v);
  Expr lambda = inst.shape.body;
  Type t = inst.shape.funType;
  for (std::size_t i = 0; t->kind() == TypeKind::Fun; ++i, t = t->result()) {
    std::string name = lambda->kind() == ExprKind::Lambda ? lambda->name() : "";
    if (lambda->kind() == ExprKind::Lambda)
      lambda = lambda->body();
    inst.iface.inputNames.push_back(name);
    inst.iface.inputTypes.push_back(concreteType(def, t->param(), subst, inputLabel(i, name)));
  }
  inst.iface.outputType = concreteType(def, t, subst, "the result");
  return inst;
}

/// The location of the i-th lambda of the entry (for input errors).
SourceLocation inputLocation(const Instance& inst, std::size_t i) {
  Expr e = inst.shape.body;
  for (std::size_t j = 0; j < i && e->kind() == ExprKind::Lambda; ++j)
    e = e->body();
  return e->loc();
}

void checkInputCount(const TypedDef& def, const Instance& inst, std::size_t given) {
  std::size_t expected = inst.iface.inputTypes.size();
  if (given != expected)
    runtimeError(errc::kInputCount, def.expr->loc(),
                 "`" + def.name + "` takes " + std::to_string(expected) +
                     (expected == 1 ? " input" : " inputs") + ", got " + std::to_string(given));
}

} // namespace

std::string inputLabel(std::size_t i, const std::string& name) {
  return "input " + std::to_string(i + 1) + (name.empty() ? "" : " (`" + name + "`)");
}

std::vector<std::string> sizeParameters(const TypedDef& def) {
  return entryShape(def).names;
}

EntryInterface instantiateEntry(const TypedDef& def, const SizeEnv& sizes) {
  return instantiate(def, sizes).iface;
}

Value evaluate(const TypedDef& def, const SizeEnv& sizes, const std::vector<Value>& inputs) {
  Instance inst = instantiate(def, sizes);
  checkInputCount(def, inst, inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (auto m = checkValueType(inputs[i], inst.iface.inputTypes[i]))
      runtimeError(errc::kInputShape, inputLocation(inst, i),
                   m->str(inputLabel(i, inst.iface.inputNames[i])));
  if (inst.emptyResult)
    return emptyValue(inst.iface.outputType);
  // Bind every size by id, then evaluate the body inside the depFuns: this is
  // what applying the depFuns to the sizes would do, and it also binds sizes
  // that inference generalised (binders of the type without a depFun).
  Env env;
  for (const auto& [id, v] : inst.sizeById)
    env = env.bindNat(id, v);
  Value result = evalExpr(inst.shape.body, env);
  for (const Value& input : inputs)
    result = apply(result, input);
  return result;
}

std::vector<Value> parseInputs(const TypedDef& def, const SizeEnv& sizes,
                               const std::vector<std::string>& jsonInputs) {
  Instance inst = instantiate(def, sizes);
  checkInputCount(def, inst, jsonInputs.size());
  std::vector<Value> values;
  for (std::size_t i = 0; i < jsonInputs.size(); ++i)
    values.push_back(parseValue(jsonInputs[i], inst.iface.inputTypes[i],
                                inputLabel(i, inst.iface.inputNames[i]), inputLocation(inst, i)));
  return values;
}

std::vector<Value> parseInputList(const TypedDef& def, const SizeEnv& sizes,
                                  std::string_view jsonList, const std::string& source) {
  Instance inst = instantiate(def, sizes);
  JsonValue list;
  try {
    list = parseJson(jsonList);
  } catch (const JsonSyntaxError& e) {
    runtimeError(errc::kJsonSyntax, {},
                 source + ": invalid JSON at " + jsonPosition(jsonList, e.offset) + ": " +
                     e.what());
  }
  if (list.kind != JsonValue::Kind::Array)
    runtimeError(errc::kJsonSyntax, {},
                 source + " must be a JSON list with one element per input, e.g. [[1, 2], 2.0]");
  checkInputCount(def, inst, list.elements.size());
  std::vector<Value> values;
  for (std::size_t i = 0; i < list.elements.size(); ++i)
    values.push_back(jsonToValue(list.elements[i], inst.iface.inputTypes[i],
                                 inputLabel(i, inst.iface.inputNames[i]), inputLocation(inst, i)));
  return values;
}

} // namespace risec::rise::interp
