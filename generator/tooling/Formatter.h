// Pipeline stage "format": emitted files are formatted with libFormat using
// risec's own .clang-format, embedded at build time so that the output does
// not depend on where risec runs.
#pragma once

#include "tooling/SourceLanguage.h"

#include <string>

namespace risec::tooling {

/// The formatted text. Formatting never changes what the code means; if
/// libFormat fails (it should not), the text is returned unchanged.
std::string formatSource(const std::string& code, SourceLanguage language,
                         const std::string& fileName);

/// The embedded style (the text of the repository's .clang-format).
const char* embeddedStyle();

} // namespace risec::tooling
