// A cursor over the token vector shared by the type, expression and
// declaration parsers: lookahead, expectations with uniform diagnostics, and a
// nesting limit so that hostile input cannot overflow the stack.
#pragma once

#include "rise/parse/Token.h"

#include <string>
#include <vector>

namespace risec::rise {

class TokenStream {
public:
  explicit TokenStream(std::vector<Token> tokens);

  const Token& peek(std::size_t k = 0) const;
  TokenKind kind(std::size_t k = 0) const { return peek(k).kind; }
  bool at(TokenKind k) const { return kind() == k; }
  /// Index of the current token, for lookahead scans with tokenAt().
  std::size_t position() const { return pos_; }
  const Token& tokenAt(std::size_t index) const;

  const Token& next();
  /// Consumes the current token if it has kind `k`.
  bool accept(TokenKind k);
  /// Consumes a token of kind `k` or fails with E0107: "expected `k` <why>, found X".
  const Token& expect(TokenKind k, const std::string& why);

  /// Replaces the current `D1.D2` Float token by Int D1, Dot, Int D2 (a type
  /// such as `4.4.f32` lexes as a float followed by `.f32`).
  void splitDottedSizes();

  /// Like expect() for the bracket closing one opened at `open`; the error
  /// carries a note "`opener` starts here" pointing at it.
  const Token& expectClosing(TokenKind k, const std::string& why, const SourceLocation& open,
                             const std::string& opener);

  [[noreturn]] void fail(const char* code, const Token& at, const std::string& message) const;

  /// Bounds recursion depth; the constructor throws E0119 past the limit.
  class DepthGuard {
  public:
    explicit DepthGuard(TokenStream& ts);
    ~DepthGuard() { --ts_.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

  private:
    TokenStream& ts_;
  };

private:
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

} // namespace risec::rise
