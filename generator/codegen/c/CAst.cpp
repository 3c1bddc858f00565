#include "codegen/c/CAst.h"

#include <array>
#include <cctype>
#include <stdexcept>

namespace risec::codegen::c {

// ---- types --------------------------------------------------------------------

CType namedType(std::string name, bool isConst) {
  return std::make_shared<const TypeNode>(TypeNode::Kind::Named, std::move(name), nullptr, 0,
                                          isConst, false, "");
}

CType pointerType(CType elem, bool isRestrict, bool isConst, std::string addressSpace) {
  return std::make_shared<const TypeNode>(TypeNode::Kind::Pointer, "", std::move(elem), 0, isConst,
                                          isRestrict, std::move(addressSpace));
}

CType arrayType(CType elem, std::int64_t size) {
  return std::make_shared<const TypeNode>(TypeNode::Kind::Array, "", std::move(elem), size, false,
                                          false, "");
}

CType constOf(const CType& t) {
  switch (t->kind()) {
  case TypeNode::Kind::Named:
    return namedType(t->name(), true);
  case TypeNode::Kind::Pointer:
    return pointerType(constOf(t->elem()), t->isRestrict(), t->isConst(), t->addressSpace());
  case TypeNode::Kind::Array:
    return arrayType(constOf(t->elem()), t->size());
  }
  return t;
}

// ---- expressions ----------------------------------------------------------------

namespace {

using precedence::kAssign;
using precedence::kPrefix;

struct Entry {
  COp op;
  COpInfo info;
};

// In the order of COp (checked below).
constexpr std::array<Entry, 36> kOps = {{
    // prefix
    {COp::Neg, {"-", kPrefix, true, true, false}},
    {COp::Not, {"!", kPrefix, true, true, false}},
    {COp::BitNot, {"~", kPrefix, true, true, false}},
    {COp::Deref, {"*", kPrefix, true, true, false}},
    {COp::AddressOf, {"&", kPrefix, true, true, false}},
    {COp::PreInc, {"++", kPrefix, true, true, false}},
    {COp::PreDec, {"--", kPrefix, true, true, false}},
    // infix
    {COp::Mul, {"*", 13, false, false, false}},
    {COp::Div, {"/", 13, false, false, false}},
    {COp::Mod, {"%", 13, false, false, false}},
    {COp::Add, {"+", 12, false, false, false}},
    {COp::Sub, {"-", 12, false, false, false}},
    {COp::Shl, {"<<", 11, false, false, false}},
    {COp::Shr, {">>", 11, false, false, false}},
    {COp::Lt, {"<", 10, false, false, false}},
    {COp::Le, {"<=", 10, false, false, false}},
    {COp::Gt, {">", 10, false, false, false}},
    {COp::Ge, {">=", 10, false, false, false}},
    {COp::Eq, {"==", 9, false, false, false}},
    {COp::Ne, {"!=", 9, false, false, false}},
    {COp::BitAnd, {"&", 8, false, false, false}},
    {COp::BitXor, {"^", 7, false, false, false}},
    {COp::BitOr, {"|", 6, false, false, false}},
    {COp::And, {"&&", 5, false, false, false}},
    {COp::Or, {"||", 4, false, false, false}},
    // assignments
    {COp::Assign, {"=", kAssign, false, true, true}},
    {COp::AddAssign, {"+=", kAssign, false, true, true}},
    {COp::SubAssign, {"-=", kAssign, false, true, true}},
    {COp::MulAssign, {"*=", kAssign, false, true, true}},
    {COp::DivAssign, {"/=", kAssign, false, true, true}},
    {COp::ModAssign, {"%=", kAssign, false, true, true}},
    {COp::ShlAssign, {"<<=", kAssign, false, true, true}},
    {COp::ShrAssign, {">>=", kAssign, false, true, true}},
    {COp::AndAssign, {"&=", kAssign, false, true, true}},
    {COp::XorAssign, {"^=", kAssign, false, true, true}},
    {COp::OrAssign, {"|=", kAssign, false, true, true}},
}};

constexpr bool inOrder() {
  for (std::size_t i = 0; i < kOps.size(); ++i)
    if (static_cast<std::size_t>(kOps[i].op) != i)
      return false;
  return kOps.size() == static_cast<std::size_t>(COp::OrAssign) + 1;
}
static_assert(inOrder(), "kOps lists every COp, in the order of the enum");

CExpr make(ExprNode::Kind k, std::string text, std::vector<CExpr> ops = {}, CType type = nullptr,
           std::optional<COp> op = std::nullopt) {
  return std::make_shared<const ExprNode>(k, std::move(text), std::move(ops), std::move(type), op);
}

} // namespace

const COpInfo& opInfo(COp op) {
  return kOps.at(static_cast<std::size_t>(op)).info;
}

CExpr ident(std::string name) {
  return make(ExprNode::Kind::Ident, std::move(name));
}
CExpr literal(std::string text) {
  return make(ExprNode::Kind::Literal, std::move(text));
}
CExpr intLit(std::int64_t v) {
  return literal(std::to_string(v));
}
CExpr unary(COp op, CExpr e) {
  if (!opInfo(op).prefix)
    throw std::invalid_argument(std::string("C AST: `") + spelling(op) +
                                "` is not a prefix operator");
  return make(ExprNode::Kind::Unary, "", {std::move(e)}, nullptr, op);
}
CExpr binary(COp op, CExpr lhs, CExpr rhs) {
  if (opInfo(op).prefix)
    throw std::invalid_argument(std::string("C AST: `") + spelling(op) +
                                "` is not an infix operator");
  return make(ExprNode::Kind::Binary, "", {std::move(lhs), std::move(rhs)}, nullptr, op);
}
CExpr ternary(CExpr cond, CExpr then, CExpr otherwise) {
  return make(ExprNode::Kind::Ternary, "",
              {std::move(cond), std::move(then), std::move(otherwise)});
}
CExpr call(std::string fn, std::vector<CExpr> args) {
  return make(ExprNode::Kind::Call, std::move(fn), std::move(args));
}
CExpr index(CExpr base, CExpr idx) {
  return make(ExprNode::Kind::Index, "", {std::move(base), std::move(idx)});
}
CExpr member(CExpr base, std::string field) {
  return make(ExprNode::Kind::Member, std::move(field), {std::move(base)});
}
CExpr cast(CType type, CExpr e) {
  return make(ExprNode::Kind::Cast, "", {std::move(e)}, std::move(type));
}
CExpr compoundLiteral(CType type, std::vector<CExpr> elems) {
  return make(ExprNode::Kind::Compound, "", std::move(elems), std::move(type));
}

// ---- statements -------------------------------------------------------------------

struct StmtNode::Fields {
  Kind kind = Kind::Expr;
  CType type;
  std::string text, comment;
  CExpr e0, e1;
  CStmt s0;
  std::vector<CStmt> body, elseBody;
  bool hasElse = false;
};

StmtNode::StmtNode(Fields f)
    : kind_(f.kind), type_(std::move(f.type)), text_(std::move(f.text)),
      comment_(std::move(f.comment)), e0_(std::move(f.e0)), e1_(std::move(f.e1)),
      s0_(std::move(f.s0)), body_(std::move(f.body)), else_(std::move(f.elseBody)),
      hasElse_(f.hasElse) {}

namespace {
StmtNode::Fields fields(StmtNode::Kind k) {
  StmtNode::Fields f;
  f.kind = k;
  return f;
}
CStmt build(StmtNode::Fields f) {
  return std::make_shared<const StmtNode>(std::move(f));
}
} // namespace

CStmt declStmt(CType type, std::string name, CExpr init) {
  auto f = fields(StmtNode::Kind::Decl);
  f.type = std::move(type);
  f.text = std::move(name);
  f.e0 = std::move(init);
  return build(std::move(f));
}

CStmt exprStmt(CExpr e) {
  auto f = fields(StmtNode::Kind::Expr);
  f.e0 = std::move(e);
  return build(std::move(f));
}

CStmt assign(CExpr lhs, CExpr rhs) {
  return exprStmt(binary(COp::Assign, std::move(lhs), std::move(rhs)));
}

CStmt block(std::vector<CStmt> body, std::string comment) {
  auto f = fields(StmtNode::Kind::Block);
  f.body = std::move(body);
  f.comment = std::move(comment);
  return build(std::move(f));
}

CStmt forLoop(CStmt init, CExpr cond, CExpr step, std::vector<CStmt> body, std::string comment) {
  auto f = fields(StmtNode::Kind::For);
  f.s0 = std::move(init);
  f.e0 = std::move(cond);
  f.e1 = std::move(step);
  f.body = std::move(body);
  f.comment = std::move(comment);
  return build(std::move(f));
}

CStmt countingLoop(CType indexType, const std::string& var, CExpr begin, CExpr end, CExpr step,
                   std::vector<CStmt> body, std::string comment) {
  return forLoop(declStmt(std::move(indexType), var, std::move(begin)),
                 binary(COp::Lt, ident(var), std::move(end)),
                 binary(COp::AddAssign, ident(var), std::move(step)), std::move(body),
                 std::move(comment));
}

CStmt ifStmt(CExpr cond, std::vector<CStmt> then, std::optional<std::vector<CStmt>> otherwise) {
  auto f = fields(StmtNode::Kind::If);
  f.e0 = std::move(cond);
  f.body = std::move(then);
  if (otherwise) {
    f.hasElse = true;
    f.elseBody = std::move(*otherwise);
  }
  return build(std::move(f));
}

CStmt returnStmt(CExpr e) {
  auto f = fields(StmtNode::Kind::Return);
  f.e0 = std::move(e);
  return build(std::move(f));
}

CStmt comment(std::string text) {
  auto f = fields(StmtNode::Kind::Comment);
  f.text = std::move(text);
  return build(std::move(f));
}

CStmt pragma(std::string text) {
  auto f = fields(StmtNode::Kind::Pragma);
  f.text = std::move(text);
  return build(std::move(f));
}

CStmt breakStmt() {
  return build(fields(StmtNode::Kind::Break));
}

// ---- traversal ----------------------------------------------------------------------

CExpr replaceOperands(const CExpr& e, std::vector<CExpr> operands) {
  if (operands == e->operands())
    return e;
  return make(e->kind(), e->text(), std::move(operands), e->type(),
              e->hasOp() ? std::optional<COp>(e->op()) : std::nullopt);
}

CStmt replaceBodies(const CStmt& s, std::vector<CStmt> body, std::vector<CStmt> elseBody) {
  bool hasBodies = s->kind() == StmtNode::Kind::Block || s->kind() == StmtNode::Kind::For ||
                   s->kind() == StmtNode::Kind::If;
  if (!hasBodies || (body == s->body() && elseBody == s->elseBody()))
    return s;
  auto f = fields(s->kind());
  f.type = s->declType();
  f.text = s->text();
  f.comment = s->comment();
  f.e0 = s->expr();
  f.e1 = s->forStep();
  f.s0 = s->forInit();
  f.body = std::move(body);
  f.elseBody = std::move(elseBody);
  f.hasElse = s->hasElse() || !f.elseBody.empty();
  return build(std::move(f));
}

CStmt mapExpressions(const CStmt& s, const std::function<CExpr(const CExpr&)>& f) {
  auto expr = [&](const CExpr& e) { return e ? f(e) : e; };
  auto list = [&](const std::vector<CStmt>& b) {
    std::vector<CStmt> out;
    out.reserve(b.size());
    for (const CStmt& c : b)
      out.push_back(mapExpressions(c, f));
    return out;
  };
  auto g = fields(s->kind());
  g.type = s->declType();
  g.text = s->text();
  g.comment = s->comment();
  g.e0 = expr(s->expr());
  g.e1 = expr(s->forStep());
  g.s0 = s->forInit() ? mapExpressions(s->forInit(), f) : nullptr;
  g.body = list(s->body());
  g.elseBody = list(s->elseBody());
  g.hasElse = s->hasElse();
  return build(std::move(g));
}

// ---- queries ------------------------------------------------------------------------

bool typeEqual(const CType& a, const CType& b) {
  if (!a || !b)
    return a == b;
  return a->kind() == b->kind() && a->name() == b->name() && a->size() == b->size() &&
         a->isConst() == b->isConst() && a->isRestrict() == b->isRestrict() &&
         a->addressSpace() == b->addressSpace() && typeEqual(a->elem(), b->elem());
}

bool exprEqual(const CExpr& a, const CExpr& b) {
  if (!a || !b)
    return a == b;
  if (a->kind() != b->kind() || a->text() != b->text() || a->hasOp() != b->hasOp() ||
      (a->hasOp() && a->op() != b->op()) || !typeEqual(a->type(), b->type()) ||
      a->operands().size() != b->operands().size())
    return false;
  for (std::size_t i = 0; i < a->operands().size(); ++i)
    if (!exprEqual(a->operands()[i], b->operands()[i]))
      return false;
  return true;
}

namespace {

/// The identifiers in a pre-rendered literal such as `n / s` (size
/// expressions are emitted as text): maximal runs of letters, digits and `_`
/// that start with a letter or `_` (so `1.0f` contributes nothing).
void collectFromText(const std::string& text, std::set<std::string>& out) {
  auto isWord = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t i = 0; i < text.size();) {
    if (!isWord(text[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && isWord(text[j]))
      ++j;
    if (!std::isdigit(static_cast<unsigned char>(text[i])))
      out.insert(text.substr(i, j - i));
    i = j;
  }
}

void collect(const CExpr& e, std::set<std::string>& out) {
  if (e->kind() == ExprNode::Kind::Ident)
    out.insert(e->text());
  if (e->kind() == ExprNode::Kind::Literal)
    collectFromText(e->text(), out);
  forEachChild(e, [&](const CExpr& op) { collect(op, out); });
}

void collect(const CStmt& s, std::set<std::string>& out) {
  forEachChild(
      s, [&](const CExpr& e) { collect(e, out); }, [&](const CStmt& c) { collect(c, out); });
}

} // namespace

std::set<std::string> identifiersUsed(const std::vector<CStmt>& body) {
  std::set<std::string> out;
  for (const CStmt& s : body)
    collect(s, out);
  return out;
}

bool isAssignment(const CExpr& e) {
  return e->kind() == ExprNode::Kind::Binary && opInfo(e->op()).assignment;
}

bool isBinary(const CExpr& e, COp op) {
  return e->kind() == ExprNode::Kind::Binary && e->op() == op;
}

bool isLvalueStep(const ExprNode* e) {
  return e->kind() == ExprNode::Kind::Index || e->kind() == ExprNode::Kind::Member ||
         e->kind() == ExprNode::Kind::Cast ||
         (e->kind() == ExprNode::Kind::Unary &&
          (e->op() == COp::Deref || e->op() == COp::AddressOf));
}

const ExprNode* writtenVariable(const ExprNode* lvalue) {
  while (isLvalueStep(lvalue))
    lvalue = lvalue->operands()[0].get();
  return lvalue->kind() == ExprNode::Kind::Ident ? lvalue : nullptr;
}

// ---- top level ----------------------------------------------------------------------

namespace {
TopLevel item(TopLevel::Kind k, std::string text) {
  TopLevel t{k, std::move(text), {}, {}};
  return t;
}
} // namespace

TranslationUnit& TranslationUnit::include(std::string header) {
  items.push_back(item(TopLevel::Kind::Include, std::move(header)));
  return *this;
}
TranslationUnit& TranslationUnit::define(std::string text) {
  items.push_back(item(TopLevel::Kind::Define, std::move(text)));
  return *this;
}
TranslationUnit& TranslationUnit::raw(std::string text) {
  items.push_back(item(TopLevel::Kind::Raw, std::move(text)));
  return *this;
}
TranslationUnit& TranslationUnit::comment(std::string text) {
  items.push_back(item(TopLevel::Kind::Comment, std::move(text)));
  return *this;
}
TranslationUnit& TranslationUnit::blank() {
  items.push_back(item(TopLevel::Kind::Blank, ""));
  return *this;
}
TranslationUnit& TranslationUnit::add(StructDef s) {
  TopLevel t = item(TopLevel::Kind::Struct, "");
  t.structDef = std::move(s);
  items.push_back(std::move(t));
  return *this;
}
TranslationUnit& TranslationUnit::add(Function f) {
  TopLevel t = item(TopLevel::Kind::Function, "");
  t.function = std::move(f);
  items.push_back(std::move(t));
  return *this;
}

} // namespace risec::codegen::c
