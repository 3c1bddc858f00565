// Small text utilities shared by the diagnostics of several stages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace risec {

/// Edit distance for "did you mean" suggestions: insertions, deletions,
/// substitutions and adjacent transpositions cost 1 (`mpa` is one edit from
/// `map`); letters are compared without case (`Map` is as close as `map`).
std::size_t editDistance(std::string_view a, std::string_view b);

/// True if `s` can be a C function name: letters, digits and `_`, not
/// starting with a digit.
bool isCIdentifier(std::string_view s);

/// The include guard of a generated header: `RISEC_<NAME>_H`, upper case.
std::string headerGuard(std::string_view name);

} // namespace risec
