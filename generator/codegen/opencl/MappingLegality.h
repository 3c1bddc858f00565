// Legality of the OpenCL mapping (issue 5, item 3): the rules of
// mapping-parallelism-constraints.txt §4, checked on the lowered RISE program
// (codegen/Compile.cpp, after lowerToC) over its map nesting tree
// (codegen/MapNesting.h). See docs/dpia.md, "Legality of parallel mappings".
//
//   E0640  rule 1: a parallel map writes or iterates over private memory
//   E0641  rule 2: local memory outside a mapWorkGroup, inside a mapLocal, or
//          written/iterated over by a mapGlobal or mapWorkGroup
//   E0642  rule 3: a map nested in a map of the same kind and dimension
//   E0643  rule 4: a mapLocal(d) with no mapWorkGroup(d) in its nest
//   E0644  rule 5: a mapWorkGroup(d) nest with no mapLocal(d)
//   E0645  rule 6: a mapWorkGroup inside a mapLocal
//   E0646  rule 7: a map nest that does not use a parallel dimension that
//          another nest of the kernel uses
//   E0647  mapGlobal together with mapWorkGroup/mapLocal in one kernel
//
// The rules are checked in this order; the first violation is reported, at
// the offending map (or toLocal), with a note at the map it conflicts with.
#pragma once

#include "rise/infer/Infer.h"

namespace risec::codegen::opencl {

/// Throws CompileError E0640..E0647 at the first violated rule.
void checkMappingLegality(const rise::TypedDef& lowered);

} // namespace risec::codegen::opencl
