#include "codegen/HoistTemporaries.h"

#include "codegen/c/EmitMemory.h"
#include "codegen/c/EmitTypes.h"
#include "codegen/opencl/Temporaries.h"
#include "dpia/Imperative.h"

namespace risec::codegen {

HoistedCommand hoistTemporaries(const dpia::Phrase& command, Target target) {
  HoistedCommand r;
  if (target == Target::OpenCL)
    r.command = dpia::hoistAllocationsIf(
        command,
        [](const dpia::Phrase& c) {
          // a private array of a constant size is declared where it is used:
          // its size per work-item is known once its accesses are
          const rise::Type& t = c->dataArg(0);
          if (dpia::newAddrSpace(c).tag == rise::AddrSpace::Tag::Private &&
              t->kind() == rise::TypeKind::Array && c::TypeMapper::count(t)->isConst())
            return false;
          return opencl::hoistForOpenCL(c);
        },
        r.temporaries);
  else
    r.command = dpia::hoistAllocations(
        command,
        [](const rise::Type& t) {
          return c::splitPair(t) || (t->kind() == rise::TypeKind::Array && !c::isStack(t));
        },
        r.temporaries);
  return r;
}

} // namespace risec::codegen
