// Pipeline stage "format": emitted files are formatted with libFormat using
// risec's own .clang-format, embedded at build time so that the output does
// not depend on where risec runs.
#pragma once

#include "tooling/SourceLanguage.h"

#include <string>

namespace risec::tooling {

/// The formatted text. Formatting never changes what the code means; if
/// libFormat fails (it should not), the text is returned unchanged. Long
/// statements seen before in this process are not formatted again: their
/// formatting is remembered (MemoisableLines.h). Thread-safe.
std::string formatSource(const std::string& code, SourceLanguage language,
                         const std::string& fileName);

/// formatSource without the memo of long statements (MemoisableLines.h): the
/// reference that formatSource must match byte for byte.
std::string formatSourceUnmemoised(const std::string& code, SourceLanguage language,
                                   const std::string& fileName);

/// The embedded style (the text of the repository's .clang-format).
const char* embeddedStyle();

} // namespace risec::tooling
