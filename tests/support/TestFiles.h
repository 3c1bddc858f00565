// Small file helpers shared by the test suites.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace risec::test {

/// The whole file as bytes ("" if it cannot be read).
std::string readFile(const std::filesystem::path& p);

/// `s` without leading and trailing white space.
std::string trim(std::string s);

/// The names (not paths) of the regular files in `dir` ending in `ext`
/// (e.g. ".rise"), sorted, so that parameterised tests are listed in a stable
/// order.
std::vector<std::string> filesWithExtension(const std::filesystem::path& dir,
                                            const std::string& ext);

/// A GoogleTest parameter name for a file: its stem with every character
/// that is not a letter or digit replaced by `_` (`a-b.rise` -> `a_b`).
std::string testNameOfFile(const std::string& path);

} // namespace risec::test
