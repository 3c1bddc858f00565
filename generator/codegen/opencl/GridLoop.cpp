#include "codegen/opencl/GridLoop.h"

#include "support/Diagnostic.h"

namespace risec::codegen::opencl {

std::optional<GridKind> gridKind(const dpia::Phrase& loop) {
  // only the parFor of an OpenCL map has one of these origins
  if (loop->kind() != dpia::PhraseKind::Prim || !loop->origin().prim)
    return std::nullopt;
  switch (*loop->origin().prim) {
  case rise::Prim::MapGlobal:
    return GridKind::Global;
  case rise::Prim::MapWorkGroup:
    return GridKind::WorkGroup;
  case rise::Prim::MapLocal:
    return GridKind::Local;
  default:
    return std::nullopt;
  }
}

GridLoop gridLoop(const dpia::Phrase& loop) {
  std::optional<GridKind> kind = gridKind(loop);
  if (!kind)
    throw InternalError("OpenCL back end: a parallel loop from `" + loop->tag() + "`");
  const rise::Nat& d = loop->origin().dim;
  if (!d || !d->isConst() || d->value() < 0 || d->value() > 2)
    throw CompileError("E0632", {},
                       "`" + loop->tag() +
                           "`: the dimension of an OpenCL map must be 0, 1 or 2 (a constant)");
  return {*kind, static_cast<int>(d->value())};
}

const char* gridIdFunction(GridKind kind) {
  switch (kind) {
  case GridKind::Global:
    return "get_global_id";
  case GridKind::WorkGroup:
    return "get_group_id";
  case GridKind::Local:
    return "get_local_id";
  }
  return "";
}

const char* gridSizeFunction(GridKind kind) {
  switch (kind) {
  case GridKind::Global:
    return "get_global_size";
  case GridKind::WorkGroup:
    return "get_num_groups";
  case GridKind::Local:
    return "get_local_size";
  }
  return "";
}

} // namespace risec::codegen::opencl
