// Parser for RISE types, sizes (Nats) and kinds. Shared by the expression
// parser (lambda annotations, type arguments of calls, depFun binders) and
// the declaration parser (def annotations, foreign signatures).
//
//   type  := dtype | type '->' type | '(' IDENT ':' kind ')' '->' type
//          | '{' IDENT ':' kind '}' '->' type | '(' type ')'
//   dtype := scalar | nat '.' dtype | 'Array' '[' nat ',' dtype ']'
//          | '(' dtype ',' dtype ')' | 'vec' '[' dtype ',' nat ']' | 'idx' '[' nat ']'
//          | IDENT (a Data parameter)
//   nat   := INT | IDENT | nat ('+'|'-'|'*'|'/'|'%'|'^') nat | '(' nat ')'
//   kind  := Nat | Data | AddrSpace | Scalar | Numeric | Float
#pragma once

#include "rise/parse/Scope.h"
#include "rise/parse/TokenStream.h"

#include <map>

namespace risec::rise {

class TypeParser {
public:
  /// With `allowFreeVars`, unknown names become fresh variables instead of
  /// errors (Nat in size position, Data in type position).
  TypeParser(TokenStream& ts, Scope& scope, bool allowFreeVars = false)
      : ts_(ts), scope_(scope), allowFreeVars_(allowFreeVars) {}

  Type parseType();
  /// A type that must be a data type; `what` names it in the error ("a pair component").
  Type parseDataType(const std::string& what);
  Nat parseNat();
  /// Parses the kind after `name:` and creates the binder's fresh variable.
  DepBinder parseBinderKind(const Token& name, bool implicit);

  /// Lookahead only: does the call argument starting at token `index` look
  /// like a type (`f32`, `n.f32`, `Array[...]`, `(n+1).f32`, a Data binder)?
  bool startsType(std::size_t index) const;

private:
  Type parseDepFunType(bool implicit);
  Type parseAtom();
  Type parseParenthesised();
  Type parseArrayWithSize();
  Type parseNamed();
  Type parseBracketed(const Token& name);
  Type parseElement(const std::string& what);
  Type typeVariable(const Token& name);

  Nat parseSum();
  Nat parseProduct();
  Nat parsePower();
  Nat parseNatAtom();
  Nat natVariable(const Token& name);
  std::int64_t sizeLiteral(const Token& t) const;

  bool isSizeContinuation(std::size_t index) const;
  bool isParenthesisedSize(std::size_t open) const;
  std::size_t matchingParen(std::size_t open) const;

  TokenStream& ts_;
  Scope& scope_;
  bool allowFreeVars_;
  std::map<std::string, Nat> freeNats_;
  std::map<std::string, Type> freeTypes_;
};

} // namespace risec::rise
