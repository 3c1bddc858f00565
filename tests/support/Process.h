// Running the risec binary from tests, with stdout and stderr captured apart.
#pragma once

#include <string>
#include <vector>

namespace risec::test {

struct ProcessResult {
  int exitCode = -1; ///< -1 if the process did not exit normally (crash, signal)
  std::string out;
  std::string err;
};

/// Runs `argv` (argv[0] is a path) with `stdinText` on standard input.
ProcessResult runProcess(const std::vector<std::string>& argv, const std::string& stdinText = "");

} // namespace risec::test
