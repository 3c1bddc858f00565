#include "codegen/c/CPrinter.h"

#include <sstream>

namespace risec::codegen::c {

// ---- types --------------------------------------------------------------------

namespace {

std::string pointerSuffix(const CType& t) {
  std::string s = "*";
  if (t->isConst())
    s += " const";
  if (t->isRestrict())
    s += " restrict";
  return s;
}

} // namespace

std::string printType(const CType& t) {
  return printDeclarator(t, "");
}

std::string printDeclarator(const CType& t, const std::string& name) {
  switch (t->kind()) {
  case TypeNode::Kind::Named:
    return (t->isConst() ? "const " : "") + t->name() + (name.empty() ? "" : " " + name);
  case TypeNode::Kind::Pointer: {
    std::string space = t->addressSpace().empty() ? "" : t->addressSpace() + " ";
    std::string s = space + printType(t->elem()) + pointerSuffix(t);
    return name.empty() ? s : s + " " + name;
  }
  case TypeNode::Kind::Array: {
    // `float buf[4][8]`: the dimensions follow the name, outermost first.
    std::string dims;
    CType e = t;
    for (; e->kind() == TypeNode::Kind::Array; e = e->elem())
      dims += "[" + std::to_string(e->size()) + "]";
    return printDeclarator(e, name) + dims;
  }
  }
  return "?";
}

// ---- expressions ----------------------------------------------------------------

namespace {

using precedence::kAssign;
using precedence::kPostfix;
using precedence::kPrefix;
using precedence::kTernary;

int precedenceOf(const CExpr& e) {
  switch (e->kind()) {
  case ExprNode::Kind::Ident:
  case ExprNode::Kind::Call:
  case ExprNode::Kind::Index:
  case ExprNode::Kind::Member:
  case ExprNode::Kind::Compound:
    return kPostfix;
  case ExprNode::Kind::Literal:
    // A negative literal behaves like a prefix expression.
    return !e->text().empty() && e->text()[0] == '-' ? kPrefix : kPostfix;
  case ExprNode::Kind::Unary:
  case ExprNode::Kind::Binary:
    return opInfo(e->op()).precedence;
  case ExprNode::Kind::Cast:
    return kPrefix;
  case ExprNode::Kind::Ternary:
    return kTernary;
  }
  return 0;
}

bool isBitwiseOrShift(COp op) {
  switch (op) {
  case COp::BitAnd:
  case COp::BitOr:
  case COp::BitXor:
  case COp::Shl:
  case COp::Shr:
    return true;
  default:
    return false;
  }
}

/// Parentheses that C does not need but compilers ask for (-Wparentheses) and
/// readers expect: `a || (b && c)`, `(a + b) << 2`, `(x & m) == 0`.
bool clarifyingParens(COp parent, const CExpr& child) {
  if (child->kind() != ExprNode::Kind::Binary || child->op() == parent)
    return false;
  COp op = child->op();
  if (parent == COp::Or && op == COp::And)
    return true;
  return isBitwiseOrShift(parent) || isBitwiseOrShift(op);
}

std::string wrap(const std::string& s) {
  return "(" + s + ")";
}

std::string operand(const CExpr& e, int minPrecedence) {
  std::string s = printExpr(e);
  return precedenceOf(e) < minPrecedence ? wrap(s) : s;
}

/// Operand `e` of `parent`, in parentheses where C needs them (precedence)
/// or where they clarify (clarifyingParens). A printed operand that starts
/// with `(` may be a cast, `(risec_i32x8)a & m`, so that says nothing.
std::string operand(COp parent, const CExpr& e, int minPrecedence) {
  std::string s = printExpr(e);
  return precedenceOf(e) < minPrecedence || clarifyingParens(parent, e) ? wrap(s) : s;
}

std::string printBinary(const CExpr& e) {
  COp op = e->op();
  const COpInfo& info = opInfo(op);
  int p = info.precedence;
  std::string ls = operand(op, e->operands()[0], info.rightAssoc ? p + 1 : p);
  std::string rs = operand(op, e->operands()[1], info.rightAssoc ? p : p + 1);
  return ls + " " + info.spelling + " " + rs;
}

} // namespace

std::string printExpr(const CExpr& e) {
  const auto& ops = e->operands();
  switch (e->kind()) {
  case ExprNode::Kind::Ident:
  case ExprNode::Kind::Literal:
    return e->text();
  case ExprNode::Kind::Unary: {
    const std::string op = spelling(e->op());
    std::string inner = operand(ops[0], kPrefix);
    // `- -x` must not print as `--x`.
    if (!inner.empty() &&
        (inner[0] == '-' || inner[0] == '+' || inner[0] == '&' || inner[0] == '*') &&
        inner[0] == op.back())
      inner = wrap(inner);
    return op + inner;
  }
  case ExprNode::Kind::Binary:
    return printBinary(e);
  case ExprNode::Kind::Ternary:
    return operand(ops[0], kTernary + 1) + " ? " + operand(ops[1], kTernary + 1) + " : " +
           operand(ops[2], kTernary);
  case ExprNode::Kind::Call: {
    std::string s = e->text() + "(";
    for (std::size_t i = 0; i < ops.size(); ++i)
      s += (i ? ", " : "") + operand(ops[i], kAssign + 1);
    return s + ")";
  }
  case ExprNode::Kind::Index:
    return operand(ops[0], kPostfix) + "[" + printExpr(ops[1]) + "]";
  case ExprNode::Kind::Member:
    return operand(ops[0], kPostfix) + "." + e->text();
  case ExprNode::Kind::Cast:
    return "(" + printType(e->type()) + ")" + operand(ops[0], kPrefix);
  case ExprNode::Kind::Compound: {
    std::string s = "(" + printType(e->type()) + "){";
    for (std::size_t i = 0; i < ops.size(); ++i)
      s += (i ? ", " : "") + operand(ops[i], kAssign + 1);
    return s + "}";
  }
  }
  return "?";
}

// ---- statements -------------------------------------------------------------------

namespace {

std::string pad(int indent) {
  return std::string(static_cast<std::size_t>(indent) * 2, ' ');
}

void printCommentLines(std::ostringstream& os, const std::string& text, int indent) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    os << pad(indent) << "//" << (line.empty() ? "" : " " + line) << "\n";
}

void printBody(std::ostringstream& os, const std::vector<CStmt>& body, int indent) {
  for (const CStmt& s : body)
    os << printStmt(s, indent);
}

std::string inlineStmt(const CStmt& s) {
  // The init clause of a for loop: a declaration or expression without `;`.
  std::string text = printStmt(s, 0);
  while (!text.empty() && (text.back() == '\n' || text.back() == ';'))
    text.pop_back();
  return text;
}

} // namespace

std::string printStmt(const CStmt& s, int indent) {
  std::ostringstream os;
  switch (s->kind()) {
  case StmtNode::Kind::Decl:
    os << pad(indent) << printDeclarator(s->declType(), s->name());
    if (s->init())
      os << " = " << printExpr(s->init());
    os << ";\n";
    break;
  case StmtNode::Kind::Expr:
    os << pad(indent) << printExpr(s->expr()) << ";\n";
    break;
  case StmtNode::Kind::Block:
    if (!s->comment().empty())
      printCommentLines(os, s->comment(), indent);
    os << pad(indent) << "{\n";
    printBody(os, s->body(), indent + 1);
    os << pad(indent) << "}\n";
    break;
  case StmtNode::Kind::For:
    if (!s->comment().empty())
      printCommentLines(os, s->comment(), indent);
    os << pad(indent) << "for (" << inlineStmt(s->forInit()) << "; " << printExpr(s->expr()) << "; "
       << printExpr(s->forStep()) << ") {\n";
    printBody(os, s->body(), indent + 1);
    os << pad(indent) << "}\n";
    break;
  case StmtNode::Kind::If:
    os << pad(indent) << "if (" << printExpr(s->expr()) << ") {\n";
    printBody(os, s->body(), indent + 1);
    if (s->hasElse()) {
      os << pad(indent) << "} else {\n";
      printBody(os, s->elseBody(), indent + 1);
    }
    os << pad(indent) << "}\n";
    break;
  case StmtNode::Kind::Return:
    os << pad(indent) << "return" << (s->expr() ? " " + printExpr(s->expr()) : "") << ";\n";
    break;
  case StmtNode::Kind::Comment:
    printCommentLines(os, s->text(), indent);
    break;
  case StmtNode::Kind::Pragma:
    os << "#pragma " << s->text() << "\n";
    break;
  case StmtNode::Kind::Break:
    os << pad(indent) << "break;\n";
    break;
  }
  return os.str();
}

// ---- top level ----------------------------------------------------------------------

namespace {

std::string docBlock(const std::string& text) {
  std::ostringstream os;
  os << "/*\n";
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    os << " *" << (line.empty() ? "" : " " + line) << "\n";
  os << " */\n";
  return os.str();
}

} // namespace

std::string printStmts(const std::vector<CStmt>& body, int indent) {
  std::string s;
  for (const CStmt& st : body)
    s += printStmt(st, indent);
  return s;
}

std::string printFunction(const Function& f) {
  std::ostringstream os;
  if (!f.docComment.empty())
    os << docBlock(f.docComment);
  for (const std::string& q : f.qualifiers)
    os << q << " ";
  os << printType(f.returnType) << " " << f.name << "(";
  if (f.params.empty())
    os << "void";
  for (std::size_t i = 0; i < f.params.size(); ++i)
    os << (i ? ", " : "") << printDeclarator(f.params[i].type, f.params[i].name);
  os << ")";
  if (f.declarationOnly) {
    os << ";\n";
    return os.str();
  }
  os << " {\n";
  printBody(os, f.body, 1);
  os << "}\n";
  return os.str();
}

std::string printUnit(const TranslationUnit& u) {
  std::ostringstream os;
  for (const TopLevel& t : u.items) {
    switch (t.kind) {
    case TopLevel::Kind::Include:
      os << "#include " << t.text << "\n";
      break;
    case TopLevel::Kind::Define:
      os << "#define " << t.text << "\n";
      break;
    case TopLevel::Kind::Raw:
      os << t.text;
      if (!t.text.empty() && t.text.back() != '\n')
        os << "\n";
      break;
    case TopLevel::Kind::Comment:
      os << docBlock(t.text);
      break;
    case TopLevel::Kind::Blank:
      os << "\n";
      break;
    case TopLevel::Kind::Struct:
      os << "struct " << t.structDef.name << " {\n";
      for (const Param& p : t.structDef.fields)
        os << "  " << printDeclarator(p.type, p.name) << ";\n";
      os << "};\n";
      break;
    case TopLevel::Kind::Function:
      os << printFunction(t.function);
      break;
    }
  }
  return os.str();
}

} // namespace risec::codegen::c
