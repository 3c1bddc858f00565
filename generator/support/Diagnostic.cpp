#include "support/Diagnostic.h"

#include <filesystem>
#include <sstream>

namespace risec {

std::string SourceLocation::str() const {
  if (!known())
    return "<unknown>";
  return file->name + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::string SourceLocation::shortStr() const {
  if (!known())
    return "<unknown>";
  return std::filesystem::path(file->name).filename().string() + ":" + std::to_string(line) + ":" +
         std::to_string(column);
}

namespace {

std::string sourceLine(const SourceFile& file, int line) {
  std::istringstream in(file.text);
  std::string text;
  for (int i = 1; std::getline(in, text); ++i)
    if (i == line)
      return text;
  return {};
}

void printOne(std::ostream& os, const SourceLocation& loc, const char* severity,
              const std::string& message) {
  // Errors without a place in a source file (a missing file, a bad option)
  // are attributed to the tool itself.
  os << (loc.known() ? loc.str() : std::string("risec")) << ": " << severity << ": " << message
     << "\n";
  if (!loc.known())
    return;
  std::string text = sourceLine(*loc.file, loc.line);
  os << "  " << text << "\n  ";
  // Keep tabs so the caret lines up under tab-indented code.
  for (int i = 1; i < loc.column && i - 1 < static_cast<int>(text.size()); ++i)
    os << (text[i - 1] == '\t' ? '\t' : ' ');
  os << "^\n";
}

} // namespace

void printDiagnostic(std::ostream& os, const CompileError& error) {
  printOne(os, error.location(), "error", error.message() + " [" + error.code() + "]");
  for (const DiagnosticNote& n : error.notes())
    printOne(os, n.location, "note", n.message);
}

std::string headline(const CompileError& error) {
  return error.location().str() + ": error: " + error.message();
}

} // namespace risec
