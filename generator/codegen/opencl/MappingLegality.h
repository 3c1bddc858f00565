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
//
// Rule 7 and E0647 hold per kernel. A program whose outermost sequence is
// split into kernel phases (docs/dpia.md, "Kernel phases") may run a
// sequential nest in a phase of its own, as one work-item, beside a
// mapGlobal phase, and a mapGlobal phase before or after a mapWorkGroup /
// mapLocal phase; the phases are known only after the barriers pass (stage
// 8). So the E0646 and E0647 violations found on the RISE program are
// returned, and checkIndexingPerPhase decides them on the kernel's
// statements.
#pragma once

#include "codegen/opencl/GridLoop.h"
#include "dpia/Phrase.h"
#include "rise/infer/Infer.h"
#include "support/Diagnostic.h"

#include <vector>

namespace risec::codegen::opencl {

/// The violations of a program as one kernel that hold per kernel phase:
/// rule 7 (E0646), in the order the checker found them, each the grid
/// dimension a nest does not use and the E0646 at that nest; and the first
/// mix of the two hierarchies (E0647).
class IndexingViolations {
public:
  struct Violation {
    GridLoop unused;    ///< the dimension the nest does not use
    CompileError error; ///< the E0646 at the nest
  };
  void add(Violation v) { violations_.push_back(std::move(v)); }
  /// The E0647 of a mapGlobal and a mapWorkGroup/mapLocal in one kernel.
  void addMixedHierarchies(CompileError e) { mixed_.push_back(std::move(e)); }
  bool empty() const { return violations_.empty() && mixed_.empty(); }
  /// Throws the E0647, else the first violation's E0646, if any: the
  /// program is one kernel.
  void rejectFirst() const;
  /// Throws the E0647 (a phase uses both hierarchies).
  [[noreturn]] void rejectMixed() const;
  /// Throws the first violation of dimension `g` (the first of all if none
  /// has it).
  [[noreturn]] void reject(const GridLoop& g) const;

private:
  std::vector<Violation> violations_;
  std::vector<CompileError> mixed_;
};

/// Throws CompileError E0640..E0645 at the first violated rule; returns the
/// violations of rule 7 and E0647, for checkIndexingPerPhase.
IndexingViolations checkMappingLegality(const rise::TypedDef& lowered);

/// Rule 7 and E0647 per kernel phase: `command` is the kernel after the
/// barriers pass (stage 8). With one phase, the first violation is thrown as
/// it was found. With several, the violations stand unless every phase holds
/// them by itself: no phase has both mapGlobal loops and mapWorkGroup or
/// mapLocal loops, and in a phase that has grid loops each statement of its
/// outermost sequence (through `new` blocks) contains a loop of every grid
/// dimension the phase uses; a phase without grid loops runs as one
/// work-item.
void checkIndexingPerPhase(const dpia::Phrase& command, const IndexingViolations& violations);

} // namespace risec::codegen::opencl
