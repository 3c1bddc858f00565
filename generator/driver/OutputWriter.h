// Writing generated files so that a failure never leaves partial output
// (docs/usage.md, "The command line"): every file goes to a temporary file
// first and is renamed into place only when all of them were written.
#pragma once

#include "codegen/Compile.h"

#include <string>
#include <vector>

namespace risec::driver {

/// Writes `files` into the existing directory `dir`, all or none (E0612 when
/// `dir` does not exist or a file cannot be written).
void writeAtomically(const std::string& dir, const std::vector<codegen::OutputFile>& files);

/// Like writeAtomically, but leaves files whose contents are already equal
/// untouched (their modification times stay, so build tools do not rebuild
/// them). Returns the names of the files written.
std::vector<std::string> writeChanged(const std::string& dir,
                                      const std::vector<codegen::OutputFile>& files);

/// Makes `dir` hold exactly `files`: they are written into a temporary
/// sibling directory, which then replaces `dir` (created if missing). On
/// failure `dir` is left as it was (E0612).
void replaceDirectory(const std::string& dir, const std::vector<codegen::OutputFile>& files);

} // namespace risec::driver
