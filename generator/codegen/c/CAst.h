// A small syntax tree for the C code risec emits (C11, C11 + OpenMP, and the
// OpenCL C subset). Back ends build it; CPrinter.h prints it. Nodes are
// immutable and shared. Only the constructs generated code needs exist:
// there is no goto, switch or do-while.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace risec::codegen::c {

// ---- types --------------------------------------------------------------------

class TypeNode;
using CType = std::shared_ptr<const TypeNode>;

class TypeNode {
public:
  enum class Kind { Named, Pointer, Array };

  Kind kind() const { return kind_; }
  const std::string& name() const {
    return name_;
  }                                           ///< Named: `float`, `int32_t`, `struct pair_f32_i32`
  const CType& elem() const { return elem_; } ///< Pointer: pointee; Array: element
  std::int64_t size() const { return size_; } ///< Array: the constant length
  bool isConst() const { return const_; }     ///< Named/Pointer: `const` qualifier
  bool isRestrict() const { return restrict_; }             ///< Pointer: `restrict`
  const std::string& addressSpace() const { return addr_; } ///< OpenCL `global`/`local`/...

  TypeNode(Kind k, std::string name, CType elem, std::int64_t size, bool isConst, bool isRestrict,
           std::string addr)
      : kind_(k), name_(std::move(name)), elem_(std::move(elem)), size_(size), const_(isConst),
        restrict_(isRestrict), addr_(std::move(addr)) {}

private:
  Kind kind_;
  std::string name_;
  CType elem_;
  std::int64_t size_ = 0;
  bool const_ = false;
  bool restrict_ = false;
  std::string addr_;
};

CType namedType(std::string name, bool isConst = false);
/// `elem* [const] [restrict]`; `addressSpace` prefixes the pointee (OpenCL).
CType pointerType(CType elem, bool isRestrict = false, bool isConst = false,
                  std::string addressSpace = "");
CType arrayType(CType elem, std::int64_t size);
/// The same type with `const` on the outermost named type or pointee.
CType constOf(const CType& t);

// ---- expressions ----------------------------------------------------------------

/// The operators of C that generated code uses. Their spelling, precedence
/// and associativity are in one table (opInfo).
enum class COp {
  // prefix
  Neg,       ///< `-x`
  Not,       ///< `!x`
  BitNot,    ///< `~x`
  Deref,     ///< `*p`
  AddressOf, ///< `&x`
  PreInc,    ///< `++x`
  PreDec,    ///< `--x`
  // infix
  Mul,
  Div,
  Mod,
  Add,
  Sub,
  Shl,
  Shr,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  BitAnd,
  BitXor,
  BitOr,
  And,
  Or,
  // assignments
  Assign,
  AddAssign,
  SubAssign,
  MulAssign,
  DivAssign,
  ModAssign,
  ShlAssign,
  ShrAssign,
  AndAssign,
  XorAssign,
  OrAssign,
};

/// The precedence levels of C that are not those of an infix operator.
namespace precedence {
constexpr int kPostfix = 16; ///< `x`, `f(x)`, `a[i]`, `s.f`
constexpr int kPrefix = 15;  ///< prefix operators and casts
constexpr int kTernary = 3;  ///< `c ? a : b`
constexpr int kAssign = 2;   ///< `=`, `+=`, ...
} // namespace precedence

struct COpInfo {
  const char* spelling; ///< `+`, `<<=`, ...
  /// How tightly it binds, C's order: prefix operators 15, `*` 13, `+` 12,
  /// shifts 11, relations 10, equality 9, `&` 8, `^` 7, `|` 6, `&&` 5,
  /// `||` 4, assignments 2 (see `precedence`).
  int precedence;
  bool prefix;     ///< a prefix operator (unary), else infix (binary)
  bool rightAssoc; ///< prefix operators and assignments
  bool assignment; ///< `=` or a compound assignment
};

/// The table entry of `op`.
const COpInfo& opInfo(COp op);
inline const char* spelling(COp op) {
  return opInfo(op).spelling;
}

class ExprNode;
using CExpr = std::shared_ptr<const ExprNode>;

class ExprNode {
public:
  enum class Kind { Ident, Literal, Unary, Binary, Ternary, Call, Index, Member, Cast, Compound };

  Kind kind() const { return kind_; }
  const std::string& text() const {
    return text_;
  } ///< Ident name, Literal text, Call name, Member field
  /// Unary, Binary: the operator (std::bad_optional_access on other kinds).
  COp op() const { return op_.value(); }
  bool hasOp() const { return op_.has_value(); }
  const std::vector<CExpr>& operands() const { return ops_; }
  const CType& type() const { return type_; } ///< Cast target, Compound type

  ExprNode(Kind k, std::string text, std::vector<CExpr> ops, CType type,
           std::optional<COp> op = std::nullopt)
      : kind_(k), text_(std::move(text)), ops_(std::move(ops)), type_(std::move(type)), op_(op) {}

private:
  Kind kind_;
  std::string text_;
  std::vector<CExpr> ops_;
  CType type_;
  std::optional<COp> op_;
};

CExpr ident(std::string name);
/// A literal exactly as it should appear (`0.5f`, `42`, `true`, `(int64_t)1 << 40`).
CExpr literal(std::string text);
CExpr intLit(std::int64_t v);
/// A prefix operator (`-`, `!`, `~`, `*`, `&`, ...); std::invalid_argument
/// for an infix one.
CExpr unary(COp op, CExpr e);
/// An infix operator, including `=` and the compound assignments;
/// std::invalid_argument for a prefix one.
CExpr binary(COp op, CExpr lhs, CExpr rhs);
CExpr ternary(CExpr cond, CExpr then, CExpr otherwise);
CExpr call(std::string fn, std::vector<CExpr> args);
CExpr index(CExpr base, CExpr idx);
CExpr member(CExpr base, std::string field);
CExpr cast(CType type, CExpr e);
/// A compound literal `(type){a, b, ...}` (vectors of the GCC extension).
CExpr compoundLiteral(CType type, std::vector<CExpr> elems);

// ---- statements -------------------------------------------------------------------

class StmtNode;
using CStmt = std::shared_ptr<const StmtNode>;

class StmtNode {
public:
  enum class Kind { Decl, Expr, Block, For, If, Return, Comment, Pragma, Break };

  Kind kind() const { return kind_; }
  // Decl
  const CType& declType() const { return type_; }
  const std::string& name() const { return text_; }
  const CExpr& init() const { return e0_; } ///< may be null
  // Expr / Return (may be null) / If condition / For condition
  const CExpr& expr() const { return e0_; }
  // For
  const CStmt& forInit() const { return s0_; } ///< a Decl or Expr statement
  const CExpr& forStep() const { return e1_; }
  // For / Block / If
  const std::vector<CStmt>& body() const { return body_; }     ///< Block, For, If-then
  const std::vector<CStmt>& elseBody() const { return else_; } ///< If
  bool hasElse() const { return hasElse_; }
  // Comment / Pragma text; For / Block trailing comment (`// mapSeq`)
  const std::string& text() const { return text_; }
  const std::string& comment() const { return comment_; }

  struct Fields;
  explicit StmtNode(Fields f);

private:
  Kind kind_;
  CType type_;
  std::string text_;
  std::string comment_;
  CExpr e0_, e1_;
  CStmt s0_;
  std::vector<CStmt> body_, else_;
  bool hasElse_ = false;
};

/// `type name [= init];`
CStmt declStmt(CType type, std::string name, CExpr init = nullptr);
CStmt exprStmt(CExpr e);
CStmt assign(CExpr lhs, CExpr rhs);
CStmt block(std::vector<CStmt> body, std::string comment = "");
/// `for (init; cond; step) { body }  // comment`
CStmt forLoop(CStmt init, CExpr cond, CExpr step, std::vector<CStmt> body,
              std::string comment = "");
/// The canonical counting loop `for (int i = begin; i < end; i += 1)`.
CStmt countingLoop(CType indexType, const std::string& var, CExpr begin, CExpr end, CExpr step,
                   std::vector<CStmt> body, std::string comment = "");
CStmt ifStmt(CExpr cond, std::vector<CStmt> then, std::optional<std::vector<CStmt>> otherwise = {});
CStmt returnStmt(CExpr e = nullptr);
/// A `//` comment on its own line(s); newlines in `text` start new comment lines.
CStmt comment(std::string text);
/// `#pragma text`
CStmt pragma(std::string text);
CStmt breakStmt();

// ---- traversal ----------------------------------------------------------------------
//
// The direct children of a node, in a fixed order. An expression's children
// are its operands. A statement's:
//
//   Decl     init (when present)
//   Expr     expr
//   Return   expr (when present)
//   If       condition; the then statements; the else statements
//   For      init statement, condition, step; the body statements
//   Block    the body statements
//   Comment, Pragma, Break: none
//
// (rise/ast/Traverse.h does the same for the RISE AST.)

/// Calls `f(operand)` for every operand of `e`, in order.
template <class F> void forEachChild(const CExpr& e, F&& f) {
  for (const CExpr& op : e->operands())
    f(op);
}

/// True if `pred(operand)` holds for some operand of `e`; stops at the first.
template <class P> bool anyChild(const CExpr& e, P&& pred) {
  for (const CExpr& op : e->operands())
    if (pred(op))
      return true;
  return false;
}

/// `e` with its operands replaced; `e` itself when every new operand is the
/// old one (same pointer). Kind, text, operator and type are kept.
CExpr replaceOperands(const CExpr& e, std::vector<CExpr> operands);

/// `e` with every operand `o` replaced by `f(o)` (called in order); `e`
/// itself, not a copy, when every `f(o)` is `o`.
template <class F> CExpr mapChildren(const CExpr& e, F&& f) {
  std::vector<CExpr> ops;
  ops.reserve(e->operands().size());
  for (const CExpr& op : e->operands())
    ops.push_back(f(op));
  return replaceOperands(e, std::move(ops));
}

/// Calls `onExpr(e)` for every expression child of `s` and `onStmt(c)` for
/// every statement child, in the order above (children that are null, such
/// as a declaration without initialiser, are left out).
template <class FE, class FS> void forEachChild(const CStmt& s, FE&& onExpr, FS&& onStmt) {
  auto expr = [&](const CExpr& e) {
    if (e)
      onExpr(e);
  };
  switch (s->kind()) {
  case StmtNode::Kind::Decl:
  case StmtNode::Kind::Expr:
  case StmtNode::Kind::Return:
    expr(s->expr());
    return;
  case StmtNode::Kind::If:
    expr(s->expr());
    break;
  case StmtNode::Kind::For:
    if (s->forInit())
      onStmt(s->forInit());
    expr(s->expr());
    expr(s->forStep());
    break;
  case StmtNode::Kind::Block:
    break;
  case StmtNode::Kind::Comment:
  case StmtNode::Kind::Pragma:
  case StmtNode::Kind::Break:
    return;
  }
  for (const CStmt& c : s->body())
    onStmt(c);
  for (const CStmt& c : s->elseBody())
    onStmt(c);
}

/// True if `onExpr` holds for some expression child of `s` or `onStmt` for
/// some statement child, in the order above; stops at the first.
template <class PE, class PS> bool anyChild(const CStmt& s, PE&& onExpr, PS&& onStmt) {
  bool found = false; // once set, no predicate is called again
  forEachChild(
      s, [&](const CExpr& e) { found = found || onExpr(e); },
      [&](const CStmt& c) { found = found || onStmt(c); });
  return found;
}

/// forEachChild and anyChild over the statement children only.
template <class FS> void forEachChildStatement(const CStmt& s, FS&& onStmt) {
  forEachChild(
      s, [](const CExpr&) {}, onStmt);
}
template <class PS> bool anyChildStatement(const CStmt& s, PS&& onStmt) {
  return anyChild(
      s, [](const CExpr&) { return false; }, onStmt);
}

/// `s` with the statements of its body (Block, For, If) and else branch
/// (If) replaced; `s` itself when both are the old ones (same pointers).
/// Every other field is kept; other kinds are returned as they are.
CStmt replaceBodies(const CStmt& s, std::vector<CStmt> body, std::vector<CStmt> elseBody);

/// `s` with its body and its else branch replaced by `f(body)` and
/// `f(elseBody)` (Block, For, If; a list that maps statements to lists, so
/// that it may drop or add statements); `s` itself, not a copy, when both
/// return the statements they were given.
template <class F> CStmt mapBodies(const CStmt& s, F&& f) {
  switch (s->kind()) {
  case StmtNode::Kind::Block:
  case StmtNode::Kind::For:
  case StmtNode::Kind::If: {
    std::vector<CStmt> body = f(s->body());
    std::vector<CStmt> elseBody = s->hasElse() ? f(s->elseBody()) : std::vector<CStmt>{};
    return replaceBodies(s, std::move(body), std::move(elseBody));
  }
  default:
    return s;
  }
}

/// `s` with every expression in it replaced by `f(e)`, at every depth: its
/// own (condition, step, initialiser) and those of the statements in its
/// bodies. The statements are rebuilt; kinds, names and comments are kept.
CStmt mapExpressions(const CStmt& s, const std::function<CExpr(const CExpr&)>& f);

// ---- queries ------------------------------------------------------------------------

/// Structural equality: the same kinds, names, operators, types and operands.
bool typeEqual(const CType& a, const CType& b);
bool exprEqual(const CExpr& a, const CExpr& b);

/// The names of the variables that `body` reads or writes (identifiers in
/// expressions, including those inside pre-rendered literals such as size
/// expressions; not the names it declares, not called function names).
std::set<std::string> identifiersUsed(const std::vector<CStmt>& body);

/// `lhs = rhs` or a compound assignment (`+=`, ...), not a comparison.
bool isAssignment(const CExpr& e);
/// A Binary expression of operator `op`.
bool isBinary(const CExpr& e, COp op);
/// A step from an lvalue towards the variable it writes: `x[i]`, `x.fst`, and
/// the vector stores `*(risec_f32x4u*)&x[i]` (EmitVectors.h).
bool isLvalueStep(const ExprNode* e);
/// The variable an lvalue writes to (`x` of `x[i].fst`), or null.
const ExprNode* writtenVariable(const ExprNode* lvalue);

// ---- top level ----------------------------------------------------------------------

struct Param {
  CType type;
  std::string name;
};

struct Function {
  std::string docComment; ///< printed as a `/* ... */` block above the function; may be empty
  std::vector<std::string> qualifiers; ///< `static`, `inline`, `__kernel`, ...
  CType returnType;
  std::string name;
  std::vector<Param> params;
  std::vector<CStmt> body;
  bool declarationOnly = false; ///< print a prototype `...;`
};

struct StructDef {
  std::string name; ///< `struct NAME { ... };`
  std::vector<Param> fields;
};

/// One top-level item of a translation unit.
struct TopLevel {
  enum class Kind { Include, Define, Raw, Struct, Function, Comment, Blank } kind;
  std::string
      text; ///< Include: `<math.h>` or `"x.h"`; Define: `NAME value`; Raw: verbatim; Comment
  StructDef structDef;
  Function function;
};

struct TranslationUnit {
  std::vector<TopLevel> items;

  TranslationUnit& include(std::string header);
  TranslationUnit& define(std::string text);
  TranslationUnit& raw(std::string text);
  TranslationUnit& comment(std::string text);
  TranslationUnit& blank();
  TranslationUnit& add(StructDef s);
  TranslationUnit& add(Function f);
};

} // namespace risec::codegen::c
