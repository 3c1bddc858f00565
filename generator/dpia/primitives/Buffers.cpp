// The stretch primitives circularBuffer and rotateValues (docs/language.md,
// "Low-level primitives"): windows of `sz` consecutive values of `f` applied
// to the input, each value computed once.
//   circularBuffer(a, alloc, sz, n, s, t, f: Exp[s, Rd] -> Exp[t, Wr],
//                  x: Exp[(n + sz - 1).s, Rd]): Exp[n.sz.t, Rd]
//   rotateValues(a, sz, n, s, f: Exp[s, Rd] -> Exp[s, Wr], x): Exp[n.sz.s, Rd]
// The C back end stores all n + sz - 1 values of f in one buffer (in address
// space a: OpenCL's global memory for Shine's line buffers) and reads the
// windows as a slide view of it: the same result as a circular buffer of
// `alloc` values (or sz rotating registers), with more memory. A mapSeq
// consuming the windows, or a chain of such buffers that one consumes, keeps
// only sz rotating values per buffer (Maps.cpp, as Shine's
// iterateStream over oclRotateValues or a line buffer).
#include "dpia/primitives/Common.h"

namespace risec::dpia {

using namespace prims;
using rise::Nat;

namespace {

void addWindows(PrimitiveRegistry& r, rise::Prim p, const char* name, std::size_t szArg,
                std::size_t nArg, std::size_t tArg) {
  PrimitiveDef& d = r.add(name, p);
  d.conT = [=](Translator& t, const Phrase& e, const Continuation& k) {
    const Nat &sz = e->natArg(szArg), &n = e->natArg(nArg);
    const rise::Type& elem = e->dataArg(tArg);
    Nat count = n + sz - 1;
    return t.conT(e->args()[1], [&](const Phrase& x) {
      auto fillAndRead = [&](const Phrase& buf) {
        Phrase fill = forLoop(
            count, "i",
            [&](const Phrase& i) {
              return t.accT(call(e->args()[0], idxExp(i, x)), idxAcc(i, proj2(buf)));
            },
            name);
        Phrase windows =
            primTyped(*findPrimitive("slide"), {sz, rise::natConst(1), n - 1, elem}, {proj1(buf)},
                      expType(rise::arrayType(n, rise::arrayType(sz, elem)), Access::Rd), e->loc());
        return seq({fill, k(windows)});
      };
      // the buffer in the address space the program names (circularBuffer(a),
      // rotateValues(a): Shine's line buffer in global memory for a row that
      // does not fit a work-item's private memory)
      Origin origin{e->prim().rise, nullptr, TempRole::Buffer};
      rise::Type bufType = rise::arrayType(count, elem);
      if (const auto* a = std::get_if<rise::AddrSpace>(&e->typeArgs().at(0)))
        return newVarIn(*a, e->loc(), bufType, "buf", fillAndRead, origin);
      return newVar(bufType, "buf", fillAndRead, e->loc(), origin);
    });
  };
}

} // namespace

void registerBuffers(PrimitiveRegistry& r) {
  addWindows(r, rise::Prim::CircularBuffer, "circularBuffer", 2, 3, 5);
  addWindows(r, rise::Prim::RotateValues, "rotateValues", 1, 2, 3);
}

} // namespace risec::dpia
