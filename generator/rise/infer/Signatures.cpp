#include "rise/infer/Signatures.h"

#include "rise/parse/Parser.h"

#include <map>

namespace risec::rise {

std::string_view signatureText(Prim p) {
  return primInfo(p).signature;
}

const Type& signature(Prim p) {
  static const std::map<Prim, Type> table = [] {
    std::map<Prim, Type> m;
    for (Prim q : allPrims()) {
      auto file = makeSourceFile("<signature of " + std::string(primName(q)) + ">",
                                 std::string(signatureText(q)));
      m[q] = parseType(file);
    }
    return m;
  }();
  return table.at(p);
}

bool takesAddrSpace(Prim p) {
  const Type& t = signature(p);
  return t->kind() == TypeKind::DepFun && t->binder().kind == Kind::AddrSpace;
}

int depArity(Prim p) {
  int n = 0;
  for (Type t = signature(p); t->kind() == TypeKind::DepFun; t = t->result())
    ++n;
  return n;
}

int valueArity(Prim p) {
  Type t = signature(p);
  while (t->kind() == TypeKind::DepFun)
    t = t->result();
  int n = 0;
  for (; t->kind() == TypeKind::Fun; t = t->result())
    ++n;
  return n;
}

PrimAccess primAccess(Prim p) {
  const PrimAccess& a = primInfo(p).traits.access;
  if (a.defined || !isScalarPrimitive(p))
    return a;
  PrimAccess scalar;
  scalar.defined = true;
  scalar.count = static_cast<std::uint8_t>(valueArity(p));
  return scalar; // every argument read (ArgUse{} is Read), the result read
}

} // namespace risec::rise
