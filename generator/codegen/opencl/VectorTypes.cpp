#include "codegen/opencl/VectorTypes.h"

#include "support/Diagnostic.h"

#include <optional>
#include <utility>
#include <vector>

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
    bool concrete = t->elem()->kind() == TypeKind::Scalar;
    bool badWidth = concrete && w->isConst() && w->value() != 2 && w->value() != 3 &&
                    w->value() != 4 && w->value() != 8 && w->value() != 16;
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

/// Every expression whose type holds a vector OpenCL C cannot represent.
void visit(const Expr& e, std::vector<std::pair<Expr, Type>>& found) {
  switch (e->kind()) {
  case ExprKind::App:
    visit(e->fn(), found);
    visit(e->arg(), found);
    break;
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    visit(e->body(), found);
    break;
  case ExprKind::DepApp:
    visit(e->fn(), found);
    break;
  default:
    break;
  }
  if (auto v = unsupportedVector(e->type()))
    found.push_back({e, *v});
}

} // namespace

void checkVectorTypes(const TypedDef& def) {
  std::vector<std::pair<Expr, Type>> found;
  visit(def.expr, found);
  if (found.empty())
    return;
  // the first in the source: usually the `asVector` that makes the vector
  auto first = found.front();
  for (const auto& f : found) {
    const SourceLocation &a = f.first->loc(), &b = first.first->loc();
    bool earlier = a.line < b.line || (a.line == b.line && a.column < b.column);
    if (a.known() && (!b.known() || earlier))
      first = f;
  }
  reject(first.first, first.second);
}

} // namespace risec::codegen::opencl
