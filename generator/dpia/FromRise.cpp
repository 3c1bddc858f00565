#include "dpia/FromRise.h"

#include "dpia/Primitive.h"
#include "rise/ast/ForeignTypes.h"
#include "rise/ast/Spine.h"
#include "rise/ast/Traverse.h"
#include "rise/infer/Signatures.h"
#include "support/Diagnostic.h"

#include <set>

namespace risec::dpia {

using rise::Expr;
using rise::ExprKind;

Entry takeEntryApart(const rise::TypedDef& def) {
  Entry entry;
  // a size that inference generalised (`{n: Nat} -> n.f32 -> ...`) has no
  // parameter to pass it through
  for (rise::Type t = def.type; t->kind() == rise::TypeKind::DepFun; t = t->result())
    if (t->binder().implicit)
      throw CompileError("E0605", def.expr->loc(),
                         "the entry `" + def.name + "` has the type `" +
                             rise::typeToString(def.type) + "`, whose size `" + t->binder().name() +
                             "` no parameter names; name the sizes of a compiled entry with a "
                             "depFun (write depFun((n: Nat) => fun(x: n.f32 => ...)))");
  Expr e = def.expr;
  while (e->kind() == ExprKind::DepLambda) {
    if (e->binder().kind != rise::Kind::Nat)
      throw CompileError("E0605", e->loc(),
                         "the entry `" + def.name + "` takes a " +
                             std::string(rise::kindName(e->binder().kind)) + " parameter `" +
                             e->binder().name() +
                             "`; a compiled entry may only take Nat size parameters");
    entry.sizes.push_back(e->binder());
    e = e->body();
  }
  while (e->kind() == ExprKind::Lambda) {
    rise::Type t = e->type()->param();
    if (!t->isData() || rise::typeHasMeta(t))
      throw CompileError("E0605", e->loc(),
                         "the parameter `" + e->name() + "` of the entry `" + def.name +
                             "` has type `" + rise::typeToString(t) +
                             "`; a compiled entry needs data parameters whose sizes are "
                             "named by a depFun (write depFun((n: Nat) => fun(x: n.f32 => ...)))");
    entry.params.push_back({e->name(), t});
    e = e->body();
  }
  if (!e->type()->isData())
    throw CompileError("E0605", e->loc(),
                       "the entry `" + def.name + "` returns a function (`" +
                           rise::typeToString(e->type()) + "`); a compiled entry must return data");
  entry.body = e;
  return entry;
}

namespace unsupported {

CompileError depArgAfterValue(const SourceLocation& at) {
  return CompileError("E0699", at,
                      "a type-level argument after a value argument is not supported by "
                      "the C back end yet");
}

CompileError parameterType(const rise::Type& t, const SourceLocation& at) {
  return CompileError("E0699", at,
                      "a parameter of type `" + rise::typeToString(t) +
                          "` is not supported by the C back end yet");
}

CompileError applicationForm(const Expr& whole, const Expr& head) {
  return CompileError(
      "E0699", whole->loc(),
      "this form of application is not supported by the C back end yet (head kind " +
          std::to_string(static_cast<int>(head->kind())) + ")");
}

CompileError partialForeign(const SourceLocation& at) {
  return CompileError("E0699", at,
                      "a partially applied foreign function is not supported by the C back "
                      "end yet");
}

CompileError noDefinition(const Expr& head) {
  std::string name(rise::primName(head->prim()));
  if (head->prim() == rise::Prim::Map || head->prim() == rise::Prim::Reduce ||
      head->prim() == rise::Prim::Scan)
    return CompileError("E0603", head->loc(),
                        "`" + name + "` has no implementation chosen; lower it first (e.g. `" +
                            name + "Seq`, which lowerToC does by default)");
  return CompileError("E0604", head->loc(), "`" + name + "` is not supported by the C back end");
}

CompileError overApplied(const Expr& whole, rise::Prim p) {
  return CompileError("E0699", whole->loc(),
                      "applying the result of `" + std::string(rise::primName(p)) +
                          "` to further arguments is not supported by the C back end yet");
}

CompileError functionArgumentMissing(const Expr& head) {
  std::string name(rise::primName(head->prim()));
  return CompileError("E0699", head->loc(),
                      "`" + name +
                          "` without its function argument is not supported by the C back end "
                          "yet; write it applied, e.g. `" +
                          name + "(f)`");
}

CompileError depFunNotInPlace(const Expr& e, const std::string& consumer) {
  return CompileError("E0699", e->loc(),
                      consumer + " needs a `depFun(l: Nat => ...)` written in place");
}

} // namespace unsupported

bool layoutFunction(const Expr& f, const std::function<bool(const Expr&)>& viewableMap) {
  if (f->kind() == ExprKind::Lambda)
    return layoutChain(f->body(), f->name(), viewableMap);
  rise::Spine s = rise::collectSpine(f, true);
  if (s.head->kind() != ExprKind::Primitive)
    return false;
  if (rise::primInfo(s.head->prim()).traits.layoutView)
    return s.args.empty();
  return viewableMap(s.head) && s.args.size() == 1 && layoutFunction(s.args[0], viewableMap);
}

bool layoutChain(const Expr& e, const std::string& x,
                 const std::function<bool(const Expr&)>& viewableMap) {
  if (e->kind() == ExprKind::Var)
    return e->name() == x;
  rise::Spine s = rise::collectSpine(e, true);
  if (s.head->kind() == ExprKind::Lambda)
    return s.args.size() == 1 && layoutFunction(s.head, viewableMap) &&
           layoutChain(s.args[0], x, viewableMap);
  if (s.head->kind() != ExprKind::Primitive || s.args.empty())
    return false;
  if (rise::primInfo(s.head->prim()).traits.layoutView)
    return s.args.size() == 1 && layoutChain(s.args[0], x, viewableMap);
  return viewableMap(s.head) && s.args.size() == 2 && layoutFunction(s.args[0], viewableMap) &&
         layoutChain(s.args[1], x, viewableMap);
}

namespace {

std::string shortLoc(const SourceLocation& l) {
  return std::to_string(l.line) + ":" + std::to_string(l.column);
}

/// Who consumes a phrase, for diagnostics: "`mapSeq` at 4:10", "the output".
struct Consumer {
  std::string what;
  SourceLocation loc;
  std::string str() const { return loc.known() ? what + " at " + shortLoc(loc) : what; }
};

/// The primitive that makes a Wr expression Wr (looking through Wr views).
Phrase wrProducer(const Phrase& p) {
  if (p->kind() == PhraseKind::Prim && p->prim().result.kind == ResultAccess::Kind::Poly)
    for (const Phrase& a : p->args())
      if (a->type()->isExp() && a->type()->access() == Access::Wr)
        return wrProducer(a);
  if (p->kind() == PhraseKind::Apply)
    return wrProducer(p->fn()->kind() == PhraseKind::Lambda ? p->fn()->body() : p->fn());
  return p;
}

std::string describe(const Phrase& p) {
  if (p->kind() == PhraseKind::Prim)
    return "`" + (p->tag().empty() || p->primName() != "foreign" ? p->primName() : p->tag()) + "`";
  if (p->kind() == PhraseKind::Ident)
    return "`" + p->name() + "`";
  return "this expression";
}

class FromRise {
public:
  Program run(const rise::TypedDef& def) {
    Program prog;
    prog.name = def.name;
    prog.riseType = def.type;
    prog.preconditions = def.preconditions;
    Entry entry = takeEntryApart(def);
    prog.sizes = entry.sizes;
    for (const auto& [name, t] : entry.params) {
      Phrase x = freshIdent(name, expType(t, Access::Rd));
      prog.inputs.push_back(x);
      env_.push_back({name, x});
    }
    const Expr& e = entry.body;
    Phrase body = translate(e);
    body = require(body, Access::Wr, e, {"the output", {}});
    prog.outputType = e->type();
    prog.body = body;
    prog.foreigns = foreigns_;
    return prog;
  }

private:
  std::vector<std::pair<std::string, Phrase>> env_;
  std::vector<std::shared_ptr<const rise::ForeignDecl>> foreigns_;

  Phrase lookup(const Expr& e) {
    for (auto it = env_.rbegin(); it != env_.rend(); ++it)
      if (it->first == e->name())
        return it->second;
    throw InternalError("DPIA: unbound variable `" + e->name() + "` at " + e->loc().str());
  }

  /// Checks that `p` (translated from `src`) has the access `want`.
  Phrase require(const Phrase& p, Access want, const Expr& src, const Consumer& consumer) {
    if (!p->type()->isExp() || p->type()->access() == want)
      return p;
    if (want == Access::Rd) {
      Phrase producer = wrProducer(p);
      SourceLocation at = producer->loc().known() ? producer->loc() : src->loc();
      throw CompileError(
          "E0601", at,
          "the result of " + describe(producer) + " (written to memory) is read by " +
              consumer.str() +
              " without being stored; insert `toMem` after it (`... |> toMem`) to choose the "
              "memory that holds it (RISE & Shine, Listing 5)");
    }
    if (copiedByAssignment(dataType(p)))
      return p;
    throw CompileError("E0602", src->loc(),
                       describe(p) + " is a view of memory of type `" +
                           rise::typeToString(dataType(p)) + "`, but " + consumer.str() +
                           " must write it; copying an array is a choice risec does not make: "
                           "insert an explicit copy such as `mapSeq(fun(x => x))` (nested once "
                           "per array dimension)");
  }

  /// Whether `head` is a `map`, which may stay a view.
  static bool viewableMap(const Expr& head) {
    return head->kind() == ExprKind::Primitive && head->prim() == rise::Prim::Map;
  }

  /// `map(f)(xs)` where `xs` is written (Wr) and `f` a layout function: the
  /// map is written through as well, as Shine's DPIA does: accT gives the
  /// acceptor of `xs` that applies `f`'s acceptors to each element
  /// (`mapAcc`, dpia/primitives/Maps.cpp), so the producer of `xs` writes
  /// straight into the final memory, with no temporary and no copy. Null if
  /// `f`'s body is not written (then the map is handled as usual).
  Phrase writeThrough(const Expr& head, const std::vector<rise::TypeArg>& depArgs, const Expr& f,
                      const Phrase& xs, const rise::Type& t) {
    const rise::Type& elem = dataType(xs)->elem();
    Phrase x = freshIdent("x", expType(elem, Access::Wr));
    Phrase body;
    if (f->kind() == ExprKind::Lambda) {
      env_.push_back({f->name(), x});
      body = translate(f->body());
    } else {
      static const std::string name = "%written"; // no RISE name can capture it
      env_.push_back({name, x});
      body = translate(
          rise::makeApp(f, rise::makeVar(name, f->loc(), elem), f->loc(), f->type()->result()));
    }
    env_.pop_back();
    if (!body->type()->isExp() || body->type()->access() != Access::Wr)
      return nullptr;
    return primTyped(*primitiveForRise(rise::Prim::Map), depArgs, {lambda(x, body), xs},
                     expType(t, Access::Wr), head->loc());
  }

  /// `[...]`: the DPIA primitive arrayLiteral of its scalars, row-major.
  Phrase arrayLiteral(const Expr& e) {
    std::vector<Phrase> scalars;
    std::function<void(const Expr&)> flatten = [&](const Expr& x) {
      if (!x->isArrayLiteral()) {
        scalars.push_back(literal(x->value(), x->loc()));
        return;
      }
      for (const Expr& y : x->elements())
        flatten(y);
    };
    flatten(e);
    return primTyped(primitive::arrayLiteral(), {}, std::move(scalars),
                     expType(e->type(), Access::Rd), e->loc());
  }

  Phrase translate(const Expr& e) {
    switch (e->kind()) {
    case ExprKind::Var:
      return lookup(e);
    case ExprKind::Literal:
      if (e->isArrayLiteral())
        return arrayLiteral(e);
      if (e->value().kind == rise::ScalarKind::NatType)
        return natural(rise::natConst(e->value().i));
      return literal(e->value(), e->loc());
    case ExprKind::Lambda: {
      Phrase x = freshIdent(e->name(), paramPhraseType(e->type()->param(), e->loc()));
      env_.push_back({e->name(), x});
      Phrase body = translate(e->body());
      env_.pop_back();
      return lambda(x, body);
    }
    case ExprKind::DepLambda:
      return depLambda(e->binder(), translate(e->body()));
    default:
      break;
    }
    // an application spine: head(depArgs...)(args...)
    rise::Spine spine = rise::collectSpine(e, true);
    if (spine.depAfterValue.known())
      throw unsupported::depArgAfterValue(spine.depAfterValue);
    return translateSpine(e, spine.head, spine.depArgs, spine.args);
  }

  /// (fun(x => fun(y => b)))(a1, a2) as (fun(x => (fun(y => b))(a2)))(a1): every
  /// application has a lambda as its function (let-style), as accT/conT expect.
  static Phrase applyAll(const Phrase& f, const std::vector<Phrase>& args, std::size_t from = 0) {
    if (from == args.size())
      return f;
    if (f->kind() == PhraseKind::Lambda)
      return apply(lambda(f->param(), applyAll(f->body(), args, from + 1)), args[from]);
    Phrase g = f;
    for (std::size_t i = from; i < args.size(); ++i)
      g = apply(g, args[i]);
    return g;
  }

  PhraseType paramPhraseType(const rise::Type& t, const SourceLocation& loc) {
    if (t->isData())
      return expType(t, Access::Rd);
    if (t->kind() == rise::TypeKind::Fun)
      return funPhraseType(paramPhraseType(t->param(), loc), paramPhraseType(t->result(), loc));
    throw unsupported::parameterType(t, loc);
  }

  Phrase translateSpine(const Expr& whole, const Expr& head,
                        const std::vector<rise::TypeArg>& depArgs, std::vector<Expr> args) {
    switch (head->kind()) {
    case ExprKind::App:
    case ExprKind::DepApp: {
      if (args.empty() && depArgs.empty())
        return translate(head);
      // the head is itself an application: merge the spines
      std::optional<rise::Spine> inner = rise::extendSpine(head, depArgs, args);
      if (!inner)
        break;
      return translateSpine(whole, inner->head, inner->depArgs, inner->args);
    }
    case ExprKind::DepLambda: {
      // an inlined polymorphic def: instantiate its type-level parameters
      Phrase f = translate(head);
      for (const rise::TypeArg& a : depArgs) {
        if (f->kind() != PhraseKind::DepLambda)
          break;
        f = betaDepApply(f, a);
      }
      std::vector<Phrase> ps;
      for (const Expr& a : args) {
        Phrase p = translate(a);
        ps.push_back(p->type()->isExp() ? require(p, Access::Rd, a, {"a parameter", head->loc()})
                                        : p);
      }
      return applyAll(f, ps);
    }
    case ExprKind::Primitive:
      return translatePrim(whole, head, depArgs, args);
    case ExprKind::Foreign: {
      auto decl = head->foreign();
      rise::checkForeignSignature(*decl); // E0422 at the declaration
      bool seen = false;
      for (const auto& f : foreigns_)
        seen = seen || f->name == decl->name;
      if (!seen)
        foreigns_.push_back(decl);
      if (args.size() != decl->params.size())
        throw unsupported::partialForeign(head->loc());
      std::vector<Phrase> ps;
      for (const Expr& a : args)
        ps.push_back(require(translate(a), Access::Rd, a, {"`" + decl->name + "`", head->loc()}));
      return primTyped(*findPrimitive("foreign"), {}, ps, expType(decl->result, Access::Rd),
                       head->loc(), decl->name);
    }
    case ExprKind::Lambda: {
      if (!depArgs.empty())
        break;
      if (args.empty())
        return translate(head);
      // (fun(x => body))(a, more...): bind x to a, then apply the body to the rest
      Expr a = args.front();
      Phrase arg = translate(a);
      if (arg->type()->isExp())
        arg = require(arg, Access::Rd, a, {"the parameter `" + head->name() + "`", head->loc()});
      Phrase x = freshIdent(head->name(), paramPhraseType(head->type()->param(), head->loc()));
      env_.push_back({head->name(), x});
      Phrase body =
          translateSpine(whole, head->body(), {}, std::vector<Expr>(args.begin() + 1, args.end()));
      env_.pop_back();
      return apply(lambda(x, body), arg);
    }
    case ExprKind::Var: {
      if (!depArgs.empty())
        break;
      Phrase f = lookup(head);
      for (const Expr& a : args)
        f = apply(f, translate(a));
      return f;
    }
    default:
      break;
    }
    throw unsupported::applicationForm(whole, head);
  }

  Phrase translatePrim(const Expr& whole, const Expr& head,
                       const std::vector<rise::TypeArg>& depArgs, const std::vector<Expr>& args) {
    rise::Prim p = head->prim();
    const PrimitiveDef* def = primitiveForRise(p);
    std::string name(rise::primName(p));
    if (!def)
      throw unsupported::noDefinition(head);
    int arity = rise::valueArity(p);
    if (static_cast<int>(args.size()) > arity)
      throw unsupported::overApplied(whole, p);
    // The type after all given arguments, then the missing (eta-expanded) ones.
    rise::Type t = whole->type();
    std::vector<Phrase> extra;
    for (std::size_t i = args.size(); i < static_cast<std::size_t>(arity); ++i) {
      if (t->kind() != rise::TypeKind::Fun)
        throw InternalError("DPIA: `" + name + "` has a non-function type while eta-expanding");
      if (!t->param()->isData())
        throw unsupported::functionArgumentMissing(head);
      extra.push_back(freshIdent(extra.empty() ? "x" : "x" + std::to_string(extra.size()),
                                 expType(t->param(), Access::Rd)));
      t = t->result();
    }
    Phrase written; // the array of a map of a layout function, translated ahead
    if (args.size() == 2 && viewableMap(head) && layoutFunction(args[0], viewableMap)) {
      written = translate(args[1]);
      if (written->type()->isExp() && written->type()->access() == Access::Wr)
        if (Phrase w = writeThrough(head, depArgs, args[0], written, whole->type()))
          return w;
    }
    Consumer consumer{"`" + name + "`", head->loc()};
    std::vector<Phrase> ps;
    std::vector<std::size_t> polyArgs;
    for (std::size_t i = 0; i < static_cast<std::size_t>(arity); ++i) {
      const ArgAccess& spec = def->access.at(i);
      bool given = i < args.size();
      if (spec.kind == ArgAccess::Kind::Fun) {
        if (!given)
          throw InternalError("DPIA: missing function argument of `" + name + "`");
        ps.push_back(translateFun(args[i], spec, consumer));
        continue;
      }
      Phrase a =
          given ? (i == 1 && written ? written : translate(args[i])) : extra[i - args.size()];
      if (spec.kind == ArgAccess::Kind::Poly) {
        polyArgs.push_back(i);
        ps.push_back(a);
      } else {
        ps.push_back(given ? require(a, spec.kind == ArgAccess::Kind::Wr ? Access::Wr : Access::Rd,
                                     args[i], consumer)
                           : a);
      }
    }
    Access result = def->result.access;
    if (def->result.kind == ResultAccess::Kind::Poly) {
      bool anyWr = false;
      for (std::size_t i : polyArgs)
        anyWr = anyWr || ps[i]->type()->access() == Access::Wr;
      Access want = anyWr && def->writableView ? Access::Wr : Access::Rd;
      for (std::size_t i : polyArgs)
        if (i < args.size())
          ps[i] = require(ps[i], want, args[i], consumer);
      result = want;
    } else if (def->result.kind == ResultAccess::Kind::FunBody) {
      const Phrase& f = ps.at(def->result.arg);
      PhraseType r = f->type();
      while (r->kind() == PhraseTypeKind::Fun)
        r = r->result();
      result = r->access();
    }
    Phrase phrase = primTyped(*def, depArgs, ps, expType(t, result), head->loc());
    for (auto it = extra.rbegin(); it != extra.rend(); ++it)
      phrase = lambda(*it, phrase);
    return phrase;
  }

  /// A function argument: parameters Rd, body checked against spec.body.
  Phrase translateFun(const Expr& e, const ArgAccess& spec, const Consumer& consumer) {
    if (spec.depNat) {
      if (e->kind() != ExprKind::DepLambda || e->binder().kind != rise::Kind::Nat)
        throw unsupported::depFunNotInPlace(e, consumer.str());
      ArgAccess inner = spec;
      inner.depNat = false;
      return depLambda(e->binder(), translateFun(e->body(), inner, consumer));
    }
    return funBody(e, spec.arity, spec, consumer);
  }

  Phrase funBody(const Expr& e, int k, const ArgAccess& spec, const Consumer& consumer) {
    if (k == 0) {
      Phrase body = translate(e);
      return spec.anyBody ? body : require(body, spec.body, e, consumer);
    }
    if (e->kind() == ExprKind::Lambda) {
      Phrase x = freshIdent(e->name(), paramPhraseType(e->type()->param(), e->loc()));
      env_.push_back({e->name(), x});
      Phrase body = funBody(e->body(), k - 1, spec, consumer);
      env_.pop_back();
      return lambda(x, body);
    }
    // Not written as a lambda (a primitive such as `add`, a partial application):
    // eta-expand fun(x1 => ... fun(xk => e(x1)...(xk))).
    Phrase f = translate(e);
    std::vector<Phrase> xs;
    rise::Type t = e->type();
    for (int i = 0; i < k; ++i) {
      xs.push_back(freshIdent(k == 1 ? "x" : "x" + std::to_string(i + 1),
                              paramPhraseType(t->param(), e->loc())));
      t = t->result();
    }
    Phrase body = f;
    for (const Phrase& x : xs)
      body = betaApply(body, x);
    if (!spec.anyBody)
      body = require(body, spec.body, e, consumer);
    for (auto it = xs.rbegin(); it != xs.rend(); ++it)
      body = lambda(*it, body);
    return body;
  }
};

} // namespace

Program fromRise(const rise::TypedDef& def) {
  return FromRise().run(def);
}

} // namespace risec::dpia
