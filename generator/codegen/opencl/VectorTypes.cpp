#include "codegen/opencl/VectorTypes.h"

#include "support/Diagnostic.h"

#include <optional>

namespace risec::codegen::opencl {

using namespace risec::rise;

namespace {

/// The first vector type inside `t` that OpenCL C cannot represent.
std::optional<Type> unsupportedVector(const Type& t) {
  if (!t)
    return std::nullopt;
  switch (t->kind()) {
  case TypeKind::Vec: {
    // only concrete widths and elements: a primitive's type scheme has variables
    const Nat& w = t->size();
    bool badWidth = w->isConst() && w->value() != 2 && w->value() != 3 && w->value() != 4 &&
                    w->value() != 8 && w->value() != 16;
    bool badElement =
        t->elem()->kind() == TypeKind::Scalar && t->elem()->scalar() == ScalarKind::Bool;
    return badWidth || badElement ? std::optional<Type>(t) : std::nullopt;
  }
  case TypeKind::Array:
    return unsupportedVector(t->elem());
  case TypeKind::Pair:
  case TypeKind::Fun: {
    auto a = unsupportedVector(t->kind() == TypeKind::Pair ? t->first() : t->param());
    return a ? a : unsupportedVector(t->kind() == TypeKind::Pair ? t->second() : t->result());
  }
  case TypeKind::DepFun:
    return unsupportedVector(t->result());
  default:
    return std::nullopt;
  }
}

void reject(const Expr& at, const Type& v) {
  if (v->elem()->kind() == TypeKind::Scalar && v->elem()->scalar() == ScalarKind::Bool)
    throw CompileError("E0661", at->loc(),
                       "`" + typeToString(v) +
                           "`: OpenCL C has no vectors of bool; vectorise numeric values, or "
                           "compile for --target c");
  throw CompileError("E0660", at->loc(),
                     "`" + typeToString(v) +
                         "`: OpenCL C has vectors of 2, 3, 4, 8 and 16 lanes only; choose one of "
                         "these widths (e.g. asVector(4), vectorize(4)), or compile for --target "
                         "c");
}

/// Children first, so that the error points at the innermost expression
/// (usually the `asVector` or `vectorFromScalar` that makes the vector).
void visit(const Expr& e) {
  switch (e->kind()) {
  case ExprKind::App:
    visit(e->fn());
    visit(e->arg());
    break;
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    visit(e->body());
    break;
  case ExprKind::DepApp:
    visit(e->fn());
    break;
  default:
    break;
  }
  if (auto v = unsupportedVector(e->type()))
    reject(e, *v);
}

} // namespace

void checkVectorTypes(const TypedDef& def) {
  visit(def.expr);
}

} // namespace risec::codegen::opencl
