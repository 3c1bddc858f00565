// Reading user files for the driver.
#pragma once

#include "support/SourceLocation.h"

#include <memory>
#include <string>

namespace risec::driver {

/// Reads a source file; a missing or unreadable file is a user error (E0501).
std::shared_ptr<const SourceFile> loadSource(const std::string& path);

} // namespace risec::driver
