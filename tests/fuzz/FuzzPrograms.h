// The programs the strategy and compile harnesses rewrite: specs/*.rise and
// tests/rise/*.rise that type-check, and tests/rise/errors/strategy_*.rise,
// each by its path from the repository's root. An input names one on its
// first line, `// program: PATH` (a comment, so the input stays a strategy
// file); without one it is specs/mm.rise.
#pragma once

#include "rise/infer/Infer.h"

#include <string>

namespace risec::fuzz {

struct RewriteTarget {
  rise::Program program;
  rise::TypedDef entry; ///< the last def
};

/// Loads the programs (once; exits with a message when specs/mm.rise does
/// not load). `harness` names the caller in that message.
void loadPrograms(const char* harness);

/// The program the input names, or specs/mm.rise.
const RewriteTarget& programFor(const std::string& input);

/// The value of a `// KEY: VALUE` line among the input's leading comment
/// lines, or empty.
std::string headerValue(const std::string& input, const std::string& key);

} // namespace risec::fuzz
