// Writing the winner of `risec tune` back into its spec (docs/tuning.md,
// "What it writes"): the YAML text is edited in place, at the positions
// yaml-cpp reports for the nodes, so that comments and every other line stay
// byte-identical. Layouts it cannot edit safely are refused (E0835) with
// the text to paste by hand.
#pragma once

#include "support/SourceLocation.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace risec::tune {

/// Parameter values in the order they are written.
using TunedParams = std::vector<std::pair<std::string, std::int64_t>>;

/// `{mr: 4, nr: 16}`.
std::string flowMapping(const TunedParams& params);

/// The spec text `text` with `params` written for variant number
/// `variantIndex` (0-based, in the order of `variants:`):
///  - `level` non-empty: the variant's own `isas:` entry of that level (a
///    plain or quoted scalar, or a flow mapping `{isa: ..., params: ...}`,
///    in a block or flow sequence) becomes `{isa: LEVEL, params: {...}}`;
///  - `level` empty: the variant's `params:` (a flow mapping) is replaced,
///    or, when it has none, a `params: {...}` line is added after its
///    `strategy:` line.
/// Anything else (a block mapping, the spec's shared `isas:`, a flow-style
/// variant) is E0835 at `at`, naming what to paste.
std::string writeTunedParams(const std::string& text, std::size_t variantIndex,
                             const std::string& level, const TunedParams& params,
                             const SourceLocation& at);

} // namespace risec::tune
