// Pipeline stage "verify": every emitted file is parsed by Clang (through
// LibTooling) in its own language mode with all warnings as errors. A file
// that fails is a bug in risec: the caller reports an internal error.
#pragma once

#include "tooling/SourceLanguage.h"

#include <map>
#include <string>
#include <vector>

namespace risec::tooling {

struct VerifyResult {
  bool ok = false;
  /// Clang's diagnostics as `file:line:col: error: message` lines.
  std::string diagnostics;
};

/// Parses `code` as the file `fileName` (its name only matters for messages
/// and for resolving `#include "..."` against `includeDirs`). Flags: C11
/// `-std=c11 -Wall -Wextra -Werror`, plus `-fopenmp` for OpenMP, and
/// `-cl-std=CL1.2` with the default OpenCL header for OpenCL. OpenCL host code
/// is parsed without the x86 vector extensions' macros (`__SSE__` ...), which
/// only make CL/cl_platform.h include the intrinsics headers.
/// `siblings` are further in-memory files next to it (name -> text), e.g. the
/// header that a generated `.c` file includes.
VerifyResult verifySource(const std::string& code, SourceLanguage language,
                          const std::string& fileName,
                          const std::vector<std::string>& includeDirs = {},
                          const std::map<std::string, std::string>& siblings = {});

/// Call on the main thread before starting threads that call verifySource.
/// Clang registers LLVM's signal handlers on first use, and with them an
/// alternate signal stack for the calling thread, allocated with malloc. On a
/// worker thread that stack outlives its registration: AddressSanitizer's
/// thread exit unmaps whatever stack is registered and aborts on a heap
/// block. Registering once here keeps that stack on the main thread.
void registerSignalHandlers();

} // namespace risec::tooling
