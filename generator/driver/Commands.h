// The subcommands of the `risec` CLI (docs/usage.md, "The command line").
// Each returns the process exit code; user errors are thrown as CompileError
// and reported by main().
#pragma once

#include <iosfwd>
#include <string>

namespace risec::driver {

struct CheckOptions {
  std::string file;
  std::string dump; ///< "", "parse" or "infer"
};

/// `risec check FILE.rise`: parses and type-checks every def, printing
/// `name : type` and its size preconditions.
int runCheck(const CheckOptions& opts, std::ostream& out);

struct EvalOptions {
  std::string file;
  std::string entry;         ///< default: the last def
  std::string sizes;         ///< "n=4,m=3"
  std::string inputs;        ///< path of a JSON file with the argument list, or "-" for stdin
  long long randomSeed = -1; ///< >= 0: random inputs instead of --inputs
};

/// `risec eval FILE.rise`: evaluates a def with the reference interpreter and
/// prints the result as JSON.
int runEval(const EvalOptions& opts, std::ostream& out);

} // namespace risec::driver
