// What the two halves of stage 10 share (c/Unswitch.cpp, the guards of
// padded reads; c/UnswitchClamps.cpp, the clamps of padClamp's reads).
#pragma once

#include "codegen/c/CAst.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace risec::codegen::c {

/// An integer literal's value (decimal digits, optionally negated).
std::optional<std::int64_t> intValue(const CExpr& e);

/// Integer arithmetic that may be evaluated once before a loop instead of in
/// every iteration: no memory, no side effect, nothing that can trap.
bool pureGuard(const CExpr& e);

/// Whether a statement in `body` declares a variable.
bool declares(const std::vector<CStmt>& body);

/// The variables `s` declares or assigns (loop indices included).
void changedIn(const CStmt& s, std::set<std::string>& out);

/// The innermost counting loop `loop` without the clamps of its subscripts
/// that cannot bite in it, and versioned on those that may where the
/// subscript steps by one element; null if there are none
/// (c/UnswitchClamps.cpp).
CStmt versionOnClamps(const CStmt& loop);

} // namespace risec::codegen::c
