#include "codegen/opencl/Legality.h"

#include "support/Diagnostic.h"

namespace risec::codegen::opencl {

using namespace risec::rise;

namespace {

[[noreturn]] void reject(const Expr& at, const std::string& what) {
  throw CompileError("E0630", at->loc(),
                     what + ": temporaries in global or local memory are not supported by the "
                            "OpenCL back end yet; keep the temporary in private memory "
                            "(toPrivate, oclToMem(Private)) or compile for --target c");
}

void visit(const Expr& e) {
  switch (e->kind()) {
  case ExprKind::Primitive:
    if (e->prim() == Prim::ToGlobal || e->prim() == Prim::ToLocal)
      reject(e, "`" + std::string(primName(e->prim())) + "`");
    return;
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
    if (f->kind() == ExprKind::Primitive && f->prim() == Prim::OclToMem) {
      const auto* a = std::get_if<AddrSpace>(&e->typeArg());
      if (!a || a->tag != AddrSpace::Tag::Private)
        reject(f, "`oclToMem(" + typeArgToString(e->typeArg()) + ")`");
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
