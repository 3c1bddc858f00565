// A position in a user's source file. Every RISE and strategy AST node keeps one.
#pragma once

#include <memory>
#include <string>

namespace risec {

/// One loaded source file: its display name and full text. Shared by every
/// location that points into it, so diagnostics can print the offending line.
struct SourceFile {
  std::string name;
  std::string text;
};

struct SourceLocation {
  std::shared_ptr<const SourceFile> file; ///< null for compiler-synthesised nodes
  int line = 0;                           ///< 1-based; 0 when unknown
  int column = 0;                         ///< 1-based; 0 when unknown

  bool known() const { return file != nullptr && line > 0; }
  /// "file:line:col", or "<unknown>" for synthesised nodes.
  std::string str() const;
  /// "f.rise:3:5": the file's base name, for positions named inside a
  /// message or in generated code (which must not depend on how risec was
  /// invoked).
  std::string shortStr() const;
};

} // namespace risec
