// Stable codes of the syntax errors raised by the lexer and the parser. Each
// is documented in docs/errors.md ("Syntax errors (E01xx)"); tests assert
// them, so a code is never reused for a different kind of error.
#pragma once

namespace risec::rise::syntax {

inline constexpr const char* kUnexpectedChar = "E0101";
inline constexpr const char* kUnterminatedString = "E0102";
inline constexpr const char* kUnterminatedComment = "E0103";
inline constexpr const char* kBadNumber = "E0104";
inline constexpr const char* kLiteralRange = "E0105";
inline constexpr const char* kBadEscape = "E0106";
inline constexpr const char* kExpectedToken = "E0107";
inline constexpr const char* kExpectedExpr = "E0108";
inline constexpr const char* kExpectedType = "E0109";
inline constexpr const char* kUnknownKind = "E0110";
inline constexpr const char* kUnknownSize = "E0111";
inline constexpr const char* kUnknownType = "E0112";
inline constexpr const char* kDuplicateDecl = "E0113";
inline constexpr const char* kEmptyArgs = "E0114";
inline constexpr const char* kExpectedDecl = "E0115";
inline constexpr const char* kNotDataType = "E0116";
inline constexpr const char* kWrongSort = "E0117";
inline constexpr const char* kVecElement = "E0118";
inline constexpr const char* kTooDeep = "E0119";
inline constexpr const char* kSizeSuffix = "E0120";
inline constexpr const char* kTupleTooLong = "E0121";
inline constexpr const char* kCaretInExpr = "E0122";
inline constexpr const char* kExpectedSize = "E0123";
inline constexpr const char* kArrayElement = "E0124";
inline constexpr const char* kEmptyArray = "E0125";

} // namespace risec::rise::syntax
