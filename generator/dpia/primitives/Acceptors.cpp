// Acceptors (RISE & Shine, Listing 7): views on the memory a command writes
// into. Each transforms the access path the other way round from its
// expression counterpart (joinAcc treats a flat array as two-dimensional).
#include "dpia/primitives/Common.h"

namespace risec::dpia {

using namespace prims;
using rise::Nat;

namespace {

const PrimitiveDef& def(const char* name) {
  return *findPrimitive(name);
}

Phrase acc(const char* name, std::vector<rise::TypeArg> ts, const Phrase& a, rise::Type dt) {
  return primTyped(def(name), std::move(ts), {a}, accType(std::move(dt)), {});
}

} // namespace

Phrase idxExp(const Phrase& index, const Phrase& x) {
  const rise::Type& t = dataType(x);
  return primTyped(*findPrimitive("idx"), {t->size(), elemOf(t)}, {index, x},
                   expType(elemOf(t), Access::Rd), {});
}

Phrase idxAcc(const Phrase& index, const Phrase& a) {
  const rise::Type& t = dataType(a);
  return primTyped(def("idxAcc"), {t->size()}, {index, a}, accType(elemOf(t)), {});
}

Phrase joinAcc(const Nat& n, const Nat& m, const Phrase& a) {
  return acc("joinAcc", {n, m}, a, rise::arrayType(n, rise::arrayType(m, elemOf(dataType(a)))));
}

Phrase splitAcc(const Nat& k, const Nat& m, const Phrase& a) {
  return acc("splitAcc", {k, m}, a, rise::arrayType(m * k, elemOf(elemOf(dataType(a)))));
}

Phrase transposeAcc(const Nat& n, const Nat& m, const Phrase& a) {
  return acc("transposeAcc", {n, m}, a,
             rise::arrayType(n, rise::arrayType(m, elemOf(elemOf(dataType(a))))));
}

Phrase zipAcc1(const Phrase& a) {
  const rise::Type& t = dataType(a);
  return acc("zipAcc1", {}, a, rise::arrayType(t->size(), elemOf(t)->first()));
}

Phrase zipAcc2(const Phrase& a) {
  const rise::Type& t = dataType(a);
  return acc("zipAcc2", {}, a, rise::arrayType(t->size(), elemOf(t)->second()));
}

Phrase unzipAcc(const Phrase& a) {
  const rise::Type& t = dataType(a);
  return acc(
      "unzipAcc", {}, a,
      rise::arrayType(t->first()->size(), rise::pairType(elemOf(t->first()), elemOf(t->second()))));
}

Phrase pairAcc1(const Phrase& a) {
  return acc("pairAcc1", {}, a, dataType(a)->first());
}
Phrase pairAcc2(const Phrase& a) {
  return acc("pairAcc2", {}, a, dataType(a)->second());
}

Phrase takeAcc(const Nat& n, const Nat& m, const Phrase& a) {
  return acc("takeAcc", {n, m}, a, rise::arrayType(n, elemOf(dataType(a))));
}

Phrase dropAcc(const Nat& n, const Nat& m, const Phrase& a) {
  return acc("dropAcc", {n, m}, a, rise::arrayType(m, elemOf(dataType(a))));
}

Phrase discardTailAcc(const Nat& n, const Nat& m, const Phrase& a) {
  return acc("discardTailAcc", {n, m}, a, rise::arrayType(n + m, elemOf(dataType(a))));
}

Phrase asVectorAcc(const Nat& k, const Phrase& a) {
  const rise::Type& t = dataType(a); // m.vec[s, k]
  return acc("asVectorAcc", {k}, a, rise::arrayType(t->size() * k, elemOf(t)->elem()));
}

Phrase asScalarAcc(const Nat& k, const Phrase& a) {
  const rise::Type& t = dataType(a); // (m*k).s
  return acc("asScalarAcc", {k}, a, rise::arrayType(t->size() / k, rise::vecType(elemOf(t), k)));
}

void registerAcceptors(PrimitiveRegistry& r) {
  r.add("asVectorAcc").view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    const Nat& k = e->natArg(0);
    p.pushIndex(i % k);
    p.pushIndex(i / k);
    return e->args()[0];
  };
  r.add("asScalarAcc").view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex(), lane = p.popIndex();
    p.pushIndex(i * e->natArg(0) + lane);
    return e->args()[0];
  };
  r.add("idxAcc").view = [](const Phrase& e, Path& p) {
    p.pushIndex(p.indexOf(e->args()[0]));
    return e->args()[1];
  };
  r.add("joinAcc").view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex(), j = p.popIndex();
    p.pushIndex(i * e->natArg(1) + j);
    return e->args()[0];
  };
  r.add("splitAcc").view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    const Nat& k = e->natArg(0);
    p.pushIndex(i % k);
    p.pushIndex(i / k);
    return e->args()[0];
  };
  r.add("transposeAcc").view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex(), j = p.popIndex();
    p.pushIndex(i);
    p.pushIndex(j);
    return e->args()[0];
  };
  auto zipAcc = [](bool first) {
    return [first](const Phrase& e, Path& p) {
      Nat i = p.popIndex();
      if (first)
        p.pushFst();
      else
        p.pushSnd();
      p.pushIndex(i);
      return e->args()[0];
    };
  };
  r.add("zipAcc1").view = zipAcc(true);
  r.add("zipAcc2").view = zipAcc(false);
  r.add("unzipAcc").view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    bool fst = p.popFst();
    p.pushIndex(i);
    if (fst)
      p.pushFst();
    else
      p.pushSnd();
    return e->args()[0];
  };
  r.add("pairAcc1").view = [](const Phrase& e, Path& p) {
    p.pushFst();
    return e->args()[0];
  };
  r.add("pairAcc2").view = [](const Phrase& e, Path& p) {
    p.pushSnd();
    return e->args()[0];
  };
  r.add("takeAcc").view = [](const Phrase& e, Path&) { return e->args()[0]; };
  r.add("discardTailAcc").view = [](const Phrase& e, Path& p) {
    const Nat& i = p.elems.empty() ? Nat() : p.elems.back().index;
    if (i && !rise::proveLess(i, e->natArg(0)))
      p.writeBounds.push_back({i, e->natArg(0)});
    return e->args()[0];
  };
  r.add("dropAcc").view = [](const Phrase& e, Path& p) {
    Nat i = p.popIndex();
    p.pushIndex(i + e->natArg(0));
    return e->args()[0];
  };
}

} // namespace risec::dpia
