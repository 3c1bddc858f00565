// The `--sizes NAME=VALUE,...` option of `risec eval` and `risec tune`.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace risec::driver {

/// "n=4,m=3" -> {n: 4, m: 3}. A malformed item or a name given twice is a
/// CompileError with `code` (each command has its own), whose message shows
/// `example` as the fix.
std::map<std::string, std::int64_t>
parseSizesOption(const std::string& text, const std::string& code, const std::string& example);

/// {n: 4, m: 3} -> "m=3,n=4", the form parseSizesOption reads; "(no sizes)"
/// when empty.
std::string formatSizes(const std::map<std::string, std::int64_t>& sizes);

} // namespace risec::driver
