#include "codegen/c/EmitTypes.h"

#include "rise/ast/ForeignTypes.h"
#include "support/Diagnostic.h"

#include <cmath>
#include <functional>

namespace risec::codegen::c {

using rise::ScalarKind;
using rise::TypeKind;

std::string scalarCType(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::I8:
    return "int8_t";
  case ScalarKind::I16:
    return "int16_t";
  case ScalarKind::I32:
    return "int32_t";
  case ScalarKind::I64:
    return "int64_t";
  case ScalarKind::U8:
    return "uint8_t";
  case ScalarKind::U16:
    return "uint16_t";
  case ScalarKind::U32:
    return "uint32_t";
  case ScalarKind::U64:
    return "uint64_t";
  case ScalarKind::F32:
    return "float";
  case ScalarKind::F64:
    return "double";
  case ScalarKind::NatType:
    return "int";
  }
  return "int";
}

namespace {
std::string typeTag(const rise::Type& t) {
  switch (t->kind()) {
  case TypeKind::Scalar:
    return std::string(rise::scalarName(t->scalar()));
  case TypeKind::Index:
    return "idx";
  case TypeKind::Pair:
    return "pair_" + typeTag(t->first()) + "_" + typeTag(t->second());
  case TypeKind::Vec:
    if (t->elem()->kind() == TypeKind::Scalar && t->size()->isConst())
      return std::string(rise::scalarName(t->elem()->scalar())) + "x" +
             std::to_string(t->size()->value());
    return "x";
  default:
    return "x";
  }
}
} // namespace

std::string pairStructName(const rise::Type& t) {
  return typeTag(t);
}

bool pairHoldsVector(const rise::Type& t) {
  if (t->kind() != TypeKind::Pair)
    return false;
  auto holds = [](const rise::Type& c) { return c->kind() == TypeKind::Vec || pairHoldsVector(c); };
  return holds(t->first()) || holds(t->second());
}

std::string layoutProblem(const rise::Type& t) {
  if (t->kind() == TypeKind::Pair) {
    std::string a = layoutProblem(t->first());
    return a.empty() ? layoutProblem(t->second()) : a;
  }
  if (t->kind() != TypeKind::Array)
    return "";
  // an array of structs: every field a scalar, an index, a vector of a
  // native width (rise::foreignTypeSupported) or a struct of these
  std::function<std::string(const rise::Type&)> field = [&](const rise::Type& f) -> std::string {
    switch (f->kind()) {
    case TypeKind::Pair: {
      std::string a = field(f->first());
      return a.empty() ? field(f->second()) : a;
    }
    case TypeKind::Array:
      return "an array of pairs holding an array (`" + rise::typeToString(f) +
             "`) has no memory layout yet";
    case TypeKind::Vec:
      if (!rise::foreignTypeSupported(f))
        return "an array of pairs holding a vector `" + rise::typeToString(f) +
               "` has no memory layout (a vector field of a pair in an array has 2, 4, 8 or 16 "
               "lanes of a numeric type other than natType)";
      return "";
    default:
      return "";
    }
  };
  rise::Type e = TypeMapper::innermost(t);
  return e->kind() == TypeKind::Pair ? field(e) : "";
}

CType TypeMapper::element(const rise::Type& t) {
  switch (t->kind()) {
  case TypeKind::Scalar:
    return namedType(scalarCType(t->scalar()));
  case TypeKind::Index:
    return namedType("int");
  case TypeKind::Pair: {
    if (t->first()->kind() == TypeKind::Array || t->second()->kind() == TypeKind::Array)
      break; // a pair of arrays has no flat C layout
    std::string name = typeTag(t);
    // a vector component is a field of the native vector type
    auto field = [&](const rise::Type& c) {
      if (c->kind() != TypeKind::Vec)
        return element(c);
      if (!vector)
        throw InternalError("C back end: a pair holding a vector without vector types");
      return vector(c);
    };
    CType a = field(t->first()), b = field(t->second());
    bool known = false;
    for (const StructDef& s : structs_)
      known = known || s.name == name;
    if (!known) {
      structs_.push_back({name, {{a, "fst"}, {b, "snd"}}});
      structTypes_.push_back(t);
    }
    return namedType("struct " + name);
  }
  case TypeKind::Array:
  case TypeKind::Vec: // vectors are stored as their lanes
    return element(innermost(t));
  default:
    break;
  }
  throw CompileError("E0699", {},
                     "values of type `" + rise::typeToString(t) +
                         "` are not supported by the C back end yet");
}

rise::Type TypeMapper::innermost(const rise::Type& t) {
  rise::Type e = t;
  while (e->kind() == TypeKind::Array || e->kind() == TypeKind::Vec)
    e = e->elem();
  return e;
}

rise::Nat TypeMapper::count(const rise::Type& t) {
  rise::Nat n = rise::natConst(1);
  for (rise::Type e = t; e->kind() == TypeKind::Array || e->kind() == TypeKind::Vec; e = e->elem())
    n = n * e->size();
  return n;
}

std::int64_t TypeMapper::bytes(const rise::Type& t) {
  switch (t->kind()) {
  case TypeKind::Scalar:
    return t->scalar() == ScalarKind::Bool ? 1 : std::max(1, rise::scalarBits(t->scalar()) / 8);
  case TypeKind::Index:
    return 4;
  case TypeKind::Pair:
    return 2 * std::max(bytes(t->first()), bytes(t->second()));
  case TypeKind::Vec: // a field of a pair: the native vector (3 lanes take 4)
    if (t->size()->isConst())
      return bytes(t->elem()) * (t->size()->isConst(3) ? 4 : t->size()->value());
    return 8;
  default:
    return 8;
  }
}

CExpr scalarLiteral(const rise::ScalarValue& v) {
  switch (v.kind) {
  case ScalarKind::Bool:
    return literal(v.i ? "true" : "false");
  case ScalarKind::F32:
  case ScalarKind::F64: {
    bool f32 = v.kind == ScalarKind::F32;
    if (std::isnan(v.f))
      return literal("NAN");
    if (std::isinf(v.f))
      return v.f > 0 ? literal("INFINITY") : unary(COp::Neg, literal("INFINITY"));
    std::string text = rise::literalText(v); // `1.5f` / `1.5`: valid C
    if (!text.empty() && text[0] == '-')
      return unary(COp::Neg, literal(text.substr(1)));
    (void)f32;
    return literal(text);
  }
  case ScalarKind::I32:
  case ScalarKind::NatType:
    if (v.i < 0)
      return unary(COp::Neg, intLit(-v.i));
    return intLit(v.i);
  default: {
    std::string digits = rise::isUnsignedInt(v.kind) ? std::to_string(v.u) : std::to_string(v.i);
    CExpr lit = digits[0] == '-' ? unary(COp::Neg, literal(digits.substr(1))) : literal(digits);
    return cast(namedType(scalarCType(v.kind)), lit);
  }
  }
}

} // namespace risec::codegen::c
