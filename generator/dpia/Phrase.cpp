#include "dpia/Phrase.h"

#include "dpia/Primitive.h"
#include "support/Diagnostic.h"

#include <atomic>

namespace risec::dpia {

struct PhraseNode::Fields {
  PhraseKind kind = PhraseKind::Ident;
  PhraseType type;
  SourceLocation loc;
  std::string name;
  std::uint64_t id = 0;
  Phrase a, b;
  rise::DepBinder binder;
  rise::TypeArg typeArg;
  rise::ScalarValue value;
  rise::Nat nat;
  const PrimitiveDef* prim = nullptr;
  std::vector<rise::TypeArg> typeArgs;
  std::vector<Phrase> args;
  std::string tag;
  Origin origin;
};

PhraseNode::PhraseNode(Fields f)
    : kind_(f.kind), type_(std::move(f.type)), loc_(std::move(f.loc)), name_(std::move(f.name)),
      id_(f.id), a_(std::move(f.a)), b_(std::move(f.b)), binder_(std::move(f.binder)),
      typeArg_(std::move(f.typeArg)), value_(f.value), nat_(std::move(f.nat)), prim_(f.prim),
      typeArgs_(std::move(f.typeArgs)), args_(std::move(f.args)), tag_(std::move(f.tag)),
      origin_(std::move(f.origin)) {}

const std::string& PhraseNode::primName() const {
  return prim_->name;
}

const rise::Nat& PhraseNode::natArg(std::size_t i) const {
  const auto* n = std::get_if<rise::Nat>(&typeArgs_.at(i));
  if (!n)
    throw InternalError("type argument " + std::to_string(i) + " of `" + primName() +
                        "` is not a Nat");
  return *n;
}

const rise::Type& PhraseNode::dataArg(std::size_t i) const {
  const auto* t = std::get_if<rise::Type>(&typeArgs_.at(i));
  if (!t)
    throw InternalError("type argument " + std::to_string(i) + " of `" + primName() +
                        "` is not a data type");
  return *t;
}

namespace {

Phrase build(PhraseNode::Fields f) {
  return std::make_shared<const PhraseNode>(std::move(f));
}

std::uint64_t nextId() {
  static std::atomic<std::uint64_t> counter{1};
  return counter++;
}

} // namespace

Phrase freshIdent(const std::string& name, PhraseType type) {
  PhraseNode::Fields f;
  f.kind = PhraseKind::Ident;
  f.name = name;
  f.id = nextId();
  f.type = std::move(type);
  return build(std::move(f));
}

Phrase lambda(Phrase param, Phrase body) {
  PhraseNode::Fields f;
  f.kind = PhraseKind::Lambda;
  f.type = funPhraseType(param->type(), body->type());
  f.a = std::move(param);
  f.b = std::move(body);
  return build(std::move(f));
}

Phrase lambda(const std::string& name, PhraseType paramType,
              const std::function<Phrase(const Phrase&)>& body) {
  Phrase x = freshIdent(name, std::move(paramType));
  return lambda(x, body(x));
}

Phrase apply(Phrase fn, Phrase arg) {
  if (fn->type()->kind() != PhraseTypeKind::Fun)
    throw InternalError("DPIA: applying a phrase of type " + phraseTypeToString(fn->type()));
  PhraseNode::Fields f;
  f.kind = PhraseKind::Apply;
  f.type = fn->type()->result();
  f.a = std::move(fn);
  f.b = std::move(arg);
  return build(std::move(f));
}

Phrase depLambda(rise::DepBinder binder, Phrase body) {
  PhraseNode::Fields f;
  f.kind = PhraseKind::DepLambda;
  f.type = depFunPhraseType(binder, body->type());
  f.binder = std::move(binder);
  f.b = std::move(body);
  return build(std::move(f));
}

Phrase depApply(Phrase fn, rise::TypeArg arg) {
  if (fn->type()->kind() != PhraseTypeKind::DepFun)
    throw InternalError("DPIA: dependent application of " + phraseTypeToString(fn->type()));
  rise::TypeSubst s;
  s.bind(fn->type()->binder(), arg);
  PhraseNode::Fields f;
  f.kind = PhraseKind::DepApply;
  f.type = substitute(fn->type()->result(), s);
  f.a = std::move(fn);
  f.typeArg = std::move(arg);
  return build(std::move(f));
}

Phrase literal(rise::ScalarValue v, SourceLocation loc) {
  PhraseNode::Fields f;
  f.kind = PhraseKind::Literal;
  f.type = expType(rise::scalarType(v.kind), Access::Rd);
  f.value = v;
  f.loc = std::move(loc);
  return build(std::move(f));
}

Phrase natural(rise::Nat n, rise::Type dt) {
  PhraseNode::Fields f;
  f.kind = PhraseKind::Natural;
  f.type = expType(dt ? std::move(dt) : rise::scalarType(rise::ScalarKind::NatType), Access::Rd);
  f.nat = std::move(n);
  return build(std::move(f));
}

Phrase phrasePair(Phrase a, Phrase b) {
  PhraseNode::Fields f;
  f.kind = PhraseKind::Pair;
  f.type = pairPhraseType(a->type(), b->type());
  f.a = std::move(a);
  f.b = std::move(b);
  return build(std::move(f));
}

Phrase proj1(Phrase p) {
  if (p->kind() == PhraseKind::Pair)
    return p->first();
  PhraseNode::Fields f;
  f.kind = PhraseKind::Proj1;
  f.type = p->type()->first();
  f.a = std::move(p);
  return build(std::move(f));
}

Phrase proj2(Phrase p) {
  if (p->kind() == PhraseKind::Pair)
    return p->second();
  PhraseNode::Fields f;
  f.kind = PhraseKind::Proj2;
  f.type = p->type()->second();
  f.a = std::move(p);
  return build(std::move(f));
}

Phrase primTyped(const PrimitiveDef& def, std::vector<rise::TypeArg> typeArgs,
                 std::vector<Phrase> args, PhraseType type, SourceLocation loc, std::string tag,
                 Origin origin) {
  PhraseNode::Fields f;
  f.tag = std::move(tag);
  f.origin = std::move(origin);
  f.kind = PhraseKind::Prim;
  f.prim = &def;
  f.typeArgs = std::move(typeArgs);
  f.args = std::move(args);
  f.type = std::move(type);
  f.loc = std::move(loc);
  return build(std::move(f));
}

Phrase prim(const std::string& name, std::vector<rise::TypeArg> typeArgs, std::vector<Phrase> args,
            SourceLocation loc) {
  const PrimitiveDef* def = findPrimitive(name);
  if (!def)
    throw InternalError("unknown DPIA primitive `" + name + "`");
  if (!def->type)
    throw InternalError("DPIA primitive `" + name + "` needs an explicit type");
  PhraseType t = def->type(typeArgs, args);
  return primTyped(*def, std::move(typeArgs), std::move(args), std::move(t), std::move(loc));
}

Phrase withTag(const Phrase& p, std::string tag) {
  return primTyped(p->prim(), p->typeArgs(), p->args(), p->type(), p->loc(), std::move(tag),
                   p->origin());
}

bool mentions(const Phrase& p, std::uint64_t id) {
  if (p->kind() == PhraseKind::Ident)
    return p->id() == id;
  bool found = false;
  mapChildren(p, [&](const Phrase& child) {
    found = found || mentions(child, id);
    return child;
  });
  return found;
}

Phrase mapChildren(const Phrase& p, const std::function<Phrase(const Phrase&)>& fn) {
  auto same = [](const Phrase& a, const Phrase& b) { return a.get() == b.get(); };
  switch (p->kind()) {
  case PhraseKind::Ident:
  case PhraseKind::Literal:
  case PhraseKind::Natural:
    return p;
  case PhraseKind::Lambda: {
    Phrase b = fn(p->body());
    return same(b, p->body()) ? p : lambda(p->param(), b);
  }
  case PhraseKind::Apply: {
    Phrase f = fn(p->fn()), a = fn(p->arg());
    return same(f, p->fn()) && same(a, p->arg()) ? p : apply(f, a);
  }
  case PhraseKind::DepLambda: {
    Phrase b = fn(p->body());
    return same(b, p->body()) ? p : depLambda(p->binder(), b);
  }
  case PhraseKind::DepApply: {
    Phrase f = fn(p->fn());
    return same(f, p->fn()) ? p : depApply(f, p->typeArg());
  }
  case PhraseKind::Pair: {
    Phrase a = fn(p->first()), b = fn(p->second());
    return same(a, p->first()) && same(b, p->second()) ? p : phrasePair(a, b);
  }
  case PhraseKind::Proj1:
  case PhraseKind::Proj2: {
    Phrase a = fn(p->of());
    if (same(a, p->of()))
      return p;
    return p->kind() == PhraseKind::Proj1 ? proj1(a) : proj2(a);
  }
  case PhraseKind::Prim: {
    std::vector<Phrase> args;
    bool changed = false;
    for (const Phrase& a : p->args()) {
      args.push_back(fn(a));
      changed = changed || !same(args.back(), a);
    }
    if (!changed)
      return p;
    return primTyped(p->prim(), p->typeArgs(), std::move(args), p->type(), p->loc(), p->tag(),
                     p->origin());
  }
  }
  return p;
}

Phrase substitute(const Phrase& p, std::uint64_t id, const Phrase& value) {
  if (p->kind() == PhraseKind::Ident)
    return p->id() == id ? value : p;
  if (p->kind() == PhraseKind::Lambda && p->param()->id() == id)
    return p; // shadowed
  return mapChildren(p, [&](const Phrase& c) { return substitute(c, id, value); });
}

Phrase substitute(const Phrase& p, const rise::TypeSubst& s) {
  if (s.empty())
    return p;
  PhraseNode::Fields f;
  f.kind = p->kind();
  f.type = substitute(p->type(), s);
  f.loc = p->loc();
  f.name = p->name();
  f.id = p->id();
  f.binder = p->binder();
  f.value = p->value();
  f.tag = p->tag();
  f.origin = p->origin(); // as translated, like the tag
  if (p->kind() == PhraseKind::DepApply)
    f.typeArg = rise::substitute(p->typeArg(), s);
  if (p->nat())
    f.nat = rise::substitute(p->nat(), s);
  f.prim = p->kind() == PhraseKind::Prim ? &p->prim() : nullptr;
  for (const rise::TypeArg& a : p->typeArgs())
    f.typeArgs.push_back(rise::substitute(a, s));
  for (const Phrase& a : p->args())
    f.args.push_back(substitute(a, s));
  // a_ and b_ are the generic child slots (param/fn/first/of, body/arg/second)
  if (p->fn())
    f.a = substitute(p->fn(), s);
  if (p->arg())
    f.b = substitute(p->arg(), s);
  return build(std::move(f));
}

Phrase betaApply(const Phrase& fn, const Phrase& arg) {
  if (fn->kind() == PhraseKind::Lambda)
    return substitute(fn->body(), fn->param()->id(), arg);
  // (let x = a in f) applied to arg: apply f inside the binding
  if (fn->kind() == PhraseKind::Apply && fn->fn()->kind() == PhraseKind::Lambda)
    return apply(lambda(fn->fn()->param(), betaApply(fn->fn()->body(), arg)), fn->arg());
  return apply(fn, arg);
}

Phrase betaDepApply(const Phrase& fn, const rise::TypeArg& arg) {
  if (fn->kind() == PhraseKind::DepLambda) {
    rise::TypeSubst s;
    s.bind(fn->binder(), arg);
    return substitute(fn->body(), s);
  }
  return depApply(fn, arg);
}

const rise::Type& dataType(const Phrase& p) {
  if (!p->type()->data())
    throw InternalError("DPIA: phrase of type " + phraseTypeToString(p->type()) +
                        " has no data type");
  return p->type()->data();
}

} // namespace risec::dpia
