#include "rise/parse/ExprParser.h"

#include "rise/parse/SyntaxErrors.h"
#include "support/Diagnostic.h"

#include <limits>
#include <map>
#include <optional>

namespace risec::rise {

namespace {

/// Whether `t` is punctuation, which may spell an operator (an identifier,
/// literal or string never does).
bool isPunctuation(const Token& t) {
  switch (t.kind) {
  case TokenKind::End:
  case TokenKind::Ident:
  case TokenKind::Int:
  case TokenKind::Float:
  case TokenKind::String:
    return false;
  default:
    return true;
  }
}

/// The operators the parser knows, from the primitive table: a binary
/// operator is a primitive with an `infix` spelling (`+`: add), a prefix one
/// a scalar operator without one whose C operator is its spelling (`-`: neg,
/// `!`: not). A new operator needs only its row (and its token in Lexer.cpp).
struct Operators {
  std::map<std::string_view, Prim> binary, prefix;
  Operators() {
    for (Prim p : allPrims()) {
      const PrimTraits& t = primInfo(p).traits;
      if (!t.infix.empty())
        binary.emplace(t.infix, p);
      else if (primFamily(p) == PrimFamily::ScalarOperator && !t.cOperator.empty())
        prefix.emplace(t.cOperator, p);
    }
  }
};

const Operators& operators() {
  static const Operators ops;
  return ops;
}

std::optional<Prim> lookUp(const std::map<std::string_view, Prim>& m, const Token& t) {
  if (!isPunctuation(t))
    return std::nullopt;
  auto it = m.find(t.text);
  return it == m.end() ? std::nullopt : std::optional<Prim>(it->second);
}

/// The binary operator `t` spells (`+`: add), if any.
std::optional<Prim> binaryOperator(const Token& t) {
  return lookUp(operators().binary, t);
}

/// The prefix operator `t` spells (`-`: neg, `!`: not), if any.
std::optional<Prim> prefixOperator(const Token& t) {
  return lookUp(operators().prefix, t);
}

/// " of `f`" when the callee of a call chain is a name, for diagnostics.
std::string calleeSuffix(Expr e) {
  while (e->kind() == ExprKind::App || e->kind() == ExprKind::DepApp)
    e = e->fn();
  return e->kind() == ExprKind::Var ? " of `" + e->name() + "`" : "";
}

/// The range text for an out-of-range diagnostic: "(-128..127)".
std::string rangeText(ScalarKind k) {
  int bits = scalarBits(k);
  if (isUnsignedInt(k))
    return "(0.." +
           std::to_string(bits == 64 ? std::numeric_limits<std::uint64_t>::max()
                                     : (std::uint64_t{1} << bits) - 1) +
           ")";
  std::uint64_t max = (std::uint64_t{1} << (bits - 1)) - 1;
  return "(-" + std::to_string(max + 1) + ".." + std::to_string(max) + ")";
}

} // namespace

NameSupply::NameSupply(const std::vector<Token>& tokens) {
  for (const Token& t : tokens)
    if (t.kind == TokenKind::Ident)
      used_.insert(t.text);
}

std::string NameSupply::fresh() {
  for (;;) {
    std::string name = "_x" + std::to_string(++counter_);
    if (!used_.contains(name))
      return name;
  }
}

Expr ExprParser::parseExpr() {
  TokenStream::DepthGuard guard(ts_);
  return parsePipeline();
}

/// `x |> f` is f(x), located at the start of `f`.
Expr ExprParser::parsePipeline() {
  Expr lhs = parseComposition();
  while (ts_.accept(TokenKind::Pipe)) {
    SourceLocation fnStart = ts_.peek().loc;
    Expr fn = parseComposition();
    lhs = makeApp(fn, lhs, fnStart);
  }
  return lhs;
}

/// `f >> g` is fun(x => g(f(x))) with a fresh x, located at the `>>`.
Expr ExprParser::parseComposition() {
  Expr lhs = parseBinary(1);
  while (ts_.at(TokenKind::Compose)) {
    SourceLocation loc = ts_.next().loc;
    Expr rhs = parseBinary(1);
    std::string x = names_.fresh();
    Expr inner = makeApp(lhs, makeVar(x, loc), loc);
    lhs = makeLambda(x, nullptr, makeApp(rhs, inner, loc), loc);
  }
  return lhs;
}

/// Precedence climbing over the C operators; all are left-associative.
Expr ExprParser::parseBinary(int minPrecedence) {
  Expr lhs = parseUnary();
  for (;;) {
    if (ts_.at(TokenKind::Caret))
      ts_.fail(syntax::kCaretInExpr, ts_.peek(),
               "`^` is only defined on sizes in types; for values use `pow(a)(b)`");
    std::optional<Prim> op = binaryOperator(ts_.peek());
    if (!op || infixPrecedence(*op) < minPrecedence)
      return lhs;
    SourceLocation loc = ts_.next().loc;
    Expr rhs = parseBinary(infixPrecedence(*op) + 1);
    // Primitive nodes, not Vars, so a user binder named `add` cannot capture `+`.
    lhs = makeApp(makeApp(makePrimitive(*op, loc), lhs, loc), rhs, loc);
  }
}

Expr ExprParser::parseUnary() {
  std::optional<Prim> prefix = prefixOperator(ts_.peek());
  if (!prefix)
    return parsePostfix(false);
  TokenStream::DepthGuard guard(ts_);
  Token op = ts_.next();
  Prim prim = *prefix;
  // `-2147483648` is valid although 2147483648 alone is out of range for i32.
  Expr operand = prim == Prim::Neg && ts_.at(TokenKind::Int) ? parsePostfix(true) : parseUnary();
  return makeApp(makePrimitive(prim, op.loc), operand, op.loc);
}

Expr ExprParser::parsePostfix(bool negated) {
  SourceLocation start = ts_.peek().loc;
  Expr e = parseAtom(negated);
  while (ts_.at(TokenKind::LParen))
    e = parseCall(e, start);
  return e;
}

/// `f(a, b)` is f(a)(b); every application is located at the start of `f`.
Expr ExprParser::parseCall(Expr callee, const SourceLocation& start) {
  SourceLocation open = ts_.next().loc;
  if (ts_.at(TokenKind::RParen))
    ts_.fail(syntax::kEmptyArgs, ts_.peek(),
             "empty argument list" + calleeSuffix(callee) +
                 "; every RISE function takes at least one argument, e.g. `f(x)`");
  Expr e = std::move(callee);
  do
    e = parseArgument(e, start);
  while (ts_.accept(TokenKind::Comma));
  ts_.expectClosing(TokenKind::RParen, "to close the argument list" + calleeSuffix(e), open,
                    "the argument list");
  return e;
}

/// Arguments that are syntactically types become DepApps; sizes such as
/// `split(32)` stay expressions and are converted by the type checker.
Expr ExprParser::parseArgument(Expr fn, const SourceLocation& start) {
  if (types_.startsType(ts_.position()))
    return makeDepApp(std::move(fn), types_.parseType(), false, start);
  return makeApp(std::move(fn), parseExpr(), start);
}

Expr ExprParser::parseAtom(bool negated) {
  Token t = ts_.peek();
  switch (t.kind) {
  case TokenKind::Ident:
    ts_.next();
    return variable(t);
  case TokenKind::Int:
  case TokenKind::Float:
    ts_.next();
    return parseLiteral(t, negated);
  case TokenKind::KwTrue:
  case TokenKind::KwFalse:
    ts_.next();
    return makeLiteral(ScalarValue::makeBool(t.kind == TokenKind::KwTrue), t.loc);
  case TokenKind::LParen:
    return parseParenthesised();
  case TokenKind::LBracket:
    return parseArrayLiteral();
  case TokenKind::KwFun:
    return parseLambda();
  case TokenKind::KwDepFun:
    return parseDepLambda();
  case TokenKind::String:
    ts_.fail(syntax::kExpectedExpr, t,
             "expected an expression, found a string literal; strings are only allowed as the "
             "body of a `foreign` declaration");
  default:
    ts_.fail(syntax::kExpectedExpr, t, "expected an expression, found " + describe(t));
  }
}

/// A name in expression position. Type names are rejected here: printed
/// back as a call argument they would read as type arguments.
Expr ExprParser::variable(const Token& name) const {
  if (scalarFromName(name.text))
    ts_.fail(syntax::kWrongSort, name,
             "`" + name.text +
                 "` is a type, not a value; a type argument is written as a call "
                 "argument, as in `cast(" +
                 name.text + ")`");
  if (scope_.isDataBinder(name.text))
    ts_.fail(syntax::kWrongSort, name,
             "`" + name.text +
                 "` is a data type parameter, not a value; use it in a type or as "
                 "a type argument, as in `f(" +
                 name.text + ")`");
  return makeVar(name.text, name.loc);
}

Expr ExprParser::parseLiteral(const Token& t, bool negated) const {
  ScalarKind k = t.literalKind;
  if (t.kind == TokenKind::Float)
    return makeLiteral(ScalarValue::makeFloat(k, t.floatValue), t.loc);
  int bits = scalarBits(k);
  std::uint64_t max = isUnsignedInt(k) ? (bits == 64 ? std::numeric_limits<std::uint64_t>::max()
                                                     : (std::uint64_t{1} << bits) - 1)
                                       : (std::uint64_t{1} << (bits - 1)) - (negated ? 0 : 1);
  if (t.intValue > max)
    ts_.fail(syntax::kLiteralRange, t,
             "literal `" + (negated ? "-" : std::string()) + t.text + "` is out of range for " +
                 std::string(scalarName(k)) + " " + rangeText(k) +
                 (t.hasSuffix ? "" : "; add a suffix for a wider type, e.g. `" + t.text + "i64`"));
  if (isUnsignedInt(k))
    return makeLiteral(ScalarValue::makeUInt(k, t.intValue), t.loc);
  // The magnitude of a negated minimum (2^(bits-1)) wraps to the minimum, and
  // neg(minimum) is the minimum again, as in C.
  return makeLiteral(ScalarValue::makeInt(k, static_cast<std::int64_t>(t.intValue)), t.loc);
}

/// `[e1, ..., ek]`, an array literal located at the `[`: its elements are
/// literals, optionally negated, or array literals themselves (inference
/// checks that they share a type).
Expr ExprParser::parseArrayLiteral() {
  TokenStream::DepthGuard guard(ts_);
  Token open = ts_.next();
  if (ts_.at(TokenKind::RBracket))
    ts_.fail(syntax::kEmptyArray, open,
             "an empty array literal `[]`: an array literal needs at least one element (its "
             "type is that of its elements)");
  std::vector<Expr> elements;
  do {
    elements.push_back(parseArrayElement());
    if (!ts_.at(TokenKind::Comma) && !ts_.at(TokenKind::RBracket) && !ts_.at(TokenKind::End))
      ts_.fail(syntax::kArrayElement, ts_.peek(),
               "the elements of an array literal are literals (`1.5f`, `-2`, `true`) or array "
               "literals, and " +
                   describe(ts_.peek()) +
                   " cannot follow one; compute an array with `generate` or `map` instead");
  } while (ts_.accept(TokenKind::Comma));
  ts_.expectClosing(TokenKind::RBracket, "to close the array literal", open.loc,
                    "the array literal");
  return makeArrayLiteral(std::move(elements), open.loc);
}

/// One element of an array literal: `1.5f`, `-2`, `true` or `[...]`.
Expr ExprParser::parseArrayElement() {
  Token t = ts_.peek();
  if (t.kind == TokenKind::LBracket)
    return parseArrayLiteral();
  if (t.kind == TokenKind::KwTrue || t.kind == TokenKind::KwFalse || t.kind == TokenKind::Int ||
      t.kind == TokenKind::Float)
    return parseAtom(false);
  if (t.kind == TokenKind::Minus) {
    ts_.next();
    Token lit = ts_.peek();
    if ((lit.kind == TokenKind::Int || lit.kind == TokenKind::Float) &&
        !isUnsignedInt(lit.literalKind)) {
      ts_.next();
      Expr magnitude = parseLiteral(lit, true);
      ScalarValue v = magnitude->value();
      ScalarValue neg =
          isFloat(v.kind) ? ScalarValue::makeFloat(v.kind, -v.f)
                          : ScalarValue::makeInt(v.kind, static_cast<std::int64_t>(
                                                             0 - static_cast<std::uint64_t>(v.i)));
      return makeLiteral(neg, t.loc);
    }
  }
  ts_.fail(syntax::kArrayElement, t,
           "the elements of an array literal are literals (`1.5f`, `-2`, `true`) or array "
           "literals, found " +
               describe(t) + "; compute an array with `generate` or `map` instead");
}

/// `(e)` or the pair `(a, b)` = makePair(a)(b), located at the `(`.
Expr ExprParser::parseParenthesised() {
  SourceLocation open = ts_.next().loc;
  Expr first = parseExpr();
  if (!ts_.accept(TokenKind::Comma)) {
    ts_.expectClosing(TokenKind::RParen, "to close the parenthesised expression", open,
                      "the parenthesised expression");
    return first;
  }
  Expr second = parseExpr();
  if (ts_.at(TokenKind::Comma))
    ts_.fail(syntax::kTupleTooLong, ts_.peek(),
             "a pair has exactly two components; nest pairs instead: `(a, (b, c))`");
  ts_.expectClosing(TokenKind::RParen, "to close the pair", open, "the pair");
  Expr pair = makeApp(makePrimitive(Prim::MakePair, open), first, open);
  return makeApp(pair, second, open);
}

/// fun(x => e), fun(x: T => e), fun(x, y => e), fun((x: T, y: U) => e).
Expr ExprParser::parseLambda() {
  SourceLocation loc = ts_.next().loc;
  ts_.expect(TokenKind::LParen, "after `fun`");
  bool grouped = ts_.accept(TokenKind::LParen);
  std::vector<std::pair<std::string, Type>> params;
  do {
    Token name = ts_.expect(TokenKind::Ident, "naming a parameter of `fun`");
    if (scalarFromName(name.text))
      ts_.fail(syntax::kWrongSort, name,
               "`" + name.text + "` is a type name and cannot name a parameter");
    Type type = ts_.accept(TokenKind::Colon) ? types_.parseType() : nullptr;
    params.emplace_back(name.text, type);
  } while (ts_.accept(TokenKind::Comma));
  if (grouped)
    ts_.expect(TokenKind::RParen, "to close the parameter list of `fun`");
  ts_.expect(TokenKind::FatArrow, "after the parameters of `fun`");
  std::size_t mark = scope_.size();
  for (const auto& p : params)
    scope_.pushValue(p.first);
  Expr body = parseExpr();
  scope_.restore(mark);
  ts_.expectClosing(TokenKind::RParen, "to close `fun(`", loc, "`fun(`");
  for (auto it = params.rbegin(); it != params.rend(); ++it)
    body = makeLambda(it->first, it->second, body, loc);
  return body;
}

/// depFun(n: Nat => e), depFun((n: Nat, d: Data) => e), depFun(n: Nat, m: Nat => e).
Expr ExprParser::parseDepLambda() {
  SourceLocation loc = ts_.next().loc;
  ts_.expect(TokenKind::LParen, "after `depFun`");
  std::vector<DepBinder> binders = parseDepBinders();
  ts_.expect(TokenKind::FatArrow, "after the parameters of `depFun`");
  std::size_t mark = scope_.size();
  for (const DepBinder& b : binders)
    scope_.pushDep(b);
  Expr body = parseExpr();
  scope_.restore(mark);
  ts_.expectClosing(TokenKind::RParen, "to close `depFun(`", loc, "`depFun(`");
  for (auto it = binders.rbegin(); it != binders.rend(); ++it)
    body = makeDepLambda(*it, body, loc);
  return body;
}

std::vector<DepBinder> ExprParser::parseDepBinders() {
  bool grouped = ts_.accept(TokenKind::LParen);
  std::vector<DepBinder> binders;
  do {
    Token name = ts_.expect(TokenKind::Ident, "naming a parameter of `depFun`");
    ts_.expect(TokenKind::Colon, "and a kind after the parameter `" + name.text +
                                     "` of `depFun` (as in `" + name.text + ": Nat`)");
    binders.push_back(types_.parseBinderKind(name, false));
  } while (ts_.accept(TokenKind::Comma));
  if (grouped)
    ts_.expect(TokenKind::RParen, "to close the parameter list of `depFun`");
  return binders;
}

} // namespace risec::rise
