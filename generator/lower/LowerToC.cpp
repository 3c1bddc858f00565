#include "lower/LowerToC.h"

#include <algorithm>

#include "lower/AccessAnalysis.h"
#include "rise/ast/Traverse.h"
#include "rise/infer/Signatures.h"
#include "rise/print/Printer.h"
#include "rules/RiseUtil.h"
#include "support/Diagnostic.h"

#include <set>

namespace risec::lower {

using namespace risec::rise;
using namespace risec::rules;

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

/// mapSeq(fun(x => copy(x)))(e) for an array; for a pair holding arrays
/// let(e)(fun(p => (copy(fst(p)), copy(snd(p))))) (e is computed once);
/// e itself otherwise (it is copied by an assignment).
Expr copy(const Expr& e) {
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
  Expr map =
      primWithDepArgs(Prim::MapSeq, {{t->size(), true}, {t->elem(), true}, {t->elem(), true}}, loc);
  Expr mapF = makeApp(map, f, loc, funType(t, t));
  return makeApp(mapF, e, loc, t);
}

/// Whether `t` holds an array anywhere inside a pair.
bool pairHoldsArray(const Type& t) {
  if (t->kind() != TypeKind::Pair)
    return false;
  auto holds = [](const Type& c) { return c->kind() == TypeKind::Array || pairHoldsArray(c); };
  return holds(t->first()) || holds(t->second());
}

Expr toMem(const Expr& e);

/// `zip(a)(b)` stored as `zip(toMem(a))(toMem(b))` when its pairs hold
/// arrays: the C back end lays out arrays of pairs of scalars and vectors,
/// not of pairs holding arrays, and storing each side is the same store.
std::optional<Expr> storeZipBySides(const Expr& e) {
  const Type& t = e->type();
  if (e->kind() != ExprKind::App || t->kind() != TypeKind::Array || !pairHoldsArray(t->elem()))
    return std::nullopt;
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Zip) || s.args.size() != 2)
    return std::nullopt;
  const Expr &a = e->fn()->arg(), &b = e->arg();
  const SourceLocation& loc = e->loc();
  Expr zip = primWithDepArgs(
      Prim::Zip, {{t->size(), true}, {t->elem()->first(), true}, {t->elem()->second(), true}}, loc);
  return makeApp(makeApp(zip, toMem(a), loc, funType(b->type(), t)), toMem(b), loc, t);
}

/// `toMem(e)`.
Expr toMem(const Expr& e) {
  if (auto sides = storeZipBySides(e))
    return *sides;
  return makeApp(primWithDepArgs(Prim::ToMem, {{e->type(), true}}, e->loc()), e, e->loc(),
                 e->type());
}

/// let(v)(f) where v computes a scalar or a vector: v is stored once,
/// let(toMem(v))(f) (toPrivate for OpenCL), instead of being substituted
/// into every use of f's parameter (a layer norm's mean was recomputed in
/// each of its uses). Variables, literals and stored values stay as they are.
class StoreLetBoundScalars {
public:
  explicit StoreLetBoundScalars(LowerTarget target) : opencl_(target == LowerTarget::OpenCL) {}

  Expr run(const Expr& e) {
    Expr r = mapChildren(e, [this](const Expr& c) { return run(c); });
    Spine s = spineOf(r);
    if (s.head->kind() != ExprKind::Primitive || s.head->prim() != Prim::Let ||
        s.args.size() != 2 || !computed(s.args[0]))
      return r;
    const Expr& v = s.args[0];
    Prim store = opencl_ ? Prim::ToPrivate : Prim::ToMem;
    Expr stored =
        makeApp(primWithDepArgs(store, {{v->type(), true}}, v->loc()), v, v->loc(), v->type());
    return replaceChildren(r, replaceChildren(r->fn(), r->fn()->fn(), stored), r->arg());
  }

private:
  static bool computed(const Expr& v) {
    TypeKind k = v->type()->kind();
    if (k != TypeKind::Scalar && k != TypeKind::Vec)
      return false;
    if (v->kind() != ExprKind::App)
      return false; // a variable, a literal
    std::optional<Prim> p = headPrim(v);
    return !(p && primInfo(*p).traits.storesIntoMemory); // already stored once
  }

  bool opencl_;
};

/// Step 1: the sequential choice for every primitive that leaves one open.
class Sequentialise {
public:
  explicit Sequentialise(LowerTarget target)
      : keepParallel_(target == LowerTarget::OpenMP), keepOpenCL_(target == LowerTarget::OpenCL) {}

  std::set<const ExprNode*> fromMap; ///< the mapSeq primitives made from `map`

  Expr run(const Expr& e) {
    if (e->kind() == ExprKind::DepApp)
      return depChain(e);
    return mapChildren(e, [this](const Expr& c) { return run(c); });
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
    case Prim::IterateStream: // Shine's consumer of a stream: the elements in order
      return rebuilt(Prim::MapSeq, args);
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
    case Prim::Scan: // {n}{t} -> {n}{s = t}{t}, as reduce
      return rebuilt(Prim::ScanSeq, {args[0], {args[1].first, true}, args[1]});
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
    case Prim::OclIterate: // the number of steps stays written
      if (keepOpenCL_)
        return e;
      return rebuilt(Prim::Iterate, drop1());
    default:
      return e;
    }
  }
};

/// Step 1b: DPIA updates an array accumulator (of reduceSeq, reduceSeqUnroll,
/// scanSeq) in place, element by element
/// (dpia/primitives/Reduces.cpp): `acc[j] = f(acc, x)[j]` for every j in turn.
/// That computes the left fold only when element j of the new value reads
/// the accumulator at element j alone, as the operators of vectorReduce and
/// liftReduce do (`zip(acc, x) |> mapSeq(...)`). For any other operator (a
/// rotation `concat(drop(1)(acc))(take(1)(acc))`, a reduction over the
/// accumulator, ...) the new value is computed into a temporary first and
/// then copied: `fun(acc, x => copy(toMem(body)))`. (C and OpenMP; an OpenCL
/// accumulator is left as written: its copy would need an address space and
/// work-items, docs/dpia.md.)
class SeparateAccumulatorUpdates {
public:
  Expr run(const Expr& e) {
    if (e->kind() != ExprKind::App)
      return mapChildren(e, [this](const Expr& c) { return run(c); });
    Expr arg = run(e->arg());
    std::optional<Prim> p = headPrim(e);
    bool isOperator = spineOf(e).args.size() == 1 &&
                      (p == Prim::ReduceSeq || p == Prim::ReduceSeqUnroll || p == Prim::ScanSeq);
    if (isOperator)
      arg = separated(arg);
    return replaceChildren(e, run(e->fn()), arg);
  }

private:
  static bool holdsArray(const Type& t) {
    if (t->kind() == TypeKind::Array)
      return true;
    return t->kind() == TypeKind::Pair && (holdsArray(t->first()) || holdsArray(t->second()));
  }

  // The parts of the accumulator in scope are paths: `acc`, or `p.1` for the
  // first component of a map's element `p` that a zip made of an accumulator
  // row and something else (`zip(acc, x)`: `p.1` is the accumulator's
  // element, `p.2` is not).
  using Paths = std::set<std::string>;

  /// `aligned` inside the scope of a binder `x`: without the paths of x.
  static Paths without(const Paths& aligned, const std::string& x) {
    Paths inner;
    for (const std::string& a : aligned)
      if (a.substr(0, a.find('.')) != x)
        inner.insert(a);
    return inner;
  }

  static bool related(const std::string& a, const std::string& b) {
    auto prefix = [](const std::string& x, const std::string& y) {
      return y.compare(0, x.size(), x) == 0 && (y.size() == x.size() || y[x.size()] == '.');
    };
    return prefix(a, b) || prefix(b, a);
  }

  /// `fst(snd(v))` as `v.2.1`; empty if `e` is not a projection chain of a variable.
  static std::string pathOf(const Expr& e) {
    if (e->kind() == ExprKind::Var)
      return e->name();
    bool fst = isCall(e, Prim::Fst, 1);
    if (!fst && !isCall(e, Prim::Snd, 1))
      return "";
    std::string inner = pathOf(spineOf(e).args[0]);
    return inner.empty() ? "" : inner + (fst ? ".1" : ".2");
  }

  /// Whether `e` reads a part of the accumulator named in `aligned`.
  static bool mentions(const Expr& e, const Paths& aligned) {
    if (aligned.empty())
      return false;
    std::string path = pathOf(e);
    if (!path.empty()) {
      for (const std::string& a : aligned)
        if (related(a, path))
          return true;
      return false;
    }
    if (e->kind() == ExprKind::Lambda)
      return mentions(e->body(), without(aligned, e->name()));
    return anyChild(e, [&](const Expr& c) { return mentions(c, aligned); });
  }

  /// For an array `e` read element-wise: the parts of its element that are
  /// the accumulator at the element being written ("" the whole element,
  /// ".1" its first component, ...); nothing if `e` reads no accumulator;
  /// nullopt if it reads the accumulator elsewhere (a rotation, a transpose,
  /// a take of it).
  static std::optional<Paths> alignedParts(const Expr& e, const Paths& aligned) {
    if (!mentions(e, aligned))
      return Paths{};
    std::string path = pathOf(e);
    if (!path.empty()) {
      Paths parts;
      for (const std::string& a : aligned) {
        if (!related(a, path))
          continue;
        if (a.size() <= path.size())
          return Paths{""}; // the whole of e is the accumulator
        parts.insert(a.substr(path.size()));
      }
      return parts;
    }
    Spine s = spineOf(e);
    if (s.head->kind() != ExprKind::Primitive)
      return std::nullopt;
    switch (s.head->prim()) {
    case Prim::Zip: {
      if (s.args.size() != 2)
        return std::nullopt;
      auto a = alignedParts(s.args[0], aligned), b = alignedParts(s.args[1], aligned);
      if (!a || !b)
        return std::nullopt;
      Paths parts;
      for (const std::string& p : *a)
        parts.insert(".1" + p);
      for (const std::string& p : *b)
        parts.insert(".2" + p);
      return parts;
    }
    case Prim::AsVector:
    case Prim::AsVectorAligned:
      // vector j is elements [j*k, (j+1)*k): aligned with a result written
      // through asScalar (of the same width, by the types)
      return s.args.size() == 1 ? alignedParts(s.args[0], aligned) : std::nullopt;
    case Prim::ToMem:
    case Prim::ToPrivate:
    case Prim::ToLocal:
    case Prim::ToGlobal:
      return Paths{}; // computed before anything is written
    default:
      return std::nullopt;
    }
  }

  /// Whether writing `e` element by element into the accumulator position it
  /// stands for reads the accumulator (the parts in `aligned`: that position)
  /// only at the element being written.
  static bool writesAligned(const Expr& e, const Paths& aligned) {
    if (!mentions(e, aligned))
      return true;
    const Type& t = e->type();
    if (t->kind() == TypeKind::Pair)
      return false; // written one component at a time
    if (t->kind() != TypeKind::Array)
      return true; // evaluated whole, then stored
    if (auto parts = alignedParts(e, aligned); parts && parts->count(""))
      return true; // acc[j] = acc[j]
    Spine s = spineOf(e);
    if (s.head->kind() != ExprKind::Primitive)
      return false;
    if (s.head->prim() == Prim::AsScalar && s.args.size() == 1)
      return writesAligned(s.args[0], aligned); // elements [j*k, (j+1)*k) from vector j
    if ((s.head->prim() == Prim::ReduceSeq || s.head->prim() == Prim::ReduceSeqUnroll) &&
        s.args.size() == 3) {
      // reduceSeq(f)(init)(xs) copies init into an accumulator of its own, runs
      // its loop and writes the result last (dpia/primitives/Reduces.cpp): it
      // may start from the element being written (the inner fold of a blocked
      // reduction, `reduceSeq(f)(fst(p))(...)` over `zip(acc, y)`), as long as
      // neither f nor xs read the accumulator
      const Expr& init = s.args[1];
      if (mentions(s.args[0], aligned) || mentions(s.args[2], aligned))
        return false;
      std::optional<Paths> parts = alignedParts(init, aligned);
      return !mentions(init, aligned) || (parts && parts->size() == 1 && parts->count(""));
    }
    if (s.args.size() != 2)
      return false;
    if (s.head->prim() == Prim::Let) {
      // let(v)(fun(y => body)): v is computed first; y is not the accumulator
      const Expr& v = s.args[0];
      const Expr& g = s.args[1];
      if (g->kind() != ExprKind::Lambda || (mentions(v, aligned) && headPrim(v) != Prim::ToMem))
        return false;
      return writesAligned(g->body(), without(aligned, g->name()));
    }
    const Expr& f = s.args[0];
    if (!isMapLike(s.head->prim()) || f->kind() != ExprKind::Lambda || mentions(f, aligned))
      return false;
    std::optional<Paths> parts = alignedParts(s.args[1], aligned);
    if (!parts)
      return false;
    Paths inner;
    for (const std::string& p : *parts)
      inner.insert(f->name() + p);
    return writesAligned(f->body(), inner);
  }

  static Expr separated(const Expr& op) {
    const Type& t = op->type();
    if (t->kind() != TypeKind::Fun || !holdsArray(t->param()))
      return op;
    if (op->kind() == ExprKind::Lambda && op->body()->kind() == ExprKind::Lambda) {
      const Expr& inner = op->body();
      if (writesAligned(inner->body(), {op->name()}))
        return op;
      Expr body = copy(toMem(inner->body()));
      return makeLambda(
          op->name(), op->paramType(),
          makeLambda(inner->name(), inner->paramType(), body, inner->loc(), inner->type()),
          op->loc(), t);
    }
    // an operator that is not written as a lambda of two parameters
    NameSupply names;
    names.reserve(op);
    const Type& elemFn = t->result();
    std::string accName = names.fresh("acc"), xName = names.fresh("x");
    Expr a = makeVar(accName, op->loc(), t->param());
    Expr x = makeVar(xName, op->loc(), elemFn->param());
    Expr call = makeApp(makeApp(op, a, op->loc(), elemFn), x, op->loc(), elemFn->result());
    return makeLambda(accName, nullptr,
                      makeLambda(xName, nullptr, copy(toMem(call)), op->loc(), elemFn), op->loc(),
                      t);
  }
};

/// Step 2: wraps the expressions the access analysis (AccessAnalysis.h) marked.
class InsertCopies {
public:
  explicit InsertCopies(const Repairs& r) : repairs_(r) {}

  Expr run(const Expr& e) {
    Expr r = mapChildren(e, [this](const Expr& c) { return run(c); });
    auto it = repairs_.find(e.get());
    if (it == repairs_.end())
      return r;
    if (it->second == Repair::ViewMap)
      return makePrimitive(Prim::Map, e->loc(), signature(Prim::Map));
    if (it->second == Repair::ToMem)
      return onResult(r, toMem);
    return onResult(r, copy);
  }

  /// Applies `wrap` to `e`, or, for a function, to the result of calling it
  /// (`fun(x => wrap(e(x)))`): the repair of a function written without a lambda.
  /// The parameter is `x` unless `e` uses a free `x` (fuzz finding R8:
  /// `mapWorkGroup(0, map(fun(v0 => x)))` became `fun(x => x |> map(fun(v0 =>
  /// x)) ...)`, whose inner `x` was the chunk, not the input).
  static Expr onResult(const Expr& e, const std::function<Expr(const Expr&)>& wrap) {
    const Type& t = e->type();
    if (t->kind() != TypeKind::Fun)
      return wrap(e);
    std::string name = "x";
    if (occursFree(name, e)) {
      NameSupply names;
      names.reserve(e);
      name = names.fresh("x");
    }
    Expr x = makeVar(name, e->loc(), t->param());
    Expr body = onResult(makeApp(e, x, e->loc(), t->result()), wrap);
    return makeLambda(name, nullptr, body, e->loc(), t);
  }

private:
  const Repairs& repairs_;
};

/// Step 3: infer the lowered def again, from its AST (rules::retype); returns
/// nothing, throws InternalError.
void typeCheckAgain(const Program& program, const TypedDef& lowered) {
  try {
    TypedDef again = retype(program, lowered.name, lowered.expr);
    if (!typeEqual(again.type, lowered.type))
      throw InternalError("lowerToC changed the type of `" + lowered.name + "` from " +
                          typeToString(lowered.type) + " to " + typeToString(again.type));
  } catch (const CompileError& e) {
    throw InternalError("lowerToC produced a program that does not type-check (" + e.code() + ": " +
                        e.message() + "):\n" +
                        printProgram(singleDefProgram(program, lowered.name, lowered.expr)));
  }
}

} // namespace

namespace {

bool hasBetaRedex(const Expr& e) {
  if (e->kind() == ExprKind::App && e->fn()->kind() == ExprKind::Lambda)
    return true;
  return anyChild(e, hasBetaRedex);
}

/// The result is re-inferred (betaNormal): the types it keeps are not read.
Expr betaReduce(const Expr& e, NameSupply& names) {
  if (e->kind() != ExprKind::App)
    return mapChildren(e, [&](const Expr& c) { return betaReduce(c, names); });
  Expr f = betaReduce(e->fn(), names);
  Expr a = betaReduce(e->arg(), names);
  if (f->kind() == ExprKind::Lambda)
    return betaReduce(substitute(f->body(), f->name(), a, names), names);
  return makeApp(f, a, e->loc());
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

bool hasLetOfAFunctionWithoutLambda(const Expr& e) {
  Spine s = spineOf(e);
  if (isPrim(s.head, Prim::Let) && s.args.size() == 2 && s.args[1]->kind() != ExprKind::Lambda)
    return true;
  return anyChild(e, hasLetOfAFunctionWithoutLambda);
}

Expr etaExpandLets(const Expr& e, NameSupply& names) {
  Expr r = mapChildren(e, [&](const Expr& c) { return etaExpandLets(c, names); });
  Spine s = spineOf(r);
  if (!isPrim(s.head, Prim::Let) || s.args.size() != 2 || s.args[1]->kind() == ExprKind::Lambda)
    return r;
  std::string x = names.fresh("x");
  return app(prim(Prim::Let), s.args[0], lam(x, app(s.args[1], var(x))));
}

/// `let(v)(f)` with f not written as a lambda (`let(v)(concat(a))`, left by
/// etaReduction) becomes `let(v)(fun(x => f(x)))`: the access analysis
/// follows the stored value through a lambda's parameter, and without one
/// missed that `concat` writes it (fuzz finding R13: "accT: no rule writes
/// Exp[2.f32, Rd]", an internal error).
TypedDef etaExpandLetFunctions(const Program& program, const TypedDef& def) {
  if (!hasLetOfAFunctionWithoutLambda(def.expr))
    return def;
  NameSupply names;
  Expr stripped = stripImplicit(annotateParams(def.expr));
  names.reserve(stripped);
  TypedDef out = retype(program, def.name, etaExpandLets(stripped, names));
  out.preconditions = def.preconditions;
  return out;
}

/// Whether `f` computes: it reduces, scans, iterates or stores (a
/// primitive that writes its result into memory), rather than only
/// rearranging or combining the values it reads.
bool computes(const Expr& f) {
  if (f->kind() == ExprKind::Primitive)
    return primInfo(f->prim()).traits.storesIntoMemory;
  return anyChild(f, computes);
}

/// Step 0: `map`s that a tree of zips hands, element by element, to a
/// sequential map are computed in that loop:
///   zip(map(f)(a), b) |> mapSeq(g)
///     -> zip(a, b) |> mapSeq(fun(p => g(makePair(f(fst(p)), snd(p)))))
/// for each `map` among the zips' leaves whose function computes (a
/// reduction, ...). Otherwise the access analysis stores the whole zipped
/// array first (the map's results are written, the loop reads them): a
/// temporary of the array's size, which in an OpenCL work-item is private
/// memory of symbolic size (E0631; the three sums of Shine's
/// harrisBufferedSplitPar, zipped and read by its output loop). The program
/// is pure, so computing each element where it is read gives the same
/// values; each element is read once by the loop over the zip.
class FuseZippedMaps {
public:
  explicit FuseZippedMaps(NameSupply& names) : names_(names) {}

  Expr run(const Expr& e) {
    Expr r = mapChildren(e, [this](const Expr& c) { return run(c); });
    Spine s = spineOf(r);
    if (s.args.size() != 2 ||
        !(isPrim(s.head, Prim::MapSeq) || isPrim(s.head, Prim::IterateStream)))
      return r;
    if (!isPrim(spineOf(s.args[1]).head, Prim::Zip))
      return r;
    std::string p = names_.fresh("p");
    bool fused = false;
    auto [input, element] = split(s.args[1], var(p), fused);
    if (!fused)
      return r;
    const Expr& g = s.args[0];
    Expr body = g->kind() == ExprKind::Lambda
                    ? projected(substitute(g->body(), g->name(), element, names_))
                    : app(g, element);
    return app(prim(*headPrim(r)), lam(p, body), input);
  }

private:
  NameSupply& names_;

  /// `e` with `fst(makePair(a, b))` as `a` and `snd(makePair(a, b))` as `b`:
  /// the loop's function reads the components of the element it is given,
  /// and a pair built only to be taken apart would compute both components
  /// for each projection.
  static Expr projected(const Expr& e) {
    Expr r = mapChildren(e, projected);
    Spine s = spineOf(r);
    bool fst = isPrim(s.head, Prim::Fst);
    if ((!fst && !isPrim(s.head, Prim::Snd)) || s.args.size() != 1)
      return r;
    Spine pair = spineOf(s.args[0]);
    if (!isPrim(pair.head, Prim::MakePair) || pair.args.size() != 2)
      return r;
    return pair.args[fst ? 0 : 1];
  }

  /// For an array `z` read at an element `x`: the array the loop reads
  /// instead, and the element of `z` in terms of that array's element.
  std::pair<Expr, Expr> split(const Expr& z, const Expr& x, bool& fused) {
    Spine s = spineOf(z);
    if (isPrim(s.head, Prim::Zip) && s.args.size() == 2) {
      auto [a, ea] = split(s.args[0], app(prim(Prim::Fst), x), fused);
      auto [b, eb] = split(s.args[1], app(prim(Prim::Snd), x), fused);
      return {app(prim(Prim::Zip), a, b), app(prim(Prim::MakePair), ea, eb)};
    }
    if (isPrim(s.head, Prim::Map) && s.args.size() == 2 && computes(s.args[0])) {
      fused = true;
      return {s.args[1], app(s.args[0], x)};
    }
    return {z, x};
  }
};

TypedDef fuseZippedMaps(const Program& program, const TypedDef& def) {
  NameSupply names;
  Expr stripped = stripImplicit(annotateParams(def.expr));
  names.reserve(stripped);
  Expr fused = FuseZippedMaps(names).run(stripped);
  if (fused == stripped)
    return def;
  TypedDef out = retype(program, def.name, fused);
  out.preconditions = def.preconditions;
  return out;
}

} // namespace

TypedDef lowerToC(const Program& program, const TypedDef& def, LowerTarget target) {
  TypedDef out = betaNormal(program, etaExpandLetFunctions(program, fuseZippedMaps(program, def)));
  out.expr = StoreLetBoundScalars(target).run(out.expr);
  Sequentialise seq(target);
  out.expr = seq.run(out.expr);
  if (target != LowerTarget::OpenCL)
    out.expr = SeparateAccumulatorUpdates().run(out.expr);
  for (int round = 0; round < 8; ++round) {
    Repairs repairs = findRepairs(out, seq.fromMap, target == LowerTarget::OpenCL);
    if (repairs.empty())
      break;
    out.expr = InsertCopies(repairs).run(out.expr);
  }
  typeCheckAgain(program, out);
  return out;
}

} // namespace risec::lower
