// What every libFuzzer harness of tests/fuzz shares: the rule that an input
// ends in a result or a user diagnostic, and anything else is a finding.
//
// A user diagnostic is a CompileError with a code (E followed by four digits)
// and a known source location. A finding (an InternalError, any other
// exception, a diagnostic without code or location, a broken invariant that
// the harness checks) is printed and aborts, so that libFuzzer saves the
// input as a crash; crashes, sanitizer reports and time-outs are findings
// through libFuzzer itself.
#pragma once

#include "support/Diagnostic.h"

#include <cstdint>
#include <string>

namespace risec::fuzz {

/// Prints "risec-fuzz finding: <what>" and aborts.
[[noreturn]] void finding(const std::string& what);

/// Checks a caught CompileError: a code and a location, else a finding.
void checkDiagnostic(const CompileError& e, const char* stage);

/// Reports the exception being handled (inside a catch block) as a finding
/// of `stage`.
[[noreturn]] void unexpectedException(const char* stage);

/// Runs `f()`: true when it returns, false when it throws a user diagnostic;
/// any other exception is a finding of `stage`.
template <class F> bool resultOrDiagnostic(const char* stage, F&& f) {
  try {
    f();
    return true;
  } catch (const CompileError& e) {
    checkDiagnostic(e, stage);
    return false;
  } catch (...) {
    unexpectedException(stage);
  }
}

/// The repository's root (the harnesses read its corpora and specs/).
std::string sourceDir();

/// FNV-1a of the input: a seed for what the harness chooses (sizes, inputs).
std::uint64_t inputHash(const std::uint8_t* data, std::size_t size);

} // namespace risec::fuzz
