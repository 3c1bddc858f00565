#include "elevate/StrategyParser.h"

#include "elevate/StrategyLexer.h"
#include "support/Diagnostic.h"

namespace risec::elevate {

namespace {

class Parser {
public:
  explicit Parser(std::vector<Token> toks) : toks_(std::move(toks)) {}

  StrategyFileAst file() {
    StrategyFileAst f;
    while (peek().kind == Tok::Def)
      f.defs.push_back(def());
    if (peek().kind == Tok::End)
      throw CompileError("E0702", peek().loc,
                         "a strategy file must end with the strategy to apply, but it ends here");
    f.main = strategy();
    if (peek().kind != Tok::End)
      fail("`;`, `;;`, `<+`, `@` or the end of the file");
    return f;
  }

private:
  const Token& peek() const { return toks_[pos_]; }
  Token next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  [[noreturn]] void fail(const std::string& expected) {
    throw CompileError("E0702", peek().loc,
                       "expected " + expected + ", found " + tokenDescription(peek()));
  }
  Token expect(Tok k, const std::string& what) {
    if (peek().kind != k)
      fail(what);
    return next();
  }

  SDef def() {
    Token d = next();
    SDef out;
    out.loc = d.loc;
    out.name = expect(Tok::Ident, "a name after `def`").text;
    if (peek().kind == Tok::LParen) {
      next();
      do {
        out.params.push_back(expect(Tok::Ident, "a parameter name").text);
      } while (peek().kind == Tok::Comma && (next(), true));
      expect(Tok::RParen, "`,` or `)`");
    }
    expect(Tok::Equals, "`=`");
    out.body = strategy();
    return out;
  }

  SNodePtr binary(SNode::Kind k, SNodePtr a, SNodePtr b, SourceLocation loc) {
    auto n = std::make_shared<SNode>();
    n->kind = k;
    n->loc = std::move(loc);
    n->args = {std::move(a), std::move(b)};
    return n;
  }

  SNodePtr strategy() {
    SNodePtr a = choice();
    while (peek().kind == Tok::Semi || peek().kind == Tok::SemiSemi) {
      Token op = next();
      SNodePtr b = choice();
      a = binary(op.kind == Tok::Semi ? SNode::Kind::Seq : SNode::Kind::DSeq, a, b, op.loc);
    }
    return a;
  }

  SNodePtr choice() {
    SNodePtr a = at();
    while (peek().kind == Tok::Choice) {
      Token op = next();
      a = binary(SNode::Kind::Choice, a, at(), op.loc);
    }
    return a;
  }

  SNodePtr at() {
    SNodePtr a = primary();
    while (peek().kind == Tok::At) {
      Token op = next();
      if (peek().kind != Tok::Ident)
        fail("a traversal or location after `@`");
      a = binary(SNode::Kind::At, a, call(), op.loc);
    }
    return a;
  }

  SNodePtr primary() {
    if (peek().kind == Tok::LParen) {
      next();
      SNodePtr s = strategy();
      expect(Tok::RParen, "`)`");
      return s;
    }
    if (peek().kind != Tok::Ident)
      fail("a strategy");
    return call();
  }

  SNodePtr call() {
    Token name = next();
    auto n = std::make_shared<SNode>();
    n->kind = SNode::Kind::Call;
    n->name = name.text;
    n->loc = name.loc;
    if (peek().kind == Tok::LParen) {
      next();
      n->hasParens = true;
      do {
        n->args.push_back(arg());
      } while (peek().kind == Tok::Comma && (next(), true));
      expect(Tok::RParen, "`,` or `)`");
    }
    return n;
  }

  SNodePtr arg() {
    auto n = std::make_shared<SNode>();
    n->loc = peek().loc;
    if (peek().kind == Tok::Int) {
      n->kind = SNode::Kind::Int;
      n->value = next().value;
      return n;
    }
    if (peek().kind == Tok::LBracket) {
      next();
      n->kind = SNode::Kind::List;
      do {
        n->items.push_back(expect(Tok::Int, "an integer").value);
      } while (peek().kind == Tok::Comma && (next(), true));
      expect(Tok::RBracket, "`,` or `]`");
      return n;
    }
    return strategy();
  }

  std::vector<Token> toks_;
  std::size_t pos_ = 0;
};

} // namespace

StrategyFileAst parseStrategyFile(const std::shared_ptr<const SourceFile>& file) {
  return Parser(lexStrategy(file)).file();
}

} // namespace risec::elevate
