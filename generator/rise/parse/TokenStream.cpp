#include "rise/parse/TokenStream.h"

#include "rise/parse/SyntaxErrors.h"
#include "support/Diagnostic.h"

#include <charconv>

namespace risec::rise {

namespace {
// Deep enough for any hand-written program, shallow enough that the
// recursive-descent frames stay far from the stack limit.
constexpr int kMaxDepth = 200;
} // namespace

TokenStream::TokenStream(std::vector<Token> tokens) : tokens_(std::move(tokens)) {
  if (tokens_.empty() || tokens_.back().kind != TokenKind::End)
    throw InternalError("token stream without End token");
}

const Token& TokenStream::peek(std::size_t k) const {
  return tokenAt(pos_ + k);
}

const Token& TokenStream::tokenAt(std::size_t index) const {
  return index < tokens_.size() ? tokens_[index] : tokens_.back();
}

const Token& TokenStream::next() {
  const Token& t = tokens_[pos_];
  if (pos_ + 1 < tokens_.size())
    ++pos_;
  return t;
}

bool TokenStream::accept(TokenKind k) {
  if (!at(k))
    return false;
  next();
  return true;
}

const Token& TokenStream::expect(TokenKind k, const std::string& why) {
  if (!at(k))
    fail(syntax::kExpectedToken, peek(),
         "expected " + tokenKindName(k) + (why.empty() ? "" : " " + why) + ", found " +
             describe(peek()));
  return next();
}

const Token& TokenStream::expectClosing(TokenKind k, const std::string& why,
                                        const SourceLocation& open, const std::string& opener) {
  try {
    return expect(k, why);
  } catch (CompileError& e) {
    e.note(open, opener + " starts here");
    throw;
  }
}

void TokenStream::splitDottedSizes() {
  Token whole = peek();
  auto dot = whole.text.find('.');
  Token first = whole, sep = whole, second = whole;
  first.kind = second.kind = TokenKind::Int;
  first.literalKind = second.literalKind = ScalarKind::I32;
  first.text = whole.text.substr(0, dot);
  second.text = whole.text.substr(dot + 1);
  for (Token* part : {&first, &second}) {
    const std::string& digits = part->text;
    if (std::from_chars(digits.data(), digits.data() + digits.size(), part->intValue).ec !=
        std::errc())
      fail(syntax::kLiteralRange, whole, "array size `" + digits + "` is too large");
  }
  sep.kind = TokenKind::Dot;
  sep.text = ".";
  sep.loc.column += static_cast<int>(dot);
  second.loc.column += static_cast<int>(dot) + 1;
  tokens_[pos_] = first;
  tokens_.insert(tokens_.begin() + static_cast<std::ptrdiff_t>(pos_) + 1, {sep, second});
}

void TokenStream::fail(const char* code, const Token& at, const std::string& message) const {
  throw CompileError(code, at.loc, message);
}

TokenStream::DepthGuard::DepthGuard(TokenStream& ts) : ts_(ts) {
  if (++ts_.depth_ > kMaxDepth) {
    --ts_.depth_;
    ts_.fail(syntax::kTooDeep, ts_.peek(),
             "expression or type nested too deeply (more than " + std::to_string(kMaxDepth) +
                 " levels); split it into several `def`s");
  }
}

} // namespace risec::rise
