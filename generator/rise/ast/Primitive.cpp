#include "rise/ast/Primitive.h"

#include <array>

namespace risec::rise {

namespace {
constexpr PrimInfo kInfo[] = {
#define RISEC_PRIM_INFO(id, name, family, signature, traits)                                       \
  {Prim::id, name, PrimFamily::family, signature, traits},
    RISEC_PRIMITIVES(RISEC_PRIM_INFO)
#undef RISEC_PRIM_INFO
};
} // namespace

const PrimInfo& primInfo(Prim p) {
  return kInfo[static_cast<int>(p)];
}

std::string_view primName(Prim p) {
  return primInfo(p).name;
}

PrimFamily primFamily(Prim p) {
  return primInfo(p).family;
}

bool isScalarPrimitive(Prim p) {
  return primFamily(p) == PrimFamily::ScalarOperator || primFamily(p) == PrimFamily::BuiltinMath;
}

const std::vector<Prim>& allPrims() {
  static const std::vector<Prim> prims = [] {
    std::vector<Prim> v;
    for (std::size_t i = 0; i < std::size(kInfo); ++i)
      v.push_back(static_cast<Prim>(i));
    return v;
  }();
  return prims;
}

std::optional<Prim> primFromName(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kInfo); ++i)
    if (kInfo[i].name == name)
      return static_cast<Prim>(i);
  return std::nullopt;
}

std::optional<std::string_view> primInfix(Prim p) {
  std::string_view s = primInfo(p).traits.infix;
  return s.empty() ? std::nullopt : std::optional<std::string_view>(s);
}

int infixPrecedence(Prim p) {
  return primInfo(p).traits.infixPrecedence;
}

bool isMapLike(Prim p) {
  return primInfo(p).traits.mapLike;
}

bool isReduceLike(Prim p) {
  return primInfo(p).traits.reduceLike;
}

bool isOpenClMap(Prim p) {
  return primInfo(p).family == PrimFamily::OpenCL && primInfo(p).traits.mapLike;
}

bool storesInAddrSpace(Prim p) {
  return primInfo(p).traits.storesIntoSpace;
}

} // namespace risec::rise
