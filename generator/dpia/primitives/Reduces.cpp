// reduceSeq, reduceSeqUnroll and scanSeq: an accumulator variable updated in a
// sequential loop (RISE & Shine, Listing 9).
//   reduceSeq(n, s, t, f: Exp[t, Rd] -> Exp[s, Rd] -> Exp[t, Wr],
//             init: Exp[t, Wr], x: Exp[n.s, Rd]): Exp[t, Rd]
//   scanSeq(n, s, t, f, init, x): Exp[n.t, Wr]
#include "dpia/primitives/Common.h"

namespace risec::dpia {

using namespace prims;

namespace {

bool pairOfScalars(const rise::Type& t) {
  if (t->kind() == rise::TypeKind::Pair)
    return pairOfScalars(t->first()) && pairOfScalars(t->second());
  return t->kind() == rise::TypeKind::Scalar;
}

/// `acc := f(acc, x)`. A scalar accumulator is assigned directly. A pair is
/// written one component at a time, so a later component would read the
/// new value of an earlier one (`(snd(acc), fst(acc))`, `select(c, x, acc)`):
/// the new value of a pair of scalars is computed into a temporary `next`
/// first and then copied.
Phrase update(Translator& t, const rise::Type& acc, const Phrase& f, const Phrase& v,
              const Phrase& x) {
  if (acc->kind() != rise::TypeKind::Pair || !pairOfScalars(acc))
    return t.accT(call(f, proj1(v), x), proj2(v));
  return newVar(acc, "next", [&](const Phrase& next) {
    return seq({t.accT(call(f, proj1(v), x), proj2(next)), assign(proj2(v), proj1(next))});
  });
}

/// `out := value` for the stored value of a variable: an array element by
/// element (scanSeq writes its array accumulator after every step).
Phrase copyInto(Translator& t, const rise::Type& dt, const Phrase& value, const Phrase& out) {
  if (dt->kind() != rise::TypeKind::Array)
    return t.accT(value, out);
  return forLoop(
      dt->size(), "j",
      [&](const Phrase& j) { return copyInto(t, dt->elem(), idxExp(j, value), idxAcc(j, out)); },
      "scanSeq");
}

/// `ocl`: oclReduceSeq(a), whose first type argument is the accumulator's
/// OpenCL address space.
void addReduce(PrimitiveRegistry& r, rise::Prim p, const char* name, bool unroll,
               bool ocl = false) {
  PrimitiveDef& d = r.add(name, p);
  d.conT = [name, unroll, ocl](Translator& t, const Phrase& e, const Continuation& k) {
    const Phrase& f = e->args()[0];
    std::size_t first = ocl ? 1 : 0;
    const rise::Nat& n = e->natArg(first);
    const rise::Type& acc = e->dataArg(first + 2);
    const auto* space = ocl ? std::get_if<rise::AddrSpace>(&e->typeArgs().at(0)) : nullptr;
    return t.conT(e->args()[2], [&](const Phrase& x) {
      auto make = [&](const std::function<Phrase(const Phrase&)>& body) {
        Origin origin{e->prim().rise, nullptr, TempRole::Accumulator};
        return space ? newVarIn(*space, e->loc(), acc, "acc", body, origin)
                     : newVar(acc, "acc", body, e->loc(), origin);
      };
      return make([&](const Phrase& v) {
        return seq({t.accT(e->args()[1], proj2(v)),
                    forLoop(
                        n, "i", [&](const Phrase& i) { return update(t, acc, f, v, idxExp(i, x)); },
                        name, unroll),
                    k(proj1(v))});
      });
    });
  };
}

} // namespace

void registerReduces(PrimitiveRegistry& r) {
  addReduce(r, rise::Prim::ReduceSeq, "reduceSeq", false);
  addReduce(r, rise::Prim::ReduceSeqUnroll, "reduceSeqUnroll", true);
  addReduce(r, rise::Prim::OclReduceSeq, "oclReduceSeq", false, true);

  PrimitiveDef& scan = r.add("scanSeq", rise::Prim::ScanSeq);
  scan.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    const Phrase& f = e->args()[0];
    const rise::Nat& n = e->natArg(0);
    return t.conT(e->args()[2], [&](const Phrase& x) {
      auto scan = [&](const Phrase& v) {
        return seq({t.accT(e->args()[1], proj2(v)),
                    forLoop(
                        n, "i",
                        [&](const Phrase& i) {
                          return seq({update(t, e->dataArg(2), f, v, idxExp(i, x)),
                                      copyInto(t, e->dataArg(2), proj1(v), idxAcc(i, out))});
                        },
                        "scanSeq")});
      };
      return newVar(e->dataArg(2), "acc", scan, e->loc(),
                    Origin{e->prim().rise, nullptr, TempRole::Accumulator});
    });
  };
}

} // namespace risec::dpia
