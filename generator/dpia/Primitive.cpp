#include "dpia/Primitive.h"

#include "rise/infer/Signatures.h"
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

ArgAccess argAccess(const rise::ArgUse& u) {
  switch (u.kind) {
  case rise::ArgUse::Read:
    return {ArgAccess::Kind::Rd};
  case rise::ArgUse::Write:
    return {ArgAccess::Kind::Wr};
  case rise::ArgUse::View:
    return {ArgAccess::Kind::Poly};
  case rise::ArgUse::Fun:
    break;
  }
  ArgAccess a{ArgAccess::Kind::Fun};
  a.body = u.writesBody ? Access::Wr : Access::Rd;
  a.arity = u.arity;
  a.depNat = u.depNat;
  a.anyBody = u.anyBody;
  return a;
}

ResultAccess resultAccess(const rise::PrimAccess& a) {
  switch (a.result) {
  case rise::PrimAccess::Result::Read:
    return {ResultAccess::Kind::Fixed, Access::Rd, 0};
  case rise::PrimAccess::Result::Written:
    return {ResultAccess::Kind::Fixed, Access::Wr, 0};
  case rise::PrimAccess::Result::View:
    return {ResultAccess::Kind::Poly, Access::Rd, 0};
  case rise::PrimAccess::Result::FunBody:
    break;
  }
  return {ResultAccess::Kind::FunBody, Access::Rd, a.funArg};
}

} // namespace

AccessSignature accessFromTable(rise::Prim p) {
  const rise::PrimAccess a = rise::primAccess(p);
  AccessSignature s;
  if (!a.defined)
    throw InternalError("primitive `" + std::string(rise::primName(p)) +
                        "`: its row in RISEC_PRIMITIVES declares no `uses(...)`, so it has no "
                        "DPIA definition");
  for (std::size_t i = 0; i < a.count; ++i)
    s.args.push_back(argAccess(a.args[i]));
  s.result = resultAccess(a);
  s.writableView = a.writableView;
  return s;
}

PrimitiveDef& PrimitiveRegistry::add(std::string name, std::optional<rise::Prim> rise) {
  Registry& r = *building;
  if (r.byName.count(name))
    throw InternalError("DPIA primitive `" + name + "` registered twice");
  r.defs.push_back({});
  PrimitiveDef& d = r.defs.back();
  d.name = name;
  d.rise = rise;
  if (rise) {
    AccessSignature s = accessFromTable(*rise);
    d.access = std::move(s.args);
    d.result = s.result;
    d.writableView = s.writableView;
  }
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
// Each handle looks its primitive up once.
#define RISEC_DPIA_HANDLE(fn, name)                                                                \
  const PrimitiveDef& fn() {                                                                       \
    static const PrimitiveDef& d = handle(name);                                                   \
    return d;                                                                                      \
  }
RISEC_DPIA_HANDLE(arrayLiteral, "arrayLiteral")
RISEC_DPIA_HANDLE(assign, "assign")
RISEC_DPIA_HANDLE(barrier, "barrier")
RISEC_DPIA_HANDLE(discardTailAcc, "discardTailAcc")
RISEC_DPIA_HANDLE(forLoop, "for")
RISEC_DPIA_HANDLE(foreign, "foreign")
RISEC_DPIA_HANDLE(indexAsNat, "indexAsNat")
RISEC_DPIA_HANDLE(natAsIndex, "natAsIndex")
RISEC_DPIA_HANDLE(newVar, "new")
RISEC_DPIA_HANDLE(parFor, "parFor")
RISEC_DPIA_HANDLE(parForCombine, "parForCombine")
RISEC_DPIA_HANDLE(parForReduce, "parForReduce")
RISEC_DPIA_HANDLE(circularBuffer, "circularBuffer")
RISEC_DPIA_HANDLE(rotateValues, "rotateValues")
RISEC_DPIA_HANDLE(seq, "seq")
RISEC_DPIA_HANDLE(skip, "skip")
#undef RISEC_DPIA_HANDLE
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
