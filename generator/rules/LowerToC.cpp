#include "rules/LowerToC.h"

#include <algorithm>

#include "dpia/FromRise.h"
#include "rise/infer/Signatures.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"
#include "rules/RiseUtil.h"
#include "support/Diagnostic.h"

#include <set>

namespace risec::rules {

using namespace risec::rise;

namespace {

/// `prim(depArgs...)` with the types of the partial applications computed
/// from the primitive's signature.
Expr primWithDepArgs(Prim p, const std::vector<std::pair<TypeArg, bool>>& depArgs,
                     const SourceLocation& loc) {
  Type t = signature(p);
  Expr e = makePrimitive(p, loc, t);
  for (const auto& [arg, implicit] : depArgs) {
    if (t->kind() != TypeKind::DepFun)
      throw InternalError("lowerToC: too many type-level arguments for `" +
                          std::string(primName(p)) + "`");
    TypeSubst s;
    s.bind(t->binder(), arg);
    t = substitute(t->result(), s);
    e = makeDepApp(e, arg, implicit, loc, t);
  }
  return e;
}

/// Step 1: the sequential choice for every primitive that leaves one open.
class Sequentialise {
public:
  explicit Sequentialise(LowerTarget target)
      : keepParallel_(target == LowerTarget::OpenMP), keepOpenCL_(target == LowerTarget::OpenCL) {}

  std::set<const ExprNode*> fromMap; ///< the mapSeq primitives made from `map`

  Expr run(const Expr& e) {
    switch (e->kind()) {
    case ExprKind::Lambda:
      return makeLambda(e->name(), e->paramType(), run(e->body()), e->loc(), e->type());
    case ExprKind::App:
      return makeApp(run(e->fn()), run(e->arg()), e->loc(), e->type());
    case ExprKind::DepLambda:
      return makeDepLambda(e->binder(), run(e->body()), e->loc(), e->type());
    case ExprKind::DepApp:
      return depChain(e);
    default:
      return e;
    }
  }

private:
  bool keepParallel_;
  bool keepOpenCL_; ///< mapGlobal/mapWorkGroup/mapLocal kept

  Expr depChain(const Expr& e) {
    std::vector<std::pair<TypeArg, bool>> args;
    Expr head = e;
    while (head->kind() == ExprKind::DepApp) {
      args.push_back({head->typeArg(), head->implicitArg()});
      head = head->fn();
    }
    std::reverse(args.begin(), args.end());
    if (head->kind() != ExprKind::Primitive)
      return makeDepApp(run(e->fn()), e->typeArg(), e->implicitArg(), e->loc(), e->type());
    auto rebuilt = [&](Prim p, std::vector<std::pair<TypeArg, bool>> a) {
      Expr r = primWithDepArgs(p, a, head->loc());
      if (!typeEqual(r->type(), e->type()))
        throw InternalError("lowerToC: lowering `" + std::string(primName(head->prim())) +
                            "` changed its type");
      return r;
    };
    auto drop1 = [&] { return std::vector(args.begin() + 1, args.end()); };
    auto implicitAll = [](std::vector<std::pair<TypeArg, bool>> a) {
      for (auto& x : a)
        x.second = true;
      return a;
    };
    switch (head->prim()) {
    case Prim::Map: {
      Expr r = rebuilt(Prim::MapSeq, args);
      Expr prim = r;
      while (prim->kind() == ExprKind::DepApp)
        prim = prim->fn();
      fromMap.insert(prim.get());
      return r;
    }
    case Prim::MapPar:
      return keepParallel_ ? e : rebuilt(Prim::MapSeq, args);
    case Prim::MapGlobal:
    case Prim::MapWorkGroup:
    case Prim::MapLocal:
      if (keepOpenCL_)
        return e;
      return rebuilt(Prim::MapSeq, implicitAll(drop1()));
    case Prim::ReducePar:
      if (keepParallel_)
        return e;
      [[fallthrough]];
    case Prim::Reduce: // {n}{t} -> {n}{s = t}{t}
      return rebuilt(Prim::ReduceSeq, {args[0], {args[1].first, true}, args[1]});
    case Prim::OclReduceSeq:
      if (keepOpenCL_)
        return e;
      return rebuilt(Prim::ReduceSeq, implicitAll(drop1()));
    case Prim::ToGlobal:
    case Prim::ToLocal:
    case Prim::ToPrivate:
      if (keepOpenCL_)
        return e;
      return rebuilt(Prim::ToMem, args);
    case Prim::OclToMem:
      if (keepOpenCL_)
        return e;
      return rebuilt(Prim::ToMem, implicitAll(drop1()));
    default:
      return e;
    }
  }
};

/// Step 2: wraps the expressions the access analysis marked.
class InsertCopies {
public:
  explicit InsertCopies(const dpia::Repairs& r) : repairs_(r) {}

  Expr run(const Expr& e) {
    Expr r;
    switch (e->kind()) {
    case ExprKind::Lambda:
      r = makeLambda(e->name(), e->paramType(), run(e->body()), e->loc(), e->type());
      break;
    case ExprKind::App:
      r = makeApp(run(e->fn()), run(e->arg()), e->loc(), e->type());
      break;
    case ExprKind::DepLambda:
      r = makeDepLambda(e->binder(), run(e->body()), e->loc(), e->type());
      break;
    case ExprKind::DepApp:
      r = makeDepApp(run(e->fn()), e->typeArg(), e->implicitArg(), e->loc(), e->type());
      break;
    default:
      r = e;
    }
    auto it = repairs_.find(e.get());
    if (it == repairs_.end())
      return r;
    if (it->second == dpia::Repair::ViewMap)
      return makePrimitive(Prim::Map, e->loc(), signature(Prim::Map));
    if (it->second == dpia::Repair::ToMem)
      return onResult(r, [](const Expr& x) {
        return makeApp(primWithDepArgs(Prim::ToMem, {{x->type(), true}}, x->loc()), x, x->loc(),
                       x->type());
      });
    return onResult(r, copy);
  }

  /// Applies `wrap` to `e`, or, for a function, to the result of calling it
  /// (`fun(x => wrap(e(x)))`): the repair of a function written without a lambda.
  static Expr onResult(const Expr& e, const std::function<Expr(const Expr&)>& wrap) {
    const Type& t = e->type();
    if (t->kind() != TypeKind::Fun)
      return wrap(e);
    Expr x = makeVar("x", e->loc(), t->param());
    Expr body = onResult(makeApp(e, x, e->loc(), t->result()), wrap);
    return makeLambda("x", nullptr, body, e->loc(), t);
  }

private:
  const dpia::Repairs& repairs_;

  /// mapSeq(fun(x => copy(x)))(e) for an array; for a pair holding arrays
  /// let(e)(fun(p => (copy(fst(p)), copy(snd(p))))) (e is computed once);
  /// e itself otherwise (it is copied by an assignment).
  static Expr copy(const Expr& e) {
    const Type& t = e->type();
    const SourceLocation& loc = e->loc();
    if (t->kind() == TypeKind::Pair) {
      const Type &a = t->first(), &b = t->second();
      Expr p = makeVar("p", loc, t);
      Expr fst = makeApp(primWithDepArgs(Prim::Fst, {{a, true}, {b, true}}, loc), p, loc, a);
      Expr snd = makeApp(primWithDepArgs(Prim::Snd, {{a, true}, {b, true}}, loc), p, loc, b);
      Expr pair = makeApp(makeApp(primWithDepArgs(Prim::MakePair, {{a, true}, {b, true}}, loc),
                                  copy(fst), loc, funType(b, t)),
                          copy(snd), loc, t);
      Expr f = makeLambda("p", nullptr, pair, loc, funType(t, t));
      Expr let = primWithDepArgs(Prim::Let, {{t, true}, {t, true}}, loc);
      return makeApp(makeApp(let, e, loc, funType(funType(t, t), t)), f, loc, t);
    }
    if (t->kind() != TypeKind::Array)
      return e;
    Expr x = makeVar("x", loc, t->elem());
    Expr f = makeLambda("x", nullptr, copy(x), loc, funType(t->elem(), t->elem()));
    Expr map = primWithDepArgs(Prim::MapSeq,
                               {{t->size(), true}, {t->elem(), true}, {t->elem(), true}}, loc);
    Expr mapF = makeApp(map, f, loc, funType(t, t));
    return makeApp(mapF, e, loc, t);
  }
};

/// Step 3: print, re-parse and re-infer; returns nothing, throws InternalError.
void typeCheckAgain(const Program& program, const TypedDef& lowered) {
  Program p;
  for (std::size_t i = 0; i < program.foreigns.size(); ++i) {
    p.foreigns.push_back(program.foreigns[i]);
    p.order.push_back(~static_cast<int>(i));
  }
  p.defs.push_back({lowered.name, nullptr, lowered.expr, {}});
  p.order.push_back(0);
  std::string text = printProgram(p);
  try {
    Program reparsed = parseProgram(makeSourceFile("<lowerToC result>", text));
    TypedDef again = inferDef(reparsed, lowered.name);
    if (!typeEqual(again.type, lowered.type))
      throw InternalError("lowerToC changed the type of `" + lowered.name + "` from " +
                          typeToString(lowered.type) + " to " + typeToString(again.type));
  } catch (const CompileError& e) {
    throw InternalError("lowerToC produced a program that does not type-check (" + e.code() + ": " +
                        e.message() + "):\n" + text);
  }
}

} // namespace

namespace {

bool hasBetaRedex(const Expr& e) {
  switch (e->kind()) {
  case ExprKind::App:
    return e->fn()->kind() == ExprKind::Lambda || hasBetaRedex(e->fn()) || hasBetaRedex(e->arg());
  case ExprKind::DepApp:
    return hasBetaRedex(e->fn());
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    return hasBetaRedex(e->body());
  default:
    return false;
  }
}

Expr betaReduce(const Expr& e, NameSupply& names) {
  switch (e->kind()) {
  case ExprKind::App: {
    Expr f = betaReduce(e->fn(), names);
    Expr a = betaReduce(e->arg(), names);
    if (f->kind() == ExprKind::Lambda)
      return betaReduce(substitute(f->body(), f->name(), a, names), names);
    return makeApp(f, a, e->loc());
  }
  case ExprKind::DepApp:
    return makeDepApp(betaReduce(e->fn(), names), e->typeArg(), e->implicitArg(), e->loc());
  case ExprKind::Lambda:
    return makeLambda(e->name(), e->paramType(), betaReduce(e->body(), names), e->loc());
  case ExprKind::DepLambda:
    return makeDepLambda(e->binder(), betaReduce(e->body(), names), e->loc());
  default:
    return e;
  }
}

/// DPIA has no local value bindings: a lambda applied to an argument (left
/// by mapFusion or etaAbstraction, or written by the user) is reduced first.
/// The program is pure, so substituting the argument keeps its meaning.
TypedDef betaNormal(const Program& program, const TypedDef& def) {
  if (!hasBetaRedex(def.expr))
    return def;
  NameSupply names;
  Expr stripped = stripImplicit(annotateParams(def.expr));
  names.reserve(stripped);
  TypedDef out = retype(program, def.name, betaReduce(stripped, names));
  out.preconditions = def.preconditions;
  return out;
}

} // namespace

TypedDef lowerToC(const Program& program, const TypedDef& def, LowerTarget target) {
  TypedDef out = betaNormal(program, def);
  Sequentialise seq(target);
  out.expr = seq.run(out.expr);
  for (int round = 0; round < 8; ++round) {
    dpia::Repairs repairs = dpia::findRepairs(out, seq.fromMap);
    if (repairs.empty())
      break;
    out.expr = InsertCopies(repairs).run(out.expr);
  }
  typeCheckAgain(program, out);
  return out;
}

} // namespace risec::rules
