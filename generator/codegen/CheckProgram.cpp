#include "codegen/CheckProgram.h"

#include "codegen/c/EmitTypes.h"
#include "codegen/opencl/Legality.h"
#include "codegen/opencl/MappingLegality.h"
#include "codegen/opencl/VectorTypes.h"
#include "codegen/openmp/Legality.h"
#include "support/Diagnostic.h"

namespace risec::codegen {

namespace {

/// Every parameter and the result of the entry must have a memory layout
/// (c::layoutProblem): otherwise E0699 at the parameter or at the body.
void checkLayouts(const rise::TypedDef& def) {
  rise::Expr e = def.expr;
  while (e->kind() == rise::ExprKind::DepLambda)
    e = e->body();
  for (; e->kind() == rise::ExprKind::Lambda; e = e->body()) {
    const rise::Type& t = e->type()->param();
    if (!t->isData())
      return; // rejected by the translation (E0605)
    std::string why = c::layoutProblem(t);
    if (!why.empty())
      throw CompileError("E0699", e->loc(),
                         "the parameter `" + e->name() + "` has the type `" +
                             rise::typeToString(t) + "`: " + why +
                             "; pass one array per component of the pairs instead and `zip` "
                             "them in the program");
  }
  if (!e->type()->isData())
    return;
  std::string why = c::layoutProblem(e->type());
  if (!why.empty())
    throw CompileError("E0699", e->loc(),
                       "the result has the type `" + rise::typeToString(e->type()) + "`: " + why +
                           "; return one array per component of the pairs instead (`unzip` the "
                           "result)");
}

} // namespace

void checkTypedProgram(const rise::TypedDef& def, Target target) {
  if (target == Target::OpenCL)
    opencl::checkSupported(def); // no address-space variables
  if (target == Target::OpenCL)
    opencl::checkVectorTypes(def); // floatN exists for N = 2, 3, 4, 8, 16
  checkLayouts(def);
}

opencl::IndexingViolations checkParallelMapping(const rise::TypedDef& lowered, Target target) {
  if (target == Target::OpenMP)
    openmp::checkLegality(lowered);
  if (target == Target::OpenCL)
    return opencl::checkMappingLegality(lowered);
  return {};
}

} // namespace risec::codegen
