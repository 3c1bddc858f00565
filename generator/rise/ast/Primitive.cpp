#include "rise/ast/Primitive.h"

#include <array>

namespace risec::rise {

namespace {
constexpr std::string_view kNames[] = {
#define RISEC_PRIM_NAME(id, name, family) name,
    RISEC_PRIMITIVES(RISEC_PRIM_NAME)
#undef RISEC_PRIM_NAME
};

constexpr PrimFamily kFamilies[] = {
#define RISEC_PRIM_FAMILY(id, name, family) PrimFamily::family,
    RISEC_PRIMITIVES(RISEC_PRIM_FAMILY)
#undef RISEC_PRIM_FAMILY
};
} // namespace

std::string_view primName(Prim p) {
  return kNames[static_cast<int>(p)];
}

PrimFamily primFamily(Prim p) {
  return kFamilies[static_cast<int>(p)];
}

bool isScalarPrimitive(Prim p) {
  return primFamily(p) == PrimFamily::ScalarOperator || primFamily(p) == PrimFamily::BuiltinMath;
}

const std::vector<Prim>& allPrims() {
  static const std::vector<Prim> prims = [] {
    std::vector<Prim> v;
    for (std::size_t i = 0; i < std::size(kNames); ++i)
      v.push_back(static_cast<Prim>(i));
    return v;
  }();
  return prims;
}

std::optional<Prim> primFromName(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kNames); ++i)
    if (kNames[i] == name)
      return static_cast<Prim>(i);
  return std::nullopt;
}

std::optional<std::string_view> primInfix(Prim p) {
  switch (p) {
  case Prim::Add:
    return "+";
  case Prim::Sub:
    return "-";
  case Prim::Mul:
    return "*";
  case Prim::Div:
    return "/";
  case Prim::Mod:
    return "%";
  case Prim::And:
    return "&&";
  case Prim::Or:
    return "||";
  case Prim::Equal:
    return "==";
  case Prim::NotEqual:
    return "!=";
  case Prim::Lt:
    return "<";
  case Prim::Le:
    return "<=";
  case Prim::Gt:
    return ">";
  case Prim::Ge:
    return ">=";
  default:
    return std::nullopt;
  }
}

int infixPrecedence(Prim p) {
  switch (p) {
  case Prim::Or:
    return 1;
  case Prim::And:
    return 2;
  case Prim::Equal:
  case Prim::NotEqual:
    return 3;
  case Prim::Lt:
  case Prim::Le:
  case Prim::Gt:
  case Prim::Ge:
    return 4;
  case Prim::Add:
  case Prim::Sub:
    return 5;
  case Prim::Mul:
  case Prim::Div:
  case Prim::Mod:
    return 6;
  default:
    return 0;
  }
}

bool isMapLike(Prim p) {
  switch (p) {
  case Prim::Map:
  case Prim::MapSeq:
  case Prim::MapSeqUnroll:
  case Prim::MapPar:
  case Prim::MapGlobal:
  case Prim::MapWorkGroup:
  case Prim::MapLocal:
    return true;
  default:
    return false;
  }
}

bool isReduceLike(Prim p) {
  switch (p) {
  case Prim::Reduce:
  case Prim::ReducePar:
  case Prim::ReduceSeq:
  case Prim::ReduceSeqUnroll:
  case Prim::OclReduceSeq:
    return true;
  default:
    return false;
  }
}

} // namespace risec::rise
