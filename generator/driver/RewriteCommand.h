// `risec rewrite FILE.rise --strategy S.elevate [--entry NAME] [--trace]`:
// prints the rewritten entry (docs/strategies.md; docs/usage.md, "The command
// line").
#pragma once

#include <iosfwd>
#include <string>

namespace risec::driver {

struct RewriteOptions {
  std::string file;
  std::string strategy;
  std::string entry; ///< default: the last def
  bool trace = false;
  /// c | openmp | opencl: the back end `lowerToC` in the strategy lowers for.
  std::string target = "c";
};

/// Prints the rewritten program to `out`; the trace (with --trace) to `err`.
int runRewrite(const RewriteOptions& opts, std::ostream& out, std::ostream& err);

} // namespace risec::driver
