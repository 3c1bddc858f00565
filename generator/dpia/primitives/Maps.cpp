// mapSeq and mapSeqUnroll: a sequential loop writing element i of the output
// (RISE & Shine, Listing 8).
//   mapSeq(n, s, t, f: Exp[s, Rd] -> Exp[t, Wr], x: Exp[n.s, Rd]): Exp[n.t, Wr]
#include "dpia/primitives/Common.h"

namespace risec::dpia {

using namespace prims;

namespace {

/// A command copying the readable `v` into the acceptor `a`, element by
/// element (`origin`: the loops' comment).
Phrase copyInto(const Phrase& v, const Phrase& a, const char* origin) {
  const rise::Type& t = dataType(v);
  if (t->kind() == rise::TypeKind::Array)
    return forLoop(
        t->size(), "i",
        [&](const Phrase& i) { return copyInto(idxExp(i, v), idxAcc(i, a), origin); }, origin);
  if (t->kind() == rise::TypeKind::Pair && !copiedByAssignment(t)) {
    auto component = [&](bool first) {
      return primTyped(*findPrimitive(first ? "fst" : "snd"), {t->first(), t->second()}, {v},
                       expType(first ? t->first() : t->second(), Access::Rd), {});
    };
    return seq({copyInto(component(true), pairAcc1(a), origin),
                copyInto(component(false), pairAcc2(a), origin)});
  }
  return assign(a, v);
}

/// mapSeq(g)(rotateValues(a)(sz)(f)(x)) (Shine's iterateStream over
/// oclRotateValues) and mapSeq(g)(circularBuffer(a)(alloc)(sz)(f)(x)) (its
/// line buffer): the windows are kept in `sz` rotating values, computed
/// one step at a time, instead of all n + sz - 1 values of f at once
/// (Buffers.cpp): buf[0 .. sz-2] = f(x[0 .. sz-2]); then for each step i,
/// buf[sz-1] = f(x[i + sz - 1]), out[i] = g(buf), buf[j] = buf[j + 1]. The
/// values of rotateValues are private (registers, in Shine); a circular
/// buffer's are in its address space `a` (a row of a line buffer may not fit
/// a work-item's private memory), `sz` of them whatever its `alloc`.
Phrase rotatingWindows(Translator& t, const Phrase& e, const Phrase& out, const char* name,
                       bool unroll) {
  const Phrase& g = e->args()[0];
  const Phrase& rv = e->args()[1];
  bool circular = rv->isPrim(primitive::circularBuffer());
  // (a, sz, n, s) for rotateValues, (a, alloc, sz, n, s, t) for circularBuffer
  std::size_t first = circular ? 2 : 1;
  const rise::Nat &sz = rv->natArg(first), &n = rv->natArg(first + 1);
  const rise::Type& s = rv->dataArg(circular ? 5 : 3);
  const Phrase& f = rv->args()[0];
  rise::Type inIndex = rise::indexType(n + sz - 1), bufIndex = rise::indexType(sz);
  return t.conT(rv->args()[1], [&](const Phrase& x) {
    auto steps = [&](const Phrase& buf) {
      Phrase init = forLoop(
          sz - 1, "i",
          [&](const Phrase& i) { return t.accT(call(f, idxExp(i, x)), idxAcc(i, proj2(buf))); },
          circular ? "circularBuffer: the first values" : "rotateValues: the first values");
      Phrase loop = forLoop(
          n, "i",
          [&](const Phrase& i) {
            Phrase last = natural(sz - 1, bufIndex);
            Phrase fill = t.accT(call(f, idxExp(natural(i->nat() + sz - 1, inIndex), x)),
                                 idxAcc(last, proj2(buf)));
            Phrase use = t.accT(call(g, proj1(buf)), idxAcc(i, out));
            Phrase shift = forLoop(
                sz - 1, "j",
                [&](const Phrase& j) {
                  return copyInto(idxExp(natural(j->nat() + 1, bufIndex), proj1(buf)),
                                  idxAcc(j, proj2(buf)),
                                  circular ? "circularBuffer: shift" : "rotateValues: shift");
                },
                circular ? "circularBuffer: rotate" : "rotateValues: rotate");
            return seq({fill, use, shift});
          },
          name, unroll);
      return seq({init, loop});
    };
    Origin origin{std::nullopt, nullptr, TempRole::Buffer};
    rise::Type bufType = rise::arrayType(sz, s);
    if (circular)
      if (const auto* a = std::get_if<rise::AddrSpace>(&rv->typeArgs().at(0)))
        return newVarIn(*a, rv->loc(), bufType, "buf", steps, origin);
    return newVar(bufType, "buf", steps, rv->loc(), origin);
  });
}

void addMap(PrimitiveRegistry& r, rise::Prim p, const char* name, bool unroll) {
  PrimitiveDef& d = r.add(name, p);
  d.accT = [name, unroll](Translator& t, const Phrase& e, const Phrase& out) {
    const Phrase& f = e->args()[0];
    const rise::Nat& n = e->natArg(0);
    if (e->args()[1]->kind() == PhraseKind::Prim &&
        (e->args()[1]->isPrim(primitive::rotateValues()) ||
         e->args()[1]->isPrim(primitive::circularBuffer())))
      return rotatingWindows(t, e, out, name, unroll);
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
  map.conT = [](Translator& t, const Phrase& e, const Continuation& k) { return t.conTArgs(e, k); };
  map.view = [](const Phrase& e, Path& p) {
    rise::Nat i = p.popIndex();
    return call(e->args()[0], idxExp(natural(i, rise::indexType(e->natArg(0))), e->args()[1]));
  };
  // A written map (`Exp[n.t, Wr]`, FromRise: its array is written and its
  // function only rearranges data through writable views) is written
  // through, as Shine's DPIA translates it:
  //   accT(map(f)(xs), out) = accT(xs, mapAcc(fun(o => accT(f(hole), o)), out))
  // where accT(f(hole), o) is the acceptor for one element of xs that f's
  // views give for the element acceptor o (transposeAcc(o), joinAcc(...)):
  // the views of f translated with the writeHole primitive, whose accT is
  // the acceptor itself. A read map has no acceptor translation of its own.
  map.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    if (!e->type()->isExp() || e->type()->access() != Access::Wr) {
      if (!copiedByAssignment(dataType(e)))
        throw InternalError("accT: no rule writes a read `map` of " +
                            rise::typeToString(dataType(e)));
      return t.conT(e, [&](const Phrase& x) { return assign(out, x); });
    }
    const Phrase& f = e->args()[0];
    const Phrase& xs = e->args()[1];
    const rise::Type& s = elemOf(dataType(xs));
    Phrase hole = primTyped(*findPrimitive("writeHole"), {}, {}, expType(s, Access::Wr), e->loc());
    Phrase o = freshIdent("o", accType(elemOf(dataType(e))));
    Phrase elemAcc = t.accT(call(f, hole), o);
    if (elemAcc->type()->kind() != PhraseTypeKind::Acc)
      throw InternalError("accT: the function of a written `map` is not a layout function");
    Phrase g = lambda(o, elemAcc);
    return t.accT(xs, primTyped(*findPrimitive("mapAcc"), {e->natArg(0)}, {g, out},
                                accType(dataType(xs)), e->loc()));
  };
  // mapAcc(n, g, out): element i is written through g(out[i]).
  r.add("mapAcc").view = [](const Phrase& e, Path& p) {
    rise::Nat i = p.popIndex();
    return call(e->args()[0], idxAcc(natural(i, rise::indexType(e->natArg(0))), e->args()[1]));
  };
  // The argument of a written map's function while its acceptor is built.
  r.add("writeHole").accT = [](Translator&, const Phrase&, const Phrase& out) { return out; };

  addMap(r, rise::Prim::MapSeq, "mapSeq", false);
  addMap(r, rise::Prim::MapSeqUnroll, "mapSeqUnroll", true);
}

} // namespace risec::dpia
