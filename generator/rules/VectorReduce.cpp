// Vectorised reductions: `reduce(op)(init)(map(f)(xs))` (op add with 0 or mul
// with 1, f scalar arithmetic) computed with k independent vector
// accumulators of w lanes over the longest prefix of xs whose length is a
// multiple of w*k, then the lanes combined, then the remaining elements added
// one by one. GCC keeps the k accumulators (an array indexed with constants
// only, thanks to mapSeqUnroll) in registers and issues k independent vector
// FMAs per iteration; a single accumulator would be bound by the FMA latency.
//
//   vectorReduce(w, k):
//     drop(K)(xs) |> reduceSeq(fun(acc, y => op(acc)(f(y))))(
//       asVector(w)(take(K)(xs)) |> split(k)
//         |> reduceSeq(fun(accs, blk => zip(accs, blk)
//                          |> mapSeqUnroll(fun(q => op(fst(q))(f'(snd(q)))))),
//                      generate(fun(i => vectorFromScalar(init))))
//         |> split(k) |> mapSeqUnroll(reduceSeqUnroll(op)(vectorFromScalar(init)))
//         |> asScalar |> reduceSeqUnroll(op)(init))
//   where K = w*k*(n/(w*k)) and f' is f lifted to vectors.
//
//   vectorReduceChunks(w, k, c): the same vector prefix cut into chunks of c
//   blocks (K = w*k*c*(n/(w*k*c))), one partial sum per chunk in a `map`
//   (made parallel by `parallel`), the partial sums added in order, and the
//   rest left as `reduce(op)(init)(map(f)(drop(K)(xs)))` for vectorReduce.
//   The chunks do not depend on the number of threads: the result is the
//   same for every thread count.
#include "rules/Rule.h"
#include "rules/VectorLift.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

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

/// `init` is the neutral element of `p` on floats (add with 0, mul with 1).
bool neutralFloat(Prim p, const Expr& init) {
  if (init->kind() != ExprKind::Literal)
    return false;
  const ScalarValue& v = init->value();
  if (v.kind != ScalarKind::F32 && v.kind != ScalarKind::F64)
    return false;
  return (p == Prim::Add && v.asDouble() == 0.0) || (p == Prim::Mul && v.asDouble() == 1.0);
}

bool floatArray(const Type& t) {
  return t && t->kind() == TypeKind::Array && t->elem()->kind() == TypeKind::Scalar &&
         (t->elem()->scalar() == ScalarKind::F32 || t->elem()->scalar() == ScalarKind::F64);
}

/// A view of the input (no computation that the rewrite would duplicate).
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
        p != Prim::Transpose && p != Prim::Join && p != Prim::Split)
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

/// The matched `reduce(op)(init)(map(f)(xs))`, xs one float array or the zip of two.
struct Reduction {
  Prim op;
  Expr init;
  std::vector<Expr> arrays; ///< one (xs) or two (zip(a, b))
  Nat length;
  std::string x;   ///< f's parameter
  Expr body;       ///< f's body
  Expr liftedBody; ///< the body lifted to vectors
};

std::optional<Reduction> match(const Expr& e, RuleContext& ctx) {
  Spine r = spineOf(e);
  if (!isPrim(r.head, Prim::Reduce) || r.args.size() != 3 || !r.depArgs.empty())
    return std::nullopt;
  auto op = binaryPrim(r.args[0]);
  if (!op || !neutralFloat(*op, r.args[1]))
    return std::nullopt;
  Spine m = spineOf(r.args[2]);
  if (!isPrim(m.head, Prim::Map) || m.args.size() != 2 || !r.args[2]->type())
    return std::nullopt;
  Reduction red{*op, r.args[1], {}, nullptr, "", nullptr, nullptr};
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

/// `P(K)` applied to every array of the reduction, zipped again if two.
Expr viewOf(const Reduction& red, Prim p, const Nat& k, std::int64_t lanes = 0) {
  std::vector<Expr> parts;
  for (const Expr& a : red.arrays) {
    Expr part = app(depArg(prim(p), k), a);
    parts.push_back(lanes ? app(depNat(prim(Prim::AsVector), lanes), part) : part);
  }
  return parts.size() == 1 ? parts[0] : app(prim(Prim::Zip), parts[0], parts[1]);
}

/// `fun(a, b => a OP b)`.
Expr opLambda(const Reduction& red, RuleContext& ctx) {
  std::string a = ctx.names.fresh("s"), b = ctx.names.fresh("l");
  return lam(a, lam(b, app(prim(red.op), var(a), var(b))));
}

/// The sum of a `blocks.k.vec[s, w]` array: k vector accumulators, then their lanes.
Expr vectorSum(const Reduction& red, std::int64_t k, const Expr& blocks, RuleContext& ctx) {
  std::string accs = ctx.names.fresh("accs"), blk = ctx.names.fresh("blk"),
              q = ctx.names.fresh("q"), i = ctx.names.fresh("i");
  Expr step = substitute(red.liftedBody, red.x, app(prim(Prim::Snd), var(q)), ctx.names);
  Expr update = lam(q, app(prim(red.op), app(prim(Prim::Fst), var(q)), step));
  Expr op = lam(accs, lam(blk, app(prim(Prim::MapSeqUnroll), update,
                                   app(prim(Prim::Zip), var(accs), var(blk)))));
  Expr zeros = app(prim(Prim::Generate), lam(i, app(prim(Prim::VectorFromScalar), red.init)));
  Expr accumulated = app(prim(Prim::ReduceSeq), op, zeros, blocks);
  // The k accumulators combined as vectors (split(k) makes them one row, so
  // that asScalar sees an array of one vector), then the w lanes as scalars.
  std::string row = ctx.names.fresh("row");
  Expr combine = lam(row, app(prim(Prim::ReduceSeqUnroll), opLambda(red, ctx),
                              app(prim(Prim::VectorFromScalar), red.init), var(row)));
  Expr oneVector =
      app(prim(Prim::MapSeqUnroll), combine, app(depNat(prim(Prim::Split), k), accumulated));
  return app(prim(Prim::ReduceSeqUnroll), opLambda(red, ctx), red.init,
             app(prim(Prim::AsScalar), oneVector));
}

/// `fun(acc, y => acc OP f(y))`.
Expr scalarStep(const Reduction& red, RuleContext& ctx) {
  std::string acc = ctx.names.fresh("acc"), y = ctx.names.fresh("y");
  Expr fy = substitute(red.body, red.x, var(y), ctx.names);
  return lam(acc, lam(y, app(prim(red.op), var(acc), fy)));
}

RuleFn vectorReduce(std::int64_t w, std::int64_t k) {
  return [w, k](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    auto red = match(e, ctx);
    if (!red || w < 1 || k < 1)
      return std::nullopt;
    Nat len = natConst(w * k) * (red->length / (w * k));
    Expr blocks = app(depNat(prim(Prim::Split), k), viewOf(*red, Prim::Take, len, w));
    Expr prefix = vectorSum(*red, k, blocks, ctx);
    return app(prim(Prim::ReduceSeq), scalarStep(*red, ctx), prefix, viewOf(*red, Prim::Drop, len));
  };
}

RuleFn vectorReduceChunks(std::int64_t w, std::int64_t k, std::int64_t c) {
  return [w, k, c](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    auto red = match(e, ctx);
    if (!red || w < 1 || k < 1 || c < 1)
      return std::nullopt;
    Nat len = natConst(w * k * c) * (red->length / (w * k * c));
    Expr chunks = app(depNat(prim(Prim::Split), c),
                      app(depNat(prim(Prim::Split), k), viewOf(*red, Prim::Take, len, w)));
    std::string ch = ctx.names.fresh("chunk");
    Expr partials = app(prim(Prim::Map), lam(ch, vectorSum(*red, k, var(ch), ctx)), chunks);
    Expr prefix = app(prim(Prim::ReduceSeq), opLambda(*red, ctx), red->init, partials);
    std::string y = ctx.names.fresh("y");
    Expr rest = app(prim(Prim::Reduce), prim(red->op), red->init,
                    app(prim(Prim::Map), lam(y, substitute(red->body, red->x, var(y), ctx.names)),
                        viewOf(*red, Prim::Drop, len)));
    return app(prim(red->op), prefix, rest);
  };
}

} // namespace

void registerVectorReduceRules(RuleRegistry& r) {
  r.add(RuleInfo{
      "vectorReduce",
      "vectorise",
      {ParamKind::Int, ParamKind::Int},
      "map(f) >> reduce(op)(init)   (op add with 0 or mul with 1, f scalar arithmetic)",
      "k accumulators of vec[s, w] over the first w*k*(n/(w*k)) elements, their lanes "
      "combined, then reduceSeq over the rest",
      [](const std::vector<RuleArg>& a) { return vectorReduce(intArg(a, 0), intArg(a, 1)); }});
  r.add(RuleInfo{"vectorReduceChunks",
                 "vectorise",
                 {ParamKind::Int, ParamKind::Int, ParamKind::Int},
                 "map(f) >> reduce(op)(init)   (as vectorReduce)",
                 "op(map over chunks of c*w*k elements of vectorReduce's prefix sum >> "
                 "reduceSeq(op)(init), reduce(op)(init)(map(f)(the rest)))",
                 [](const std::vector<RuleArg>& a) {
                   return vectorReduceChunks(intArg(a, 0), intArg(a, 1), intArg(a, 2));
                 }});
}

} // namespace risec::rules
