// View primitives: they compute nothing, they change how memory is indexed.
// zip, unzip, split, join, transpose, makePair, concat, asVector,
// asVectorAligned and asScalar are polymorphic in the access (a Wr view is
// written through an acceptor, Listing 8); slide, reorderWithStride, padCst,
// padClamp, take, drop, idx, fst, snd, mapFst, mapSnd, generate and natValue
// are read-only. padEmpty is written only.
#include "dpia/primitives/Common.h"

namespace risec::dpia {

using namespace prims;
using rise::Nat;

namespace {

Phrase mk(const char* name, std::vector<rise::TypeArg> ts, std::vector<Phrase> args,
          rise::Type dt) {
  return primTyped(*findPrimitive(name), std::move(ts), std::move(args),
                   expType(std::move(dt), Access::Rd), {});
}

Phrase boolOp(const char* name, Phrase a, Phrase b) {
  return mk(name, {rise::scalarType(rise::ScalarKind::NatType)}, {std::move(a), std::move(b)},
            rise::scalarType(rise::ScalarKind::Bool));
}

Phrase andOp(Phrase a, Phrase b) {
  if (!a)
    return b;
  if (!b)
    return a;
  return mk("and", {}, {std::move(a), std::move(b)}, rise::scalarType(rise::ScalarKind::Bool));
}

/// The condition `lo <= i && i < hi`, leaving out what is provable; null if
/// both are provable.
Phrase inRange(const Nat& i, const Nat& lo, const Nat& hi) {
  Phrase lower = rise::proveLessEqual(lo, i) ? nullptr : boolOp("le", natural(lo), natural(i));
  Phrase upper = rise::proveLess(i, hi) ? nullptr : boolOp("lt", natural(i), natural(hi));
  return andOp(lower, upper);
}

Phrase select(Phrase cond, Phrase a, Phrase b) {
  rise::Type t = dataType(a);
  return mk("select", {t}, {std::move(cond), std::move(a), std::move(b)}, t);
}

/// idx(i, x) for a Nat index.
Phrase at(const Nat& i, const Phrase& x) {
  return idxExp(natural(i, rise::indexType(dataType(x)->size())), x);
}

/// A view (its access, Poly arguments and writability from the table's row).
PrimitiveDef& view(PrimitiveRegistry& r, const char* name, rise::Prim p) {
  PrimitiveDef& d = r.add(name, p);
  d.conT = [](Translator& t, const Phrase& e, const Continuation& k) { return t.conTArgs(e, k); };
  return d;
}

} // namespace

void registerViews(PrimitiveRegistry& r) {
  PrimitiveDef& zip = view(r, "zip", rise::Prim::Zip);
  zip.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return seq({t.accT(e->args()[0], zipAcc1(out)), t.accT(e->args()[1], zipAcc2(out))});
  };
  zip.view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    bool fst = p.popFst();
    p.pushIndex(i);
    return e->args()[fst ? 0 : 1];
  };

  PrimitiveDef& unzip = view(r, "unzip", rise::Prim::Unzip);
  unzip.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return t.accT(e->args()[0], unzipAcc(out));
  };
  unzip.view = [](const Phrase& e, Path& p) {
    bool fst = p.popFst();
    Nat i = p.popIndex();
    if (fst)
      p.pushFst();
    else
      p.pushSnd();
    p.pushIndex(i);
    return e->args()[0];
  };

  PrimitiveDef& split = view(r, "split", rise::Prim::Split);
  split.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return t.accT(e->args()[0], splitAcc(e->natArg(0), e->natArg(1), out));
  };
  split.view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex(), j = p.popIndex();
    p.pushIndex(i * e->natArg(0) + j);
    return e->args()[0];
  };

  PrimitiveDef& join = view(r, "join", rise::Prim::Join);
  join.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return t.accT(e->args()[0], joinAcc(e->natArg(0), e->natArg(1), out));
  };
  join.view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    const Nat& m = e->natArg(1);
    p.pushIndex(i % m);
    p.pushIndex(i / m);
    return e->args()[0];
  };

  PrimitiveDef& transpose = view(r, "transpose", rise::Prim::Transpose);
  transpose.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return t.accT(e->args()[0], transposeAcc(e->natArg(0), e->natArg(1), out));
  };
  transpose.view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex(), j = p.popIndex();
    p.pushIndex(i);
    p.pushIndex(j);
    return e->args()[0];
  };

  PrimitiveDef& makePair = view(r, "makePair", rise::Prim::MakePair);
  makePair.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return seq({t.accT(e->args()[0], pairAcc1(out)), t.accT(e->args()[1], pairAcc2(out))});
  };
  makePair.view = [](const Phrase& e, Path& p) { return e->args()[p.popFst() ? 0 : 1]; };

  PrimitiveDef& concat = view(r, "concat", rise::Prim::Concat);
  concat.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    const Nat &n = e->natArg(0), &m = e->natArg(1);
    return seq(
        {t.accT(e->args()[0], takeAcc(n, m, out)), t.accT(e->args()[1], dropAcc(n, m, out))});
  };
  concat.view = [](const Phrase& e, Path& p) -> Phrase {
    Nat i = p.popIndex();
    const Nat& n = e->natArg(0);
    const Phrase &a = e->args()[0], &b = e->args()[1];
    if (rise::proveLess(i, n))
      return at(i, a);
    if (rise::proveLessEqual(n, i))
      return at(i - n, b);
    return select(boolOp("lt", natural(i), natural(n)), at(i, a), at(i - n, b));
  };

  // Vectors are views too: asVector(k) groups k consecutive scalars into the
  // lanes of one vector, asScalar undoes it. A lane is one more path index.
  PrimitiveDef& asVector = view(r, "asVector", rise::Prim::AsVector);
  asVector.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return t.accT(e->args()[0], asVectorAcc(e->natArg(0), out));
  };
  asVector.view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex(), lane = p.popIndex();
    p.pushIndex(i * e->natArg(0) + lane);
    return e->args()[0];
  };
  // asVectorAligned(k) promises that the array starts at a multiple of k
  // elements; its views and acceptors are asVector's.
  PrimitiveDef& asVectorAligned = view(r, "asVectorAligned", rise::Prim::AsVectorAligned);
  asVectorAligned.accT = asVector.accT;
  asVectorAligned.view = asVector.view;
  PrimitiveDef& asScalar = view(r, "asScalar", rise::Prim::AsScalar);
  asScalar.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return t.accT(e->args()[0], asScalarAcc(e->natArg(1), out));
  };
  asScalar.view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    const Nat& k = e->natArg(1);
    p.pushIndex(i % k);
    p.pushIndex(i / k);
    return e->args()[0];
  };

  view(r, "slide", rise::Prim::Slide).view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex(), j = p.popIndex();
    p.pushIndex(i * e->natArg(1) + j);
    return e->args()[0];
  };

  // reorderWithStride(s) of (m*s) elements: element i is xs[i/m + s*(i%m)].
  view(r, "reorderWithStride", rise::Prim::ReorderWithStride).view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    const Nat &s = e->natArg(0), &m = e->natArg(1);
    p.pushIndex(i / m + s * (i % m));
    return e->args()[0];
  };

  // natValue(n): the size n as a natType value.
  view(r, "natValue", rise::Prim::NatValue).view = [](const Phrase& e, Path&) {
    return natural(e->natArg(0));
  };

  view(r, "padCst", rise::Prim::PadCst).view = [](const Phrase& e, Path& p) -> Phrase {
    Nat i = p.popIndex();
    const Nat &l = e->natArg(0), &n = e->natArg(2);
    Phrase inside = at(i - l, e->args()[1]);
    Phrase cond = inRange(i, l, l + n);
    return cond ? select(cond, inside, e->args()[0]) : inside;
  };

  view(r, "padClamp", rise::Prim::PadClamp).view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    const Nat &l = e->natArg(0), &n = e->natArg(2);
    p.pushIndex(rise::natMin(rise::natMax(i - l, rise::natConst(0)), n - 1));
    return e->args()[0];
  };

  // In acceptor position take(n) computes all of its argument and writes the
  // first n elements: the rest is discarded (a guarded write).
  PrimitiveDef& take = view(r, "take", rise::Prim::Take);
  take.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return t.accT(e->args()[0], discardTailAcc(e->natArg(0), e->natArg(1), out));
  };
  take.view = [](const Phrase& e, Path&) { return e->args()[0]; };
  // An array literal `[1.0f, 2.0f]` (FromRise.cpp): its scalars, row-major,
  // as literal arguments; the code generator reads an element as the literal
  // or, at a run-time index, from a constant array.
  PrimitiveDef& arrayLiteral = r.add("arrayLiteral", std::nullopt);
  arrayLiteral.conT = [](Translator&, const Phrase& e, const Continuation& k) { return k(e); };

  // padEmpty(r) exists only written (Shine's PadEmpty): its argument is
  // written into the first n elements of an acceptor of n + r, and the last
  // r are left alone. It has no conT and no view: a read of it, which would
  // read the padding, is refused by inference (E0314) before it gets here.
  // A read argument (the element of a map of `padEmpty(r)`, which has no
  // lambda for lowerToC to copy into) is copied element by element.
  PrimitiveDef& padEmpty = r.add("padEmpty", rise::Prim::PadEmpty);
  padEmpty.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    Phrase into = takeAcc(e->natArg(1), e->natArg(0), out);
    const Phrase& x = e->args()[0];
    if (x->type()->access() == Access::Wr)
      return t.accT(x, into);
    std::function<Phrase(const Phrase&, const Phrase&)> copy = [&](const Phrase& v,
                                                                   const Phrase& a) {
      const rise::Type& dt = dataType(v);
      if (dt->kind() != rise::TypeKind::Array)
        return t.accT(v, a);
      return forLoop(
          dt->size(), "i", [&](const Phrase& i) { return copy(idxExp(i, v), idxAcc(i, a)); },
          "padEmpty");
    };
    return t.conT(x, [&](const Phrase& v) { return copy(v, into); });
  };

  view(r, "drop", rise::Prim::Drop).view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    p.pushIndex(i + e->natArg(0));
    return e->args()[0];
  };

  view(r, "idx", rise::Prim::Idx).view = [](const Phrase& e, Path& p) {
    p.pushIndex(p.indexOf(e->args()[0]));
    return e->args()[1];
  };

  view(r, "generate", rise::Prim::Generate).view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    return call(e->args()[0], natural(i, rise::indexType(e->natArg(0))));
  };

  view(r, "fst", rise::Prim::Fst).view = [](const Phrase& e, Path& p) {
    p.pushFst();
    return e->args()[0];
  };
  view(r, "snd", rise::Prim::Snd).view = [](const Phrase& e, Path& p) {
    p.pushSnd();
    return e->args()[0];
  };

  auto mapComponent = [](bool first) {
    return [first](const Phrase& e, Path& p) -> Phrase {
      const Phrase& pair = e->args()[1];
      bool fst = p.popFst();
      const rise::Type& pt = dataType(pair);
      if (fst == first)
        return call(e->args()[0], mk(first ? "fst" : "snd", {pt->first(), pt->second()}, {pair},
                                     first ? pt->first() : pt->second()));
      if (fst)
        p.pushFst();
      else
        p.pushSnd();
      return pair;
    };
  };
  // conT applies the function once, eagerly (it may compute and store, e.g.
  // with toMem), and continues with the rebuilt pair; the view form serves
  // uses inside functions that other views apply lazily.
  auto mapComponentConT = [](bool first) {
    return [first](Translator& t, const Phrase& e, const Continuation& k) {
      return t.conT(e->args()[1], [&, first](const Phrase& pair) {
        const rise::Type& pt = dataType(pair);
        Phrase a = mk("fst", {pt->first(), pt->second()}, {pair}, pt->first());
        Phrase b = mk("snd", {pt->first(), pt->second()}, {pair}, pt->second());
        return t.conT(call(e->args()[0], first ? a : b), [&](const Phrase& y) {
          Phrase l = first ? y : a, r = first ? b : y;
          return k(mk("makePair", {dataType(l), dataType(r)}, {l, r},
                      rise::pairType(dataType(l), dataType(r))));
        });
      });
    };
  };
  PrimitiveDef& mapFst = view(r, "mapFst", rise::Prim::MapFst);
  mapFst.view = mapComponent(true);
  mapFst.conT = mapComponentConT(true);
  PrimitiveDef& mapSnd = view(r, "mapSnd", rise::Prim::MapSnd);
  mapSnd.view = mapComponent(false);
  mapSnd.conT = mapComponentConT(false);
}

} // namespace risec::dpia
