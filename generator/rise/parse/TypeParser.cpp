#include "rise/parse/TypeParser.h"

#include "rise/parse/SyntaxErrors.h"
#include "support/Diagnostic.h"

#include <limits>

namespace risec::rise {

namespace {

constexpr std::size_t kNoMatch = static_cast<std::size_t>(-1);

bool isNatOperator(TokenKind k) {
  return k == TokenKind::Plus || k == TokenKind::Minus || k == TokenKind::Star ||
         k == TokenKind::Slash || k == TokenKind::Percent || k == TokenKind::Caret;
}

bool isKindName(std::string_view s) {
  return s == "Nat" || s == "Data" || s == "AddrSpace" || s == "Scalar" || s == "Numeric" ||
         s == "Float";
}

DepBinder refinedDataBinder(const std::string& name, TypeSort sort, bool implicit) {
  DepBinder b;
  b.kind = Kind::Data;
  b.implicit = implicit;
  b.data = freshTypeVar(name, sort, false)->varInfo();
  return b;
}

} // namespace

// ---- types ------------------------------------------------------------------

Type TypeParser::parseType() {
  TokenStream::DepthGuard guard(ts_);
  if (ts_.at(TokenKind::LBrace))
    return parseDepFunType(true);
  if (ts_.at(TokenKind::LParen) && ts_.kind(1) == TokenKind::Ident &&
      ts_.kind(2) == TokenKind::Colon)
    return parseDepFunType(false);
  Type lhs = parseAtom();
  if (ts_.accept(TokenKind::Arrow))
    return funType(lhs, parseType());
  return lhs;
}

Type TypeParser::parseDataType(const std::string& what) {
  Token start = ts_.peek();
  Type t = parseType();
  if (!t->isData())
    ts_.fail(syntax::kNotDataType, start,
             what + " must be a data type, but `" + typeToString(t) + "` is a function type");
  return t;
}

Type TypeParser::parseDepFunType(bool implicit) {
  ts_.next();
  Token name = ts_.expect(TokenKind::Ident, "naming the type parameter");
  ts_.expect(TokenKind::Colon, "after the type parameter `" + name.text + "`");
  DepBinder binder = parseBinderKind(name, implicit);
  ts_.expect(implicit ? TokenKind::RBrace : TokenKind::RParen,
             "to close the type parameter `" + name.text + "`");
  ts_.expect(TokenKind::Arrow, "after the type parameter `" + name.text + "`");
  std::size_t mark = scope_.size();
  scope_.pushDep(binder);
  Type body = parseType();
  scope_.restore(mark);
  return depFunType(binder, body);
}

Type TypeParser::parseAtom() {
  TokenStream::DepthGuard guard(ts_);
  const Token& t = ts_.peek();
  switch (t.kind) {
  case TokenKind::LParen:
    return isParenthesisedSize(ts_.position()) ? parseArrayWithSize() : parseParenthesised();
  case TokenKind::Int:
    return parseArrayWithSize();
  case TokenKind::Float:
    if (isDottedSizes(t)) {
      ts_.splitDottedSizes();
      return parseArrayWithSize();
    }
    break;
  case TokenKind::Ident:
    return isSizeContinuation(ts_.position() + 1) ? parseArrayWithSize() : parseNamed();
  default:
    break;
  }
  ts_.fail(syntax::kExpectedType, t,
           "expected a type, found " + describe(t) +
               "; a type is a scalar such as `f32`, an array `n.f32`, a pair `(f32, i32)` or a "
               "function `f32 -> f32`");
}

Type TypeParser::parseParenthesised() {
  ts_.next();
  Token firstStart = ts_.peek();
  Type first = parseType();
  if (!ts_.accept(TokenKind::Comma)) {
    ts_.expect(TokenKind::RParen, "to close the parenthesised type");
    return first;
  }
  if (!first->isData())
    ts_.fail(syntax::kNotDataType, firstStart,
             "a pair component must be a data type, but `" + typeToString(first) +
                 "` is a function type");
  Type second = parseDataType("a pair component");
  if (ts_.at(TokenKind::Comma))
    ts_.fail(syntax::kTupleTooLong, ts_.peek(),
             "a pair type has exactly two components; nest pairs instead: `(a, (b, c))`");
  ts_.expect(TokenKind::RParen, "to close the pair type");
  return pairType(first, second);
}

Type TypeParser::parseArrayWithSize() {
  Nat size = parseNat();
  ts_.expect(TokenKind::Dot, "between the array size `" + natToString(size) +
                                 "` and the element type (as in `n.f32`)");
  return arrayType(size, parseElement("an array element"));
}

/// The element after `n.`: an atom (no `->` without parentheses), which must be data.
Type TypeParser::parseElement(const std::string& what) {
  Token start = ts_.peek();
  Type t = parseAtom();
  if (!t->isData())
    ts_.fail(syntax::kNotDataType, start,
             what + " must be a data type, but `" + typeToString(t) + "` is a function type");
  return t;
}

Type TypeParser::parseNamed() {
  Token name = ts_.next();
  if (auto s = scalarFromName(name.text))
    return scalarType(*s);
  if ((name.text == "Array" || name.text == "vec" || name.text == "idx") &&
      ts_.at(TokenKind::LBracket))
    return parseBracketed(name);
  return typeVariable(name);
}

Type TypeParser::parseBracketed(const Token& name) {
  ts_.next();
  std::string close = "to close `" + name.text + "[`";
  if (name.text == "idx") {
    Nat n = parseNat();
    ts_.expect(TokenKind::RBracket, close);
    return indexType(n);
  }
  if (name.text == "Array") {
    Nat n = parseNat();
    ts_.expect(TokenKind::Comma, "between the size and the element type of `Array[n, T]`");
    Type elem = parseDataType("an array element");
    ts_.expect(TokenKind::RBracket, close);
    return arrayType(n, elem);
  }
  Token elemStart = ts_.peek();
  Type elem = parseType();
  if (elem->kind() != TypeKind::Scalar && elem->kind() != TypeKind::Var)
    ts_.fail(syntax::kVecElement, elemStart,
             "the element of a vector type must be a scalar, found `" + typeToString(elem) +
                 "`; write `vec[f32, 4]`");
  ts_.expect(TokenKind::Comma, "between the element type and the width of `vec[T, n]`");
  Nat n = parseNat();
  ts_.expect(TokenKind::RBracket, close);
  return vecType(elem, n);
}

Type TypeParser::typeVariable(const Token& name) {
  if (const DepBinder* b = scope_.findDep(name.text)) {
    if (b->kind == Kind::Data)
      return typeVar(b->data);
    std::string what = b->kind == Kind::Nat ? "a size" : "an address space";
    ts_.fail(syntax::kWrongSort, name,
             "`" + name.text + "` is " + what + ", not a data type" +
                 (b->kind == Kind::Nat ? "; an array of `" + name.text + "` elements is written `" +
                                             name.text + ".f32`"
                                       : ""));
  }
  if (allowFreeVars_) {
    auto [it, fresh] = freeTypes_.try_emplace(name.text);
    if (fresh)
      it->second = freshTypeVar(name.text, TypeSort::Data, false);
    return it->second;
  }
  if (isKindName(name.text))
    ts_.fail(syntax::kUnknownType, name,
             "`" + name.text +
                 "` is a kind, not a type; bind a type-level parameter with "
                 "`depFun(x: " +
                 name.text + " => ...)` or `(x: " + name.text + ") -> ...`");
  ts_.fail(syntax::kUnknownType, name,
           "unknown type `" + name.text +
               "`; a type is a scalar (bool, i8..i64, u8..u64, f32, f64, natType), an array, "
               "a pair, `vec[T, n]`, `idx[n]` or a `Data` parameter of an enclosing depFun");
}

// ---- kinds ------------------------------------------------------------------

DepBinder TypeParser::parseBinderKind(const Token& name, bool implicit) {
  if (scalarFromName(name.text))
    ts_.fail(syntax::kWrongSort, name,
             "`" + name.text + "` is a type name and cannot name a parameter");
  Token kind = ts_.expect(TokenKind::Ident, "giving the kind of `" + name.text + "`");
  const std::string& k = kind.text;
  if (k == "Nat")
    return DepBinder::fresh(Kind::Nat, name.text, implicit);
  if (k == "Data")
    return DepBinder::fresh(Kind::Data, name.text, implicit);
  if (k == "AddrSpace")
    return DepBinder::fresh(Kind::AddrSpace, name.text, implicit);
  if (k == "Scalar")
    return refinedDataBinder(name.text, TypeSort::Scalar, implicit);
  if (k == "Numeric")
    return refinedDataBinder(name.text, TypeSort::Numeric, implicit);
  if (k == "Float")
    return refinedDataBinder(name.text, TypeSort::Float, implicit);
  ts_.fail(syntax::kUnknownKind, kind,
           "unknown kind `" + k +
               "`; the kinds are Nat, Data, AddrSpace and the data refinements Scalar, Numeric "
               "and Float");
}

// ---- sizes ------------------------------------------------------------------

Nat TypeParser::parseNat() {
  return parseSum();
}

Nat TypeParser::parseSum() {
  Nat lhs = parseProduct();
  for (;;) {
    if (ts_.accept(TokenKind::Plus))
      lhs = natAdd(lhs, parseProduct());
    else if (ts_.accept(TokenKind::Minus))
      lhs = natSub(lhs, parseProduct());
    else
      return lhs;
  }
}

Nat TypeParser::parseProduct() {
  Nat lhs = parsePower();
  for (;;) {
    if (ts_.accept(TokenKind::Star))
      lhs = natMul(lhs, parsePower());
    else if (ts_.accept(TokenKind::Slash))
      lhs = natDiv(lhs, parsePower());
    else if (ts_.accept(TokenKind::Percent))
      lhs = natMod(lhs, parsePower());
    else
      return lhs;
  }
}

/// `^` binds tightest and associates to the right: 2^n^2 = 2^(n^2).
Nat TypeParser::parsePower() {
  TokenStream::DepthGuard guard(ts_);
  Nat base = parseNatAtom();
  if (ts_.accept(TokenKind::Caret))
    return natPow(base, parsePower());
  return base;
}

Nat TypeParser::parseNatAtom() {
  Token t = ts_.peek();
  switch (t.kind) {
  case TokenKind::Int:
    ts_.next();
    return natConst(sizeLiteral(t));
  case TokenKind::Ident:
    ts_.next();
    return natVariable(t);
  case TokenKind::LParen: {
    ts_.next();
    Nat n = parseNat();
    ts_.expect(TokenKind::RParen, "to close the parenthesised size");
    return n;
  }
  case TokenKind::Minus:
    // Sizes are naturals, but intermediate forms printed by natToString
    // (`-1 + n`, `2^(-1)`) must read back.
    ts_.next();
    return natSub(natConst(0), parsePower());
  default:
    ts_.fail(syntax::kExpectedSize, t,
             "expected a size (a number, a size variable or a parenthesised size expression), "
             "found " +
                 describe(t));
  }
}

std::int64_t TypeParser::sizeLiteral(const Token& t) const {
  if (t.hasSuffix)
    ts_.fail(syntax::kSizeSuffix, t,
             "a size is a plain number; remove the type suffix from `" + t.text + "`");
  if (t.intValue > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
    ts_.fail(syntax::kLiteralRange, t,
             "size `" + t.text + "` is too large (the largest is 2^63-1)");
  return static_cast<std::int64_t>(t.intValue);
}

Nat TypeParser::natVariable(const Token& name) {
  if (const DepBinder* b = scope_.findDep(name.text)) {
    if (b->kind == Kind::Nat)
      return natVarRef(b->nat);
    std::string what = b->kind == Kind::Data ? "a data type" : "an address space";
    ts_.fail(syntax::kWrongSort, name, "`" + name.text + "` is " + what + ", not a size");
  }
  if (scalarFromName(name.text))
    ts_.fail(syntax::kWrongSort, name,
             "`" + name.text + "` is a scalar type, not a size; an array type is `n." + name.text +
                 "`");
  if (allowFreeVars_) {
    auto [it, fresh] = freeNats_.try_emplace(name.text);
    if (fresh)
      it->second = natVar(name.text);
    return it->second;
  }
  ts_.fail(syntax::kUnknownSize, name,
           "unknown size variable `" + name.text +
               "`; sizes must be bound by an enclosing depFun, e.g. `depFun(" + name.text +
               ": Nat => ...)`");
}

// ---- lookahead ----------------------------------------------------------------

/// After a number or name, `.` or an arithmetic operator means it is a size.
bool TypeParser::isSizeContinuation(std::size_t index) const {
  TokenKind k = ts_.tokenAt(index).kind;
  return k == TokenKind::Dot || isNatOperator(k);
}

std::size_t TypeParser::matchingParen(std::size_t open) const {
  int depth = 0;
  for (std::size_t i = open;; ++i) {
    TokenKind k = ts_.tokenAt(i).kind;
    if (k == TokenKind::End)
      return kNoMatch;
    if (k == TokenKind::LParen)
      ++depth;
    else if (k == TokenKind::RParen && --depth == 0)
      return i;
  }
}

/// `(n + 1).f32`: only size tokens inside the parentheses and a `.` after them.
bool TypeParser::isParenthesisedSize(std::size_t open) const {
  std::size_t close = matchingParen(open);
  if (close == kNoMatch || ts_.tokenAt(close + 1).kind != TokenKind::Dot)
    return false;
  for (std::size_t i = open + 1; i < close; ++i) {
    TokenKind k = ts_.tokenAt(i).kind;
    if (k != TokenKind::Int && k != TokenKind::Ident && k != TokenKind::LParen &&
        k != TokenKind::RParen && !isNatOperator(k))
      return false;
  }
  return true;
}

bool TypeParser::startsType(std::size_t index) const {
  // Skip opening parentheses iteratively (no recursion on hostile input).
  for (; ts_.tokenAt(index).kind == TokenKind::LParen; ++index) {
    std::size_t close = matchingParen(index);
    if (close != kNoMatch && ts_.tokenAt(close + 1).kind == TokenKind::Dot)
      return true;
    if (ts_.tokenAt(index + 1).kind == TokenKind::Ident &&
        ts_.tokenAt(index + 2).kind == TokenKind::Colon)
      return true;
  }
  const Token& t = ts_.tokenAt(index);
  TokenKind next = ts_.tokenAt(index + 1).kind;
  switch (t.kind) {
  case TokenKind::LBrace:
    return true;
  case TokenKind::Int:
    return next == TokenKind::Dot;
  case TokenKind::Float:
    return isDottedSizes(t) && next == TokenKind::Dot;
  case TokenKind::Ident:
    if (scalarFromName(t.text) || next == TokenKind::Dot)
      return true;
    if ((t.text == "Array" || t.text == "vec" || t.text == "idx") && next == TokenKind::LBracket)
      return true;
    return scope_.isDataBinder(t.text);
  default:
    return false;
  }
}

} // namespace risec::rise
