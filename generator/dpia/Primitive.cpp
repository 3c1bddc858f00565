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
