// Recursive-descent parser for RISE expressions. Precedence, loosest first:
// `|>` (left), `>>` (left), the C binary operators, unary `-` and `!`,
// calls `f(a, b)`, atoms.
#pragma once

#include "rise/ast/Expr.h"
#include "rise/parse/TypeParser.h"

#include <set>

namespace risec::rise {

/// Binder names for desugaring `f >> g` into `fun(_xN => g(f(_xN)))`. Names
/// the user wrote anywhere in the file are skipped, so they cannot clash.
class NameSupply {
public:
  explicit NameSupply(const std::vector<Token>& tokens);
  std::string fresh();

private:
  std::set<std::string> used_;
  int counter_ = 0;
};

class ExprParser {
public:
  ExprParser(TokenStream& ts, Scope& scope, NameSupply& names)
      : ts_(ts), scope_(scope), names_(names), types_(ts, scope) {}

  Expr parseExpr();
  TypeParser& types() { return types_; }

private:
  Expr parsePipeline();
  Expr parseComposition();
  Expr parseBinary(int minPrecedence);
  Expr parseUnary();
  Expr parsePostfix(bool negated);
  Expr parseCall(Expr callee, const SourceLocation& start);
  Expr parseArgument(Expr fn, const SourceLocation& start);
  Expr parseAtom(bool negated);
  Expr variable(const Token& name) const;
  Expr parseLiteral(const Token& t, bool negated) const;
  Expr parseParenthesised();
  Expr parseArrayLiteral();
  Expr parseArrayElement();
  Expr parseLambda();
  Expr parseDepLambda();
  std::vector<DepBinder> parseDepBinders();

  TokenStream& ts_;
  Scope& scope_;
  NameSupply& names_;
  TypeParser types_;
};

} // namespace risec::rise
