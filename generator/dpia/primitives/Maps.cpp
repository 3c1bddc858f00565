// mapSeq and mapSeqUnroll: a sequential loop writing element i of the output
// (RISE & Shine, Listing 8).
//   mapSeq(n, s, t, f: Exp[s, Rd] -> Exp[t, Wr], x: Exp[n.s, Rd]): Exp[n.t, Wr]
#include "dpia/primitives/Common.h"

namespace risec::dpia {

using namespace prims;

namespace {

void addMap(PrimitiveRegistry& r, rise::Prim p, const char* name, bool unroll) {
  PrimitiveDef& d = r.add(name, p);
  d.access = {fun(1, Access::Wr), rd()};
  d.result = fixed(Access::Wr);
  d.accT = [name, unroll](Translator& t, const Phrase& e, const Phrase& out) {
    const Phrase& f = e->args()[0];
    const rise::Nat& n = e->natArg(0);
    return t.conT(e->args()[1], [&](const Phrase& x) {
      return forLoop(
          n, "i", [&](const Phrase& i) { return t.accT(call(f, idxExp(i, x)), idxAcc(i, out)); },
          name, unroll);
    });
  };
}

} // namespace

void registerMaps(PrimitiveRegistry& r) {
  // map as a read-only view: element i is f(x[i]), computed where it is read.
  // lowerToC keeps a `map` only when its function merely rearranges data.
  PrimitiveDef& map = r.add("map", rise::Prim::Map);
  map.access = {fun(1, Access::Rd), rd()};
  map.result = fixed(Access::Rd);
  map.conT = [](Translator& t, const Phrase& e, const Continuation& k) { return t.conTArgs(e, k); };
  map.view = [](const Phrase& e, Path& p) {
    rise::Nat i = p.popIndex();
    return call(e->args()[0], idxExp(natural(i, rise::indexType(e->natArg(0))), e->args()[1]));
  };

  addMap(r, rise::Prim::MapSeq, "mapSeq", false);
  addMap(r, rise::Prim::MapSeqUnroll, "mapSeqUnroll", true);
}

} // namespace risec::dpia
