// The declaration level of the parser (`def` and `foreign`) and the public
// entry points of Parser.h.
#include "rise/parse/Parser.h"

#include "rise/parse/ExprParser.h"
#include "rise/parse/Lexer.h"
#include "rise/parse/SyntaxErrors.h"
#include "support/Diagnostic.h"

#include <map>

namespace risec::rise {

namespace {

class DeclParser {
public:
  explicit DeclParser(std::vector<Token> tokens)
      : names_(tokens), ts_(std::move(tokens)), exprs_(ts_, scope_, names_) {}

  Program parseProgram() {
    Program program;
    while (!ts_.at(TokenKind::End)) {
      if (ts_.at(TokenKind::KwDef))
        parseDef(program);
      else if (ts_.at(TokenKind::KwForeign))
        parseForeign(program);
      else
        ts_.fail(syntax::kExpectedDecl, ts_.peek(),
                 "expected `def` or `foreign` at the top level, found " + describe(ts_.peek()));
    }
    return program;
  }

private:
  /// `def NAME [: type] = expr`
  void parseDef(Program& program) {
    ts_.next();
    Token name = ts_.expect(TokenKind::Ident, "naming the definition after `def`");
    declare(name);
    Def def;
    def.name = name.text;
    def.loc = name.loc;
    if (ts_.accept(TokenKind::Colon))
      def.annotation = exprs_.types().parseType();
    ts_.expect(TokenKind::Assign, "after `def " + name.text + "`");
    def.body = exprs_.parseExpr();
    program.order.push_back(static_cast<int>(program.defs.size()));
    program.defs.push_back(std::move(def));
  }

  /// `foreign NAME(a: dtype, ...): dtype = "C body"`
  void parseForeign(Program& program) {
    ts_.next();
    Token name = ts_.expect(TokenKind::Ident, "naming the function after `foreign`");
    declare(name);
    auto decl = std::make_shared<ForeignDecl>();
    decl->name = name.text;
    decl->loc = name.loc;
    ts_.expect(TokenKind::LParen, "to start the parameter list of `" + name.text + "`");
    if (!ts_.at(TokenKind::RParen)) {
      do {
        Token param = ts_.expect(TokenKind::Ident, "naming a parameter of `" + name.text + "`");
        ts_.expect(TokenKind::Colon, "and a type after the parameter `" + param.text + "`");
        decl->params.emplace_back(param.text, exprs_.types().parseDataType("a parameter type"));
      } while (ts_.accept(TokenKind::Comma));
    }
    ts_.expect(TokenKind::RParen, "to close the parameter list of `" + name.text + "`");
    ts_.expect(TokenKind::Colon, "and the result type after the parameters of `" + name.text + "`");
    decl->result = exprs_.types().parseDataType("the result type");
    ts_.expect(TokenKind::Assign, "before the C body of `" + name.text + "`");
    decl->body =
        ts_.expect(TokenKind::String, "holding the C body of `" + name.text + "`").stringValue;
    program.order.push_back(~static_cast<int>(program.foreigns.size()));
    program.foreigns.push_back(std::move(decl));
  }

  void declare(const Token& name) {
    auto [it, fresh] = declared_.try_emplace(name.text, name.loc);
    if (!fresh)
      throw CompileError(syntax::kDuplicateDecl, name.loc,
                         "`" + name.text + "` is already defined; rename one of the definitions")
          .note(it->second, "`" + name.text + "` was first defined here");
  }

  NameSupply names_;
  TokenStream ts_;
  Scope scope_;
  ExprParser exprs_;
  std::map<std::string, SourceLocation> declared_;
};

} // namespace

Program parseProgram(std::shared_ptr<const SourceFile> file) {
  return DeclParser(lex(file)).parseProgram();
}

Expr parseExpr(std::shared_ptr<const SourceFile> file) {
  std::vector<Token> tokens = lex(file);
  NameSupply names(tokens);
  TokenStream ts(std::move(tokens));
  Scope scope;
  Expr e = ExprParser(ts, scope, names).parseExpr();
  ts.expect(TokenKind::End, "after the expression");
  return e;
}

Type parseType(std::shared_ptr<const SourceFile> file, bool allowFreeVars) {
  TokenStream ts(lex(file));
  Scope scope;
  Type t = TypeParser(ts, scope, allowFreeVars).parseType();
  ts.expect(TokenKind::End, "after the type");
  return t;
}

Nat parseNat(std::shared_ptr<const SourceFile> file, const std::vector<DepBinder>& sizes) {
  TokenStream ts(lex(file));
  Scope scope;
  for (const DepBinder& b : sizes)
    scope.pushDep(b);
  Nat n = TypeParser(ts, scope).parseNat();
  ts.expect(TokenKind::End, "after the size expression");
  return n;
}

std::shared_ptr<const SourceFile> makeSourceFile(std::string name, std::string text) {
  return std::make_shared<const SourceFile>(SourceFile{std::move(name), std::move(text)});
}

} // namespace risec::rise
