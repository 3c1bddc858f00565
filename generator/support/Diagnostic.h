// User-facing errors. A user error is thrown as a CompileError carrying its
// location; the driver prints it as `FILE:LINE:COL: error: message`, followed
// by the source line and a caret, and exits with status 1.
#pragma once

#include "support/SourceLocation.h"

#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace risec {

struct DiagnosticNote {
  SourceLocation location;
  std::string message;
};

/// An error in the user's input (exit code 1). `code` is the stable identifier
/// listed in docs/errors.md, e.g. "E0101".
class CompileError : public std::runtime_error {
public:
  CompileError(std::string code, SourceLocation location, std::string message)
      : std::runtime_error(message), code_(std::move(code)), location_(std::move(location)),
        message_(std::move(message)) {}

  const std::string& code() const { return code_; }
  const SourceLocation& location() const { return location_; }
  const std::string& message() const { return message_; }
  const std::vector<DiagnosticNote>& notes() const { return notes_; }

  CompileError& note(SourceLocation loc, std::string msg) {
    notes_.push_back({std::move(loc), std::move(msg)});
    return *this;
  }

private:
  std::string code_;
  SourceLocation location_;
  std::string message_;
  std::vector<DiagnosticNote> notes_;
};

/// A bug in risec itself (exit code 2).
class InternalError : public std::logic_error {
public:
  explicit InternalError(const std::string& what) : std::logic_error(what) {}
};

/// Prints `FILE:LINE:COL: error: message [code]`, the source line and a caret,
/// then each note the same way.
void printDiagnostic(std::ostream& os, const CompileError& error);

/// The one-line form `FILE:LINE:COL: error: message` (used by tests).
std::string headline(const CompileError& error);

} // namespace risec
