// The run-time errors of the reference interpreter. Each is a user error
// (risec::CompileError) with a stable code in the E04xx range and the
// location of the AST node (or declaration) that failed.
#pragma once

#include "support/Diagnostic.h"

#include <string>

namespace risec::rise::interp {

namespace errc {
inline constexpr const char* kDivisionByZero = "E0401";   ///< integer `div`/`mod` by zero
inline constexpr const char* kDivisionOverflow = "E0402"; ///< INT_MIN / -1, INT_MIN % -1
inline constexpr const char* kIndexOutOfRange = "E0403";  ///< natAsIndex, idx outside [0, n)
inline constexpr const char* kLengthMismatch = "E0404";   ///< a run-time length contradicts a type
inline constexpr const char* kEmptyPadClamp = "E0405";    ///< padClamp of an empty array
inline constexpr const char* kBadSizeArgument = "E0406";  ///< a size argument is not computable
inline constexpr const char* kSizes = "E0410";            ///< missing / unknown / negative size
inline constexpr const char* kPrecondition = "E0411";     ///< a size precondition does not hold
inline constexpr const char* kInputCount = "E0412";       ///< wrong number of inputs
inline constexpr const char* kInputShape = "E0413";       ///< an input does not match its type
inline constexpr const char* kJsonSyntax = "E0414";       ///< malformed JSON text
inline constexpr const char* kNotRunnable = "E0415";      ///< the def cannot be run as an entry
inline constexpr const char* kForeignCompile = "E0420";   ///< a foreign body does not compile
inline constexpr const char* kForeignLoad = "E0421";      ///< compiled, but cannot be loaded
} // namespace errc

/// Throws the run-time error `code` at `loc`.
[[noreturn]] inline void runtimeError(const char* code, const SourceLocation& loc,
                                      std::string message) {
  throw CompileError(code, loc, std::move(message));
}

} // namespace risec::rise::interp
