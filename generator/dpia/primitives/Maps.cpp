// mapSeq and mapSeqUnroll: a sequential loop writing element i of the output
// (RISE & Shine, Listing 8).
//   mapSeq(n, s, t, f: Exp[s, Rd] -> Exp[t, Wr], x: Exp[n.s, Rd]): Exp[n.t, Wr]
#include "dpia/primitives/Common.h"

#include <functional>

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

/// A sequence of windows read once each, in order, by a sequential loop:
/// `init` comes before the loop, and `at(i, use)` makes window i readable to
/// `use` (i = 0, 1, 2, ... in turn, each once).
struct WindowStream {
  Phrase init;
  std::function<Phrase(const rise::Nat&, const std::function<Phrase(const Phrase&)>&)> at;
};

bool isWindowBuffer(const Phrase& p) {
  return p->kind() == PhraseKind::Prim &&
         (p->isPrim(primitive::rotateValues()) || p->isPrim(primitive::circularBuffer()));
}

/// The elements of `x` as a stream for `body`. Where `x` is itself a
/// rotateValues or circularBuffer (Shine's chain of line buffers: Harris's
/// gray rows read by the buffer of its Ix/Iy rows), its windows are kept in
/// `sz` rotating values, each computed when the loop first reads it: its
/// first sz - 1 values before, then for window i, buf[sz-1] = f(x[i + sz - 1]),
/// the window read, and buf[j] = buf[j + 1] after. A chain of buffers
/// streams the same way at every level. Any other array is read in place.
Phrase withWindowStream(Translator& t, const Phrase& x,
                        const std::function<Phrase(const WindowStream&)>& body) {
  if (!isWindowBuffer(x))
    return t.conT(x, [&](const Phrase& xs) {
      rise::Type index = rise::indexType(dataType(xs)->size());
      WindowStream s{
          skip(), [xs, index](const rise::Nat& i, const std::function<Phrase(const Phrase&)>& use) {
            return use(idxExp(natural(i, index), xs));
          }};
      return body(s);
    });
  bool circular = x->isPrim(primitive::circularBuffer());
  // (a, sz, n, s) for rotateValues, (a, alloc, sz, n, s, t) for circularBuffer
  std::size_t first = circular ? 2 : 1;
  const rise::Nat& sz = x->natArg(first);
  const rise::Type& s = x->dataArg(circular ? 5 : 3);
  const Phrase& f = x->args()[0];
  rise::Type bufIndex = rise::indexType(sz);
  const char* initName =
      circular ? "circularBuffer: the first values" : "rotateValues: the first values";
  const char* shiftName = circular ? "circularBuffer: shift" : "rotateValues: shift";
  const char* rotateName = circular ? "circularBuffer: rotate" : "rotateValues: rotate";
  return withWindowStream(t, x->args()[1], [&](const WindowStream& in) {
    auto windows = [&](const Phrase& buf) {
      Phrase prologue = forLoop(
          sz - 1, "i",
          [&](const Phrase& i) {
            return in.at(i->nat(), [&](const Phrase& v) {
              return t.accT(call(f, v), idxAcc(i, proj2(buf)));
            });
          },
          initName);
      WindowStream out{seq({in.init, prologue}),
                       [&t, &in, f, buf, sz, bufIndex, shiftName, rotateName](
                           const rise::Nat& i, const std::function<Phrase(const Phrase&)>& use) {
                         Phrase fill = in.at(i + sz - 1, [&](const Phrase& v) {
                           return t.accT(call(f, v), idxAcc(natural(sz - 1, bufIndex), proj2(buf)));
                         });
                         Phrase shift = forLoop(
                             sz - 1, "j",
                             [&](const Phrase& j) {
                               return copyInto(idxExp(natural(j->nat() + 1, bufIndex), proj1(buf)),
                                               idxAcc(j, proj2(buf)), shiftName);
                             },
                             rotateName);
                         return seq({fill, use(proj1(buf)), shift});
                       }};
      return body(out);
    };
    Origin origin{std::nullopt, nullptr, TempRole::Buffer};
    rise::Type bufType = rise::arrayType(sz, s);
    if (circular)
      if (const auto* a = std::get_if<rise::AddrSpace>(&x->typeArgs().at(0)))
        return newVarIn(*a, x->loc(), bufType, "buf", windows, origin);
    return newVar(bufType, "buf", windows, x->loc(), origin);
  });
}

/// mapSeq(g)(rotateValues(a)(sz)(f)(x)) (Shine's iterateStream over
/// oclRotateValues) and mapSeq(g)(circularBuffer(a)(alloc)(sz)(f)(x)) (its
/// line buffer): the windows are kept in `sz` rotating values, computed
/// one step at a time (withWindowStream), instead of all n + sz - 1 values
/// of f at once (Buffers.cpp). The values of rotateValues are private
/// (registers, in Shine); a circular buffer's are in its address space `a`
/// (a row of a line buffer may not fit a work-item's private memory), `sz`
/// of them whatever its `alloc`.
Phrase rotatingWindows(Translator& t, const Phrase& e, const Phrase& out, const char* name,
                       bool unroll) {
  const Phrase& g = e->args()[0];
  return withWindowStream(t, e->args()[1], [&](const WindowStream& windows) {
    Phrase loop = forLoop(
        e->natArg(0), "i",
        [&](const Phrase& i) {
          return windows.at(i->nat(),
                            [&](const Phrase& w) { return t.accT(call(g, w), idxAcc(i, out)); });
        },
        name, unroll);
    return seq({windows.init, loop});
  });
}

void addMap(PrimitiveRegistry& r, rise::Prim p, const char* name, bool unroll) {
  PrimitiveDef& d = r.add(name, p);
  d.accT = [name, unroll](Translator& t, const Phrase& e, const Phrase& out) {
    const Phrase& f = e->args()[0];
    const rise::Nat& n = e->natArg(0);
    if (isWindowBuffer(e->args()[1]))
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
