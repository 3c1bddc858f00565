#include "rules/VectorReduction.h"

#include "rules/VectorLift.h"

namespace risec::rules {

using namespace risec::rise;

/// `op` as a primitive: `add`, or `fun(a, b => a + b)`.
std::optional<Prim> binaryPrim(const Expr& op) {
  if (op->kind() == ExprKind::Primitive)
    return op->prim();
  if (op->kind() != ExprKind::Lambda || op->body()->kind() != ExprKind::Lambda)
    return std::nullopt;
  Spine s = spineOf(op->body()->body());
  if (s.head->kind() != ExprKind::Primitive || s.args.size() != 2 || !s.depArgs.empty() ||
      s.args[0]->kind() != ExprKind::Var || s.args[1]->kind() != ExprKind::Var ||
      s.args[0]->name() != op->name() || s.args[1]->name() != op->body()->name())
    return std::nullopt;
  return s.head->prim();
}

/// Whether `init` may start every lane of every vector accumulator of a
/// reduction with `p` on floats: the neutral element of add (0) and mul (1),
/// or any float literal for max and min, which are idempotent (combining
/// `init` with itself again leaves the result unchanged).
bool laneInit(Prim p, const Expr& init) {
  return partInit(p, init, true);
}

bool partInit(Prim p, const Expr& init, bool floatsOnly) {
  if ((p == Prim::Max || p == Prim::Min) && isCall(init, Prim::Neg, 1))
    return partInit(p, spineOf(init).args[0], floatsOnly); // `-3.4e38f`
  if (init->kind() != ExprKind::Literal)
    return false;
  const ScalarValue& v = init->value();
  bool isFloat = v.kind == ScalarKind::F32 || v.kind == ScalarKind::F64;
  if (floatsOnly ? !isFloat : v.kind == ScalarKind::Bool)
    return false;
  return (p == Prim::Add && v.asDouble() == 0.0) || (p == Prim::Mul && v.asDouble() == 1.0) ||
         p == Prim::Max || p == Prim::Min;
}

std::string whyNotSplittable(const Expr& op, const Expr& init) {
  std::optional<Prim> p = binaryPrim(op);
  if (!p || (*p != Prim::Add && *p != Prim::Mul && *p != Prim::Max && *p != Prim::Min))
    return "its operator is not `add`, `mul`, `max` or `min` (or a lambda applying one), the "
           "associative and commutative operators whose parts the rule may combine in any order";
  if (!laneInit(*p, init)) {
    std::string name(primName(*p));
    if (*p == Prim::Max || *p == Prim::Min)
      return "its initial value is not a floating-point literal (every part of a `" + name +
             "` reduction starts from it)";
    return std::string("its initial value is not `") + (*p == Prim::Add ? "0.0f" : "1.0f") +
           "`, the neutral element of `" + name +
           "` as a floating-point literal (every part of the reduction starts from it)";
  }
  return "";
}

namespace {

bool floatArray(const Type& t) {
  return t && t->kind() == TypeKind::Array && t->elem()->kind() == TypeKind::Scalar &&
         (t->elem()->scalar() == ScalarKind::F32 || t->elem()->scalar() == ScalarKind::F64);
}

} // namespace

bool isView(const Expr& e) {
  switch (e->kind()) {
  case ExprKind::Var:
    return true;
  case ExprKind::App: {
    Spine s = spineOf(e);
    if (s.head->kind() != ExprKind::Primitive)
      return false;
    Prim p = s.head->prim();
    if (p != Prim::Fst && p != Prim::Snd && p != Prim::Take && p != Prim::Drop &&
        p != Prim::Transpose && p != Prim::Join && p != Prim::Split && p != Prim::Zip &&
        p != Prim::Unzip)
      return false;
    for (const Expr& a : s.args)
      if (!isView(a))
        return false;
    return true;
  }
  default:
    return false;
  }
}

std::optional<Reduction> matchReduction(const Expr& e, RuleContext& ctx) {
  Spine r = spineOf(e);
  if (!isPrim(r.head, Prim::Reduce) || r.args.size() != 3 || !r.depArgs.empty())
    return std::nullopt;
  auto op = binaryPrim(r.args[0]);
  if (!op || !laneInit(*op, r.args[1]) || !r.args[2]->type())
    return std::nullopt;
  Reduction red{*op, r.args[1], {}, nullptr, "", nullptr, nullptr};
  Spine m = spineOf(r.args[2]);
  if (!isPrim(m.head, Prim::Map) || m.args.size() != 2) {
    // A plain `reduce(op)(init)(xs)`: the reduction of `map(fun(x => x))(xs)`.
    const Expr& xs = r.args[2];
    if (!floatArray(xs->type()) || !isView(xs))
      return std::nullopt;
    red.arrays = {xs};
    red.length = xs->type()->size();
    red.x = ctx.names.fresh("v");
    red.body = makeVar(red.x, {}, xs->type()->elem());
    red.liftedBody = var(red.x);
    return red;
  }
  const Expr& xs = m.args[1];
  if (isCall(xs, Prim::Zip, 2)) {
    Spine z = spineOf(xs);
    red.arrays = {z.args[0], z.args[1]};
  } else {
    red.arrays = {xs};
  }
  for (const Expr& a : red.arrays)
    if (!floatArray(a->type()) || !isView(a))
      return std::nullopt;
  red.length = red.arrays[0]->type()->size();
  const Type& out = r.args[2]->type();
  if (!floatArray(out))
    return std::nullopt;
  const Expr& f = m.args[0];
  if (f->kind() == ExprKind::Lambda) {
    red.x = f->name();
    red.body = f->body();
  } else if (f->kind() == ExprKind::Primitive && liftableToVector(f->prim()) &&
             red.arrays.size() == 1) {
    red.x = ctx.names.fresh("v");
    red.body = makeApp(f, makeVar(red.x, {}, xs->type()->elem()), {}, out->elem());
  } else {
    return std::nullopt;
  }
  if (!occursFree(red.x, red.body))
    return std::nullopt;
  auto lifted = liftToVector(red.body, red.x);
  if (!lifted)
    return std::nullopt;
  red.liftedBody = *lifted;
  return red;
}

Expr viewOfArrays(const std::vector<Expr>& arrays, Prim p, const Nat& k, std::int64_t lanes) {
  std::vector<Expr> parts;
  for (const Expr& a : arrays) {
    Expr part = app(depArg(prim(p), k), a);
    parts.push_back(lanes ? app(depNat(prim(Prim::AsVector), lanes), part) : part);
  }
  return parts.size() == 1 ? parts[0] : app(prim(Prim::Zip), parts[0], parts[1]);
}

Expr opLambda(const Reduction& red, RuleContext& ctx) {
  std::string a = ctx.names.fresh("s"), b = ctx.names.fresh("l");
  return lam(a, lam(b, app(prim(red.op), var(a), var(b))));
}

Expr vectorUpdate(const Reduction& red, const Expr& accs, const Expr& blk, RuleContext& ctx) {
  std::string q = ctx.names.fresh("q");
  Expr step = substitute(red.liftedBody, red.x, app(prim(Prim::Snd), var(q)), ctx.names);
  Expr update = lam(q, app(prim(red.op), app(prim(Prim::Fst), var(q)), step));
  return app(prim(Prim::MapSeqUnroll), update, app(prim(Prim::Zip), accs, blk));
}

Expr vectorStep(const Reduction& red, RuleContext& ctx) {
  std::string accs = ctx.names.fresh("accs"), blk = ctx.names.fresh("blk");
  return lam(accs, lam(blk, vectorUpdate(red, var(accs), var(blk), ctx)));
}

Expr vectorZeros(const Reduction& red, RuleContext& ctx) {
  std::string i = ctx.names.fresh("lane");
  return app(prim(Prim::Generate), lam(i, app(prim(Prim::VectorFromScalar), red.init)));
}

Expr laneSum(const Reduction& red, std::int64_t k, const Expr& accs, RuleContext& ctx) {
  // The k accumulators combined as vectors (split(k) makes them one row, so
  // that asScalar sees an array of one vector), then the w lanes as scalars.
  std::string row = ctx.names.fresh("row");
  Expr combine = lam(row, app(prim(Prim::ReduceSeqUnroll), opLambda(red, ctx),
                              app(prim(Prim::VectorFromScalar), red.init), var(row)));
  Expr oneVector = app(prim(Prim::MapSeqUnroll), combine, app(depNat(prim(Prim::Split), k), accs));
  return app(prim(Prim::ReduceSeqUnroll), opLambda(red, ctx), red.init,
             app(prim(Prim::AsScalar), oneVector));
}

Expr scalarStep(const Reduction& red, RuleContext& ctx) {
  std::string acc = ctx.names.fresh("acc"), y = ctx.names.fresh("y");
  Expr fy = substitute(red.body, red.x, var(y), ctx.names);
  return lam(acc, lam(y, app(prim(red.op), var(acc), fy)));
}

RuleInfo vectoriseRule(std::string name, std::size_t nparams, std::string before, std::string after,
                       std::function<RuleFn(const std::vector<std::int64_t>&)> make) {
  return RuleInfo{std::move(name),
                  "vectorise",
                  std::vector<ParamKind>(nparams, ParamKind::Int),
                  std::move(before),
                  std::move(after),
                  [nparams, make = std::move(make)](const std::vector<RuleArg>& a) {
                    std::vector<std::int64_t> ints;
                    for (std::size_t i = 0; i < nparams; ++i)
                      ints.push_back(intArg(a, i));
                    return make(ints);
                  }};
}

} // namespace risec::rules
