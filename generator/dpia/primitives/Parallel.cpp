// The OpenMP primitives mapPar and reducePar, and the parallel loop commands
// they translate to (dpia/Parallel.h).
//   mapPar(n, s, t, f: Exp[s, Rd] -> Exp[t, Wr], x: Exp[n.s, Rd]): Exp[n.t, Wr]
//   reducePar(n, t, f: Exp[t, Rd] -> Exp[t, Rd] -> Exp[t, Wr],
//             init: Exp[t, Wr], x: Exp[n.t, Rd]): Exp[t, Rd]
#include "dpia/Parallel.h"

#include "dpia/primitives/Common.h"

#include <map>

namespace risec::dpia {

using namespace prims;

namespace {

const PrimitiveDef& def(const char* name) {
  return *findPrimitive(name);
}

bool holdsArrayType(const rise::Type& t) {
  switch (t->kind()) {
  case rise::TypeKind::Array:
  case rise::TypeKind::Vec:
    return true;
  case rise::TypeKind::Pair:
    return holdsArrayType(t->first()) || holdsArrayType(t->second());
  default:
    return false;
  }
}

/// A vector the C back end computes as one value, so that its partial
/// results are values too: a power-of-two width from 2 lanes, non-bool (the
/// rule of codegen/c/EmitVectors.h; other vectors are arrays of lanes).
bool simdVector(const rise::Type& t) {
  if (t->kind() != rise::TypeKind::Vec || !t->size()->isConst() ||
      t->elem()->kind() != rise::TypeKind::Scalar || t->elem()->scalar() == rise::ScalarKind::Bool)
    return false;
  std::int64_t w = t->size()->value();
  return w >= 2 && w <= 64 && (w & (w - 1)) == 0;
}

Phrase loopIndex(const rise::Nat& n, rise::Nat& i) {
  i = rise::natVar("i", rise::natConst(0), n);
  return natural(i, rise::indexType(n));
}

/// The OpenMP reduction operator of a reduction function `fun(a => fun(b =>
/// op(a, b)))` on a numeric scalar, or "" when it has none.
std::string reductionOperator(const Phrase& f, const rise::Type& t) {
  if (t->kind() != rise::TypeKind::Scalar || t->scalar() == rise::ScalarKind::Bool)
    return "";
  if (f->kind() != PhraseKind::Lambda || f->body()->kind() != PhraseKind::Lambda)
    return "";
  const Phrase& a = f->param();
  const Phrase& b = f->body()->param();
  const Phrase& op = f->body()->body();
  if (op->kind() != PhraseKind::Prim || op->args().size() != 2)
    return "";
  static const std::map<std::string, std::string> clauses = {
      {"add", "+"}, {"mul", "*"}, {"min", "min"}, {"max", "max"}};
  auto it = clauses.find(op->primName());
  if (it == clauses.end())
    return "";
  auto is = [](const Phrase& x, const Phrase& id) {
    return x->kind() == PhraseKind::Ident && x->id() == id->id();
  };
  const Phrase &x = op->args()[0], &y = op->args()[1];
  return (is(x, a) && is(y, b)) || (is(x, b) && is(y, a)) ? it->second : "";
}

} // namespace

Phrase parFor(const rise::Nat& n, const std::function<Phrase(const Phrase& i)>& body,
              const std::string& tag, Origin origin) {
  rise::Nat i;
  Phrase index = loopIndex(n, i);
  return primTyped(def("parFor"), {n, i}, {body(index)}, commType(), {}, tag, std::move(origin));
}

Phrase parForReduce(const rise::Nat& n, const std::function<Phrase(const Phrase& i)>& body,
                    const Phrase& acc, const std::string& op) {
  rise::Nat i;
  Phrase index = loopIndex(n, i);
  return primTyped(def("parForReduce"), {n, i}, {body(index), acc}, commType(), {}, op);
}

Phrase parForCombine(const rise::Nat& n, const std::function<Phrase(const Phrase& i)>& step,
                     const std::function<Phrase(const Phrase& i)>& first, const Phrase& combine,
                     const Phrase& part) {
  rise::Nat i;
  Phrase index = loopIndex(n, i);
  return primTyped(def("parForCombine"), {n, i}, {step(index), first(index), combine, part},
                   commType(), {}, "reducePar");
}

bool isParallelLoop(const Phrase& c) {
  return c->isPrim(primitive::parFor()) || c->isPrim(primitive::parForReduce()) ||
         c->isPrim(primitive::parForCombine());
}

bool isLoop(const Phrase& c) {
  return c->isPrim(primitive::forLoop()) || isParallelLoop(c);
}

void registerParallel(PrimitiveRegistry& r) {
  r.add("parFor");
  r.add("parForReduce");
  r.add("parForCombine");

  PrimitiveDef& map = r.add("mapPar", rise::Prim::MapPar);
  map.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    const Phrase& f = e->args()[0];
    return t.conT(e->args()[1], [&](const Phrase& x) {
      return parFor(
          e->natArg(0),
          [&](const Phrase& i) { return t.accT(call(f, idxExp(i, x)), idxAcc(i, out)); }, "mapPar",
          Origin{e->prim().rise, nullptr});
    });
  };

  // OpenCL (docs/dpia.md, "OpenCL"): mapGlobal/mapWorkGroup/mapLocal(d) are
  // parFor loops tagged with the primitive and its dimension, e.g.
  // `mapLocal(0)`, and with both as their origin (dpia/Origin.h); the OpenCL
  // back end prints them as grid-stride loops.
  for (auto [name, prim] : {std::pair{"mapGlobal", rise::Prim::MapGlobal},
                            std::pair{"mapWorkGroup", rise::Prim::MapWorkGroup},
                            std::pair{"mapLocal", rise::Prim::MapLocal}}) {
    PrimitiveDef& ocl = r.add(name, prim);
    ocl.accT = [name = std::string(name)](Translator& t, const Phrase& e, const Phrase& out) {
      const Phrase& f = e->args()[0];
      std::string origin = name + "(" + rise::natToString(e->natArg(0)) + ")";
      return t.conT(e->args()[1], [&](const Phrase& x) {
        return parFor(
            e->natArg(1),
            [&](const Phrase& i) { return t.accT(call(f, idxExp(i, x)), idxAcc(i, out)); }, origin,
            Origin{e->prim().rise, e->natArg(0)});
      });
    };
  }

  PrimitiveDef& reduce = r.add("reducePar", rise::Prim::ReducePar);
  reduce.conT = [](Translator& t, const Phrase& e, const Continuation& k) {
    const Phrase& f = e->args()[0];
    const rise::Nat& n = e->natArg(0);
    const rise::Type& dt = e->dataArg(1);
    if (holdsArrayType(dt) && !simdVector(dt))
      throw CompileError("E0621", e->loc(),
                         "`reducePar` on a value of type `" + rise::typeToString(dt) +
                             "` is not supported by the OpenMP back end: its partial results "
                             "would be arrays; use a scalar (or pair of scalars) accumulator");
    std::string op = reductionOperator(f, dt);
    return t.conT(e->args()[2], [&](const Phrase& x) {
      return newVar(
          dt, "acc",
          [&](const Phrase& acc) {
            Phrase loop;
            if (!op.empty()) {
              loop = parForReduce(
                  n,
                  [&](const Phrase& i) {
                    return t.accT(call(f, proj1(acc), idxExp(i, x)), proj2(acc));
                  },
                  acc, op);
            } else {
              Phrase part =
                  freshIdent("part", pairPhraseType(expType(dt, Access::Rd), accType(dt)));
              loop = parForCombine(
                  n,
                  [&](const Phrase& i) {
                    return t.accT(call(f, proj1(part), idxExp(i, x)), proj2(part));
                  },
                  [&](const Phrase& i) { return t.accT(idxExp(i, x), proj2(part)); },
                  t.accT(call(f, proj1(acc), proj1(part)), proj2(acc)), part);
            }
            return seq({t.accT(e->args()[1], proj2(acc)), loop, k(proj1(acc))});
          },
          {}, Origin{std::nullopt, nullptr, TempRole::Accumulator});
    });
  };
}

} // namespace risec::dpia
