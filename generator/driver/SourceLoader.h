// Reading user files for the driver.
#pragma once

#include "rise/ast/Expr.h"
#include "support/SourceLocation.h"

#include <memory>
#include <string>

namespace risec::driver {

/// Reads a source file; a missing or unreadable file is a user error (E0501).
std::shared_ptr<const SourceFile> loadSource(const std::string& path);

/// The def a command works on: `entry`, or the last def of the file when it
/// is empty. An unknown name or a file without defs is E0502.
std::string resolveEntry(const rise::Program& program, const std::string& entry,
                         const std::string& file);

} // namespace risec::driver
