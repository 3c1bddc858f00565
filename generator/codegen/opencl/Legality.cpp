#include "codegen/opencl/Legality.h"

#include "rise/infer/Signatures.h"
#include "support/Diagnostic.h"

namespace risec::codegen::opencl {

using namespace risec::rise;

namespace {

[[noreturn]] void reject(const Expr& at, const std::string& what) {
  throw CompileError("E0630", at->loc(),
                     what + ": the OpenCL back end must know the address space of every "
                            "temporary; write `Global`, `Local` or `Private` instead of an "
                            "address-space variable");
}

void visit(const Expr& e) {
  switch (e->kind()) {
  case ExprKind::App:
    visit(e->fn());
    visit(e->arg());
    return;
  case ExprKind::Lambda:
  case ExprKind::DepLambda:
    visit(e->body());
    return;
  case ExprKind::DepApp: {
    const Expr& f = e->fn();
    if (f->kind() == ExprKind::Primitive && takesAddrSpace(f->prim())) {
      const auto* a = std::get_if<AddrSpace>(&e->typeArg());
      if (!a || a->tag == AddrSpace::Tag::Var)
        reject(f,
               "`" + std::string(primName(f->prim())) + "(" + typeArgToString(e->typeArg()) + ")`");
    }
    visit(f);
    return;
  }
  default:
    return;
  }
}

} // namespace

void checkSupported(const TypedDef& def) {
  visit(def.expr);
}

} // namespace risec::codegen::opencl
