#include "dpia/Primitive.h"

#include "support/Diagnostic.h"

#include <deque>
#include <map>

namespace risec::dpia {

namespace {

struct Registry {
  std::deque<PrimitiveDef> defs; // stable addresses
  std::map<std::string, const PrimitiveDef*> byName;
  std::map<rise::Prim, const PrimitiveDef*> byRise;
};

Registry* building = nullptr;

} // namespace

PrimitiveDef& PrimitiveRegistry::add(std::string name, std::optional<rise::Prim> rise) {
  Registry& r = *building;
  if (r.byName.count(name))
    throw InternalError("DPIA primitive `" + name + "` registered twice");
  r.defs.push_back({});
  PrimitiveDef& d = r.defs.back();
  d.name = name;
  d.rise = rise;
  r.byName[name] = &d;
  if (rise)
    r.byRise[*rise] = &d;
  return d;
}

namespace {
Registry& built() {
  static Registry* r = [] {
    auto* reg = new Registry;
    building = reg;
    PrimitiveRegistry adder;
    registerMaps(adder);
    registerReduces(adder);
    registerViews(adder);
    registerMemory(adder);
    registerScalars(adder);
    registerIterate(adder);
    registerImperative(adder);
    registerAcceptors(adder);
    registerBuffers(adder);
    registerParallel(adder);
    building = nullptr;
    return reg;
  }();
  return *r;
}
} // namespace

const PrimitiveDef* findPrimitive(const std::string& name) {
  Registry& r = built();
  auto it = r.byName.find(name);
  return it == r.byName.end() ? nullptr : it->second;
}

namespace {
const PrimitiveDef& handle(const std::string& name) {
  const PrimitiveDef* d = findPrimitive(name);
  if (!d)
    throw InternalError("DPIA primitive `" + name + "` is not registered");
  return *d;
}
} // namespace

namespace primitive {
const PrimitiveDef& barrier() {
  static const PrimitiveDef& d = handle("barrier");
  return d;
}
const PrimitiveDef& discardTailAcc() {
  static const PrimitiveDef& d = handle("discardTailAcc");
  return d;
}
const PrimitiveDef& forLoop() {
  static const PrimitiveDef& d = handle("for");
  return d;
}
const PrimitiveDef& foreign() {
  static const PrimitiveDef& d = handle("foreign");
  return d;
}
const PrimitiveDef& indexAsNat() {
  static const PrimitiveDef& d = handle("indexAsNat");
  return d;
}
const PrimitiveDef& natAsIndex() {
  static const PrimitiveDef& d = handle("natAsIndex");
  return d;
}
const PrimitiveDef& newVar() {
  static const PrimitiveDef& d = handle("new");
  return d;
}
const PrimitiveDef& parFor() {
  static const PrimitiveDef& d = handle("parFor");
  return d;
}
const PrimitiveDef& parForCombine() {
  static const PrimitiveDef& d = handle("parForCombine");
  return d;
}
const PrimitiveDef& parForReduce() {
  static const PrimitiveDef& d = handle("parForReduce");
  return d;
}
const PrimitiveDef& rotateValues() {
  static const PrimitiveDef& d = handle("rotateValues");
  return d;
}
const PrimitiveDef& seq() {
  static const PrimitiveDef& d = handle("seq");
  return d;
}
const PrimitiveDef& skip() {
  static const PrimitiveDef& d = handle("skip");
  return d;
}
} // namespace primitive

const PrimitiveDef* primitiveForRise(rise::Prim p) {
  Registry& r = built();
  auto it = r.byRise.find(p);
  return it == r.byRise.end() ? nullptr : it->second;
}

std::vector<const PrimitiveDef*> allPrimitives() {
  std::vector<const PrimitiveDef*> v;
  for (const auto& [name, d] : built().byName)
    v.push_back(d);
  return v;
}

} // namespace risec::dpia
