// Pipeline stage 10 (codegen/Compile.cpp), on the statements of stage 9:
// removes local variables that are written but never read, with the stores
// to them and the loops left empty. Such temporaries arise when a view never
// touches the part of a stored value that was computed (e.g. only `fst` of a
// stored pair is read); besides wasting work they trip gcc's
// -Wunused-but-set-variable. Only variables declared in the function body
// without a side-effecting initialiser (no assignment, increment or call) are
// removed, and never pointers, so what malloc returned is never touched.
#pragma once

#include "codegen/c/CAst.h"

#include <set>
#include <string>
#include <vector>

namespace risec::codegen::c {

/// `declaredBefore`: variables declared ahead of `body` (the prologue's stack
/// temporaries) that may be removed too; those removed are added to
/// `removedBefore`, whose declarations the caller drops.
std::vector<CStmt> eliminateDeadStores(const std::vector<CStmt>& body,
                                       const std::set<std::string>& declaredBefore = {},
                                       std::set<std::string>* removedBefore = nullptr);

} // namespace risec::codegen::c
