#include "lower/AccessAnalysis.h"

#include "dpia/FromRise.h"
#include "dpia/PhraseType.h"
#include "rise/ast/ForeignTypes.h"
#include "rise/ast/Spine.h"
#include "rise/ast/Traverse.h"
#include "rise/infer/Signatures.h"
#include "support/Diagnostic.h"

namespace risec::lower {

using dpia::Access;
using dpia::PhraseType;
using dpia::PhraseTypeKind;
using rise::Expr;
using rise::ExprKind;

namespace {

/// `e` uses a primitive that computes into memory of its own (a reduction,
/// `iterate`, `toMem`, ...): such a body cannot be applied on access, so a
/// `map` over it is never a view map (lowerToC copies its result instead).
bool storesIntoMemory(const Expr& e) {
  if (e->kind() != ExprKind::Primitive)
    return rise::anyChild(e, storesIntoMemory);
  return rise::primInfo(e->prim()).traits.storesIntoMemory;
}

/// The access of an Exp type; Rd for the other phrase types (as DPIA reads it).
Access accessOfType(const PhraseType& t) {
  return t->access();
}

/// The type of `f` applied to one argument.
PhraseType applied(const PhraseType& f) {
  if (f->kind() != PhraseTypeKind::Fun)
    throw InternalError("access analysis: applying a phrase of type " +
                        dpia::phraseTypeToString(f));
  return f->result();
}

/// Who consumes an expression: the consuming primitive, if any.
struct Consumer {
  const rise::ExprNode* head = nullptr;
  /// "`iterate` at 4:10", for diagnostics.
  std::string str() const {
    std::string what = "`" + std::string(rise::primName(head->prim())) + "`";
    const SourceLocation& l = head->loc();
    if (!l.known())
      return what;
    return what + " at " + std::to_string(l.line) + ":" + std::to_string(l.column);
  }
};

class Analysis {
public:
  Analysis(const std::set<const rise::ExprNode*>& viewableMaps, bool readViews)
      : readViews_(readViews), viewableMaps_(viewableMaps) {}

  void run(const rise::TypedDef& def) {
    dpia::Entry entry = dpia::takeEntryApart(def);
    for (const auto& [name, t] : entry.params)
      env_.push_back({name, dpia::expType(t, Access::Rd)});
    require(translate(entry.body), Access::Wr, entry.body, {});
  }

  Repairs repairs() const { return repairs_; }

private:
  bool readViews_;
  const std::set<const rise::ExprNode*>& viewableMaps_;
  Repairs repairs_;
  std::vector<std::pair<std::string, PhraseType>> env_;

  PhraseType lookup(const Expr& e) {
    for (auto it = env_.rbegin(); it != env_.rend(); ++it)
      if (it->first == e->name())
        return it->second;
    throw InternalError("access analysis: unbound variable `" + e->name() + "` at " +
                        e->loc().str());
  }

  /// Checks that `p` (the type of `src`) has the access `want`, recording the
  /// repair where it has not; returns the type after the repair.
  PhraseType require(const PhraseType& p, Access want, const Expr& src, const Consumer& consumer,
                     bool funBody = false) {
    if (!p->isExp() || p->access() == want)
      return p;
    if (want == Access::Rd) {
      const rise::ExprNode* view = readViews_ ? readableMap(src) : nullptr;
      if (view)
        repairs_[view] = Repair::ViewMap; // read from now on: as if stored, this round
      else
        repairs_[src.get()] = Repair::ToMem;
      return dpia::expType(p->data(), Access::Rd);
    }
    if (dpia::copiedByAssignment(p->data()))
      return p;
    if (funBody && viewableMaps_.count(consumer.head) && !storesIntoMemory(src) &&
        !storedThisRound(src))
      repairs_[consumer.head] = Repair::ViewMap;
    else
      repairs_[src.get()] = Repair::Copy;
    return p;
  }

  /// Whether a part of `e` is to be stored by a repair of this round (a
  /// `toMem` or a copy): then `e` stores too, and a map whose function
  /// returns it cannot be a view map (Shine's harris: `map(fun(r =>
  /// r |> map(f) |> slide(3, 1)))`, whose inner map is stored for the slide).
  bool storedThisRound(const Expr& e) const {
    auto it = repairs_.find(e.get());
    if (it != repairs_.end() && it->second != Repair::ViewMap)
      return true;
    return rise::anyChild(e, [this](const Expr& c) { return storedThisRound(c); });
  }

  /// Whether `e` can be computed where it is read: nothing in it stores
  /// (reductions, toMem, ...) or loops, except maps made from `map`, which
  /// become views in turn.
  bool computesOnAccess(const Expr& e) const {
    switch (e->kind()) {
    case ExprKind::App:
      return computesOnAccess(e->fn()) && computesOnAccess(e->arg());
    case ExprKind::DepApp:
      return computesOnAccess(e->fn());
    case ExprKind::Lambda:
    case ExprKind::DepLambda:
      return computesOnAccess(e->body());
    case ExprKind::Primitive:
      if (rise::isMapLike(e->prim()))
        return e->prim() == rise::Prim::Map || viewableMaps_.count(e.get()) > 0;
      return !storesIntoMemory(e);
    default:
      return true;
    }
  }

  /// The head of `src` when it is a `mapSeq` made from `map`, applied to its
  /// array, whose function computes on access.
  const rise::ExprNode* readableMap(const Expr& src) const {
    rise::Spine s = rise::collectSpine(src, true);
    if (s.head->kind() != ExprKind::Primitive || !viewableMaps_.count(s.head.get()) ||
        s.args.size() != 2 || !computesOnAccess(s.args[0]))
      return nullptr;
    return s.head.get();
  }

  /// Whether `head` is a `map` that may stay a view: a `map`, or a `mapSeq`
  /// that lowerToC made from one.
  bool viewableMap(const Expr& head) const {
    return head->kind() == ExprKind::Primitive &&
           (head->prim() == rise::Prim::Map || viewableMaps_.count(head.get()));
  }

  bool layoutFunction(const Expr& f) const {
    return dpia::layoutFunction(f, [this](const Expr& head) { return viewableMap(head); });
  }

  /// `map(f)(xs)` where `xs` is written and `f` a layout function: written
  /// through (the translation's `mapAcc`). Null if `f`'s body is not written.
  PhraseType writeThrough(const Expr& head, const Expr& f, const PhraseType& xs,
                          const rise::Type& t) {
    const rise::Type& elem = xs->data()->elem();
    PhraseType x = dpia::expType(elem, Access::Wr);
    PhraseType body;
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
    if (!body->isExp() || body->access() != Access::Wr)
      return nullptr;
    if (head->prim() != rise::Prim::Map)
      repairs_[head.get()] = Repair::ViewMap;
    return dpia::expType(t, Access::Wr);
  }

  PhraseType translate(const Expr& e) {
    switch (e->kind()) {
    case ExprKind::Var:
      return lookup(e);
    case ExprKind::Literal: // a scalar or an array literal: a constant
      return dpia::expType(e->isArrayLiteral() ? e->type() : rise::scalarType(e->value().kind),
                           Access::Rd);
    case ExprKind::Lambda: {
      PhraseType x = paramType(e->type()->param(), e->loc());
      env_.push_back({e->name(), x});
      PhraseType body = translate(e->body());
      env_.pop_back();
      return dpia::funPhraseType(x, body);
    }
    case ExprKind::DepLambda:
      return dpia::depFunPhraseType(e->binder(), translate(e->body()));
    default:
      break;
    }
    rise::Spine spine = rise::collectSpine(e, true);
    if (spine.depAfterValue.known())
      throw dpia::unsupported::depArgAfterValue(spine.depAfterValue);
    return translateSpine(e, spine.head, spine.depArgs, spine.args);
  }

  PhraseType paramType(const rise::Type& t, const SourceLocation& loc) {
    if (t->isData())
      return dpia::expType(t, Access::Rd);
    if (t->kind() == rise::TypeKind::Fun)
      return dpia::funPhraseType(paramType(t->param(), loc), paramType(t->result(), loc));
    throw dpia::unsupported::parameterType(t, loc);
  }

  /// The type of `f` applied to `n` arguments.
  static PhraseType applyAll(PhraseType f, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      f = applied(f);
    return f;
  }

  PhraseType translateSpine(const Expr& whole, const Expr& head,
                            const std::vector<rise::TypeArg>& depArgs, std::vector<Expr> args) {
    switch (head->kind()) {
    case ExprKind::App:
    case ExprKind::DepApp: {
      if (args.empty() && depArgs.empty())
        return translate(head);
      std::optional<rise::Spine> inner = rise::extendSpine(head, depArgs, args);
      if (!inner)
        break;
      return translateSpine(whole, inner->head, inner->depArgs, inner->args);
    }
    case ExprKind::DepLambda: {
      // an inlined polymorphic def: instantiate its type-level parameters
      PhraseType f = translate(head);
      Expr level = head;
      for (const rise::TypeArg& a : depArgs) {
        if (level->kind() != ExprKind::DepLambda)
          break;
        rise::TypeSubst s;
        s.bind(f->binder(), a);
        f = dpia::substitute(f->result(), s);
        level = level->body();
      }
      for (const Expr& a : args) {
        PhraseType p = translate(a);
        if (p->isExp())
          require(p, Access::Rd, a, {});
      }
      return applyAll(f, args.size());
    }
    case ExprKind::Primitive:
      return translatePrim(whole, head, args);
    case ExprKind::Foreign: {
      auto decl = head->foreign();
      rise::checkForeignSignature(*decl); // E0422 at the declaration
      if (args.size() != decl->params.size())
        throw dpia::unsupported::partialForeign(head->loc());
      for (const Expr& a : args)
        require(translate(a), Access::Rd, a, {});
      return dpia::expType(decl->result, Access::Rd);
    }
    case ExprKind::Lambda: {
      if (!depArgs.empty())
        break;
      if (args.empty())
        return translate(head);
      Expr a = args.front();
      PhraseType arg = translate(a);
      if (arg->isExp())
        require(arg, Access::Rd, a, {});
      PhraseType x = paramType(head->type()->param(), head->loc());
      env_.push_back({head->name(), x});
      PhraseType body =
          translateSpine(whole, head->body(), {}, std::vector<Expr>(args.begin() + 1, args.end()));
      env_.pop_back();
      return body;
    }
    case ExprKind::Var: {
      if (!depArgs.empty())
        break;
      PhraseType f = lookup(head);
      for (const Expr& a : args) {
        translate(a);
        f = applied(f);
      }
      return f;
    }
    default:
      break;
    }
    throw dpia::unsupported::applicationForm(whole, head);
  }

  PhraseType translatePrim(const Expr& whole, const Expr& head, const std::vector<Expr>& args) {
    rise::Prim p = head->prim();
    rise::PrimAccess def = rise::primAccess(p);
    std::string name(rise::primName(p));
    if (!def.defined)
      throw dpia::unsupported::noDefinition(head);
    int arity = rise::valueArity(p);
    if (static_cast<int>(args.size()) > arity)
      throw dpia::unsupported::overApplied(whole, p);
    rise::Type t = whole->type();
    std::vector<PhraseType> extra;
    for (std::size_t i = args.size(); i < static_cast<std::size_t>(arity); ++i) {
      if (t->kind() != rise::TypeKind::Fun)
        throw InternalError("access analysis: `" + name +
                            "` has a non-function type while eta-expanding");
      if (!t->param()->isData())
        throw dpia::unsupported::functionArgumentMissing(head);
      extra.push_back(dpia::expType(t->param(), Access::Rd));
      t = t->result();
    }
    PhraseType written; // the array of a map of a layout function, analysed ahead
    if (args.size() == 2 && viewableMap(head) && layoutFunction(args[0])) {
      written = translate(args[1]);
      if (written->isExp() && written->access() == Access::Wr)
        if (PhraseType w = writeThrough(head, args[0], written, whole->type()))
          return w;
    }
    Consumer consumer{head.get()};
    std::vector<PhraseType> ps;
    std::vector<std::size_t> polyArgs;
    for (std::size_t i = 0; i < static_cast<std::size_t>(arity); ++i) {
      const rise::ArgUse& spec = def.args[i];
      bool given = i < args.size();
      if (spec.kind == rise::ArgUse::Fun) {
        if (!given)
          throw InternalError("access analysis: missing function argument of `" + name + "`");
        ps.push_back(translateFun(args[i], spec, consumer));
        continue;
      }
      PhraseType a =
          given ? (i == 1 && written ? written : translate(args[i])) : extra[i - args.size()];
      if (spec.kind == rise::ArgUse::View) {
        polyArgs.push_back(i);
        ps.push_back(a);
      } else {
        ps.push_back(given ? require(a, spec.kind == rise::ArgUse::Write ? Access::Wr : Access::Rd,
                                     args[i], consumer)
                           : a);
      }
    }
    Access result = Access::Rd;
    switch (def.result) {
    case rise::PrimAccess::Result::Read:
      break;
    case rise::PrimAccess::Result::Written:
      result = Access::Wr;
      break;
    case rise::PrimAccess::Result::View: {
      // OpenCL: a map zipped with values read from memory stays a view, as
      // Shine reads it, rather than making the zip written (and the values
      // copied into private memory)
      bool anyRd = false;
      for (std::size_t i : polyArgs)
        anyRd = anyRd || (ps[i]->isExp() && ps[i]->access() == Access::Rd);
      if (readViews_ && anyRd)
        for (std::size_t i : polyArgs)
          if (i < args.size() && ps[i]->isExp() && ps[i]->access() == Access::Wr)
            if (const rise::ExprNode* view = readableMap(args[i])) {
              repairs_[view] = Repair::ViewMap;
              ps[i] = dpia::expType(ps[i]->data(), Access::Rd);
            }
      bool anyWr = false;
      for (std::size_t i : polyArgs)
        anyWr = anyWr || accessOfType(ps[i]) == Access::Wr;
      Access want = anyWr && def.writableView ? Access::Wr : Access::Rd;
      for (std::size_t i : polyArgs)
        if (i < args.size())
          ps[i] = require(ps[i], want, args[i], consumer);
      result = want;
      break;
    }
    case rise::PrimAccess::Result::FunBody: {
      PhraseType r = ps.at(def.funArg);
      while (r->kind() == PhraseTypeKind::Fun)
        r = r->result();
      result = accessOfType(r);
      break;
    }
    }
    // a mapSeq found to be a view map is read-only from now on
    auto it = repairs_.find(head.get());
    if (it != repairs_.end() && it->second == Repair::ViewMap)
      result = Access::Rd;
    PhraseType type = dpia::expType(t, result);
    for (auto x = extra.rbegin(); x != extra.rend(); ++x)
      type = dpia::funPhraseType(*x, type);
    return type;
  }

  /// A function argument: parameters Rd, body checked against spec.
  PhraseType translateFun(const Expr& e, const rise::ArgUse& spec, const Consumer& consumer) {
    if (spec.depNat) {
      if (e->kind() != ExprKind::DepLambda || e->binder().kind != rise::Kind::Nat)
        throw dpia::unsupported::depFunNotInPlace(e, consumer.str());
      rise::ArgUse inner = spec;
      inner.depNat = false;
      return dpia::depFunPhraseType(e->binder(), translateFun(e->body(), inner, consumer));
    }
    return funBody(e, spec.arity, spec, consumer);
  }

  PhraseType funBody(const Expr& e, int k, const rise::ArgUse& spec, const Consumer& consumer) {
    Access want = spec.writesBody ? Access::Wr : Access::Rd;
    if (k == 0) {
      PhraseType body = translate(e);
      return spec.anyBody ? body : require(body, want, e, consumer, true);
    }
    if (e->kind() == ExprKind::Lambda) {
      PhraseType x = paramType(e->type()->param(), e->loc());
      env_.push_back({e->name(), x});
      PhraseType body = funBody(e->body(), k - 1, spec, consumer);
      env_.pop_back();
      return dpia::funPhraseType(x, body);
    }
    // not written as a lambda: eta-expanded
    PhraseType f = translate(e);
    std::vector<PhraseType> xs;
    rise::Type t = e->type();
    for (int i = 0; i < k; ++i) {
      xs.push_back(paramType(t->param(), e->loc()));
      t = t->result();
    }
    PhraseType body = applyAll(f, xs.size());
    if (!spec.anyBody)
      body = require(body, want, e, consumer, true);
    for (auto it = xs.rbegin(); it != xs.rend(); ++it)
      body = dpia::funPhraseType(*it, body);
    return body;
  }
};

} // namespace

Repairs findRepairs(const rise::TypedDef& def, const std::set<const rise::ExprNode*>& viewableMaps,
                    bool readViews) {
  Analysis a(viewableMaps, readViews);
  a.run(def);
  return a.repairs();
}

} // namespace risec::lower
