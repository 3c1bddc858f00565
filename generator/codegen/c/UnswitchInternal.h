// What the two halves of stage 10 share (c/Unswitch.cpp, the guards of
// padded reads; c/UnswitchClamps.cpp, the clamps of padClamp's reads).
#pragma once

#include "codegen/c/CAst.h"
#include "codegen/c/LoopNests.h"

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

/// A counting loop `for (int var = first; var < end; var += 1)` whose bounds
/// do not change in it.
struct CountingLoop {
  std::string var;
  CExpr first, last; ///< `first` and `end - 1`
};

/// `loop` as a counting loop; nullopt if it is not one or a bound uses a
/// variable in `changed` (what the loop changes, changedIn) or is not a
/// pureGuard (c/UnswitchClamps.cpp).
std::optional<CountingLoop> countingLoopOf(const CStmt& loop, const std::set<std::string>& changed);

/// `e` with `var` replaced by `by` and integer literals folded where they
/// meet (`0 + 32 * j` -> `32 * j`); the sizes EmitNat pre-rendered are
/// read as sums and products of names and integers where they are that
/// (c/UnswitchClamps.cpp).
CExpr substituteFolded(const CExpr& e, const std::string& var, const CExpr& by);

/// The innermost counting loop `loop` without the clamps of its subscripts
/// that cannot bite in it, and versioned on those that may where the
/// subscript steps by one element; null if there are none
/// (c/UnswitchClamps.cpp).
CStmt versionOnClamps(const CStmt& loop);

} // namespace risec::codegen::c
