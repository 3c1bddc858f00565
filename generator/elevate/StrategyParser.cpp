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
    for (;;) {
      if (peek().kind == Tok::Def)
        f.defs.push_back(def());
      else if (peek().kind == Tok::Param)
        f.params.push_back(param());
      else if (peek().kind == Tok::Require)
        f.requirements.push_back(require());
      else
        break;
    }
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

  /// `param NAME = INT [in [INT, ...]]`
  SParam param() {
    SParam p;
    p.loc = next().loc;
    p.name = expect(Tok::Ident, "a parameter name after `param`").text;
    expect(Tok::Equals, "`=` and the parameter's default value");
    p.defaultValue = expect(Tok::Int, "the parameter's default value (an integer)").value;
    if (peek().kind == Tok::In) {
      next();
      expect(Tok::LBracket, "`[` and the list of candidate values");
      do {
        p.candidates.push_back(expect(Tok::Int, "an integer").value);
      } while (peek().kind == Tok::Comma && (next(), true));
      expect(Tok::RBracket, "`,` or `]`");
    }
    return p;
  }

  /// `require COND` (an optional `;` ends it)
  SRequire require() {
    SRequire r;
    r.loc = next().loc;
    r.cond = condition(0);
    if (peek().kind == Tok::Semi)
      next();
    return r;
  }

  /// Binding strength of a condition's operators; 0: not one.
  static int precedence(const Token& t) {
    if (t.kind != Tok::Op)
      return 0;
    if (t.text == "&&")
      return 1;
    if (t.text == "==" || t.text == "!=" || t.text == "<" || t.text == "<=" || t.text == ">" ||
        t.text == ">=")
      return 2;
    if (t.text == "+" || t.text == "-")
      return 3;
    return 4; // * / %
  }

  /// Precedence climbing; every operator is left-associative.
  SExprPtr condition(int minPrec) {
    SExprPtr lhs = operand();
    while (precedence(peek()) > minPrec) {
      Token op = next();
      auto n = std::make_shared<SExpr>();
      n->kind = SExpr::Kind::Binary;
      n->loc = op.loc;
      n->name = op.text;
      n->lhs = lhs;
      n->rhs = condition(precedence(op));
      lhs = n;
    }
    return lhs;
  }

  SExprPtr operand() {
    auto n = std::make_shared<SExpr>();
    n->loc = peek().loc;
    if (peek().kind == Tok::LParen) {
      next();
      SExprPtr e = condition(0);
      expect(Tok::RParen, "`)`");
      return e;
    }
    if (peek().kind == Tok::Int) {
      n->kind = SExpr::Kind::Int;
      n->value = next().value;
      return n;
    }
    if (peek().kind == Tok::Ident) {
      n->kind = SExpr::Kind::Name;
      n->name = next().text;
      return n;
    }
    fail("a number, a parameter or `(` in the condition");
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
