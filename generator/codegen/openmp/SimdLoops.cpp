#include "codegen/openmp/SimdLoops.h"

#include "codegen/c/LoopNests.h"
#include "codegen/openmp/Pragmas.h"

#include <map>
#include <set>
#include <string>

namespace risec::codegen::openmp {

using c::CExpr;
using c::CStmt;
using c::CType;
using c::ExprNode;
using c::StmtNode;
using c::TypeNode;

namespace {

bool mentions(const CExpr& e, const std::string& name) {
  return c::identifiersUsed({c::exprStmt(e)}).count(name) > 0;
}

/// The checks of one innermost loop (SimdLoops.h), over its body.
class LoopCheck {
public:
  explicit LoopCheck(std::string var) : var_(std::move(var)) {}

  bool run(const std::vector<CStmt>& body) {
    for (const CStmt& s : body)
      collectStatement(s);
    if (!ok_)
      return false;
    for (const CExpr& e : exprs_)
      checkReads(e);
    return ok_;
  }

private:
  /// Pass 1: the declarations, the expressions and the stores of the body.
  void collectStatement(const CStmt& s) {
    switch (s->kind()) {
    case StmtNode::Kind::For:
    case StmtNode::Kind::Break:
    case StmtNode::Kind::Return:
    case StmtNode::Kind::Pragma:
      ok_ = false;
      return;
    case StmtNode::Kind::Decl:
      declared_.insert(s->name());
      break;
    case StmtNode::Kind::Expr:
    case StmtNode::Kind::Comment:
    case StmtNode::Kind::Block:
    case StmtNode::Kind::If:
      break;
    }
    c::forEachChild(
        s, [&](const CExpr& e) { addExpr(e); },
        [&](const CStmt& child) { collectStatement(child); });
  }

  void addExpr(const CExpr& e) {
    exprs_.push_back(e);
    collectStores(e);
  }

  void collectStores(const CExpr& e) {
    if (c::isAssignment(e))
      store(e->operands()[0]);
    c::forEachChild(e, [&](const CExpr& op) { collectStores(op); });
  }

  /// A store to `lhs`: a variable of the body, or an element indexed by the
  /// loop variable.
  void store(const CExpr& lhs) {
    const ExprNode* base = c::writtenVariable(lhs.get());
    if (!base) {
      ok_ = false;
      return;
    }
    if (declared_.count(base->text()))
      return;
    bool byLoop = false;
    for (const ExprNode* cur = lhs.get(); c::isLvalueStep(cur); cur = cur->operands()[0].get())
      if (cur->kind() == ExprNode::Kind::Index) {
        if (mentions(cur->operands()[1], var_))
          byLoop = true;
        stored_[base->text()].push_back(cur->operands()[1]);
      }
    if (!byLoop)
      ok_ = false;
  }

  /// Pass 2: every use of an array stored to is an element at a stored index.
  void checkReads(const CExpr& e) {
    if (!ok_ || !e)
      return;
    if (e->kind() == ExprNode::Kind::Index) {
      const ExprNode* base = c::writtenVariable(e.get());
      if (base && stored_.count(base->text()) && !declared_.count(base->text())) {
        if (e->operands()[0]->kind() != ExprNode::Kind::Ident || !storedAt(base->text(), e)) {
          ok_ = false;
          return;
        }
        checkReads(e->operands()[1]);
        return;
      }
    }
    if (e->kind() == ExprNode::Kind::Ident && stored_.count(e->text()) &&
        !declared_.count(e->text())) {
      ok_ = false;
      return;
    }
    if (e->kind() == ExprNode::Kind::Literal)
      for (const auto& [name, indices] : stored_)
        if (!declared_.count(name) && mentions(e, name)) {
          ok_ = false;
          return;
        }
    c::forEachChild(e, [&](const CExpr& op) { checkReads(op); });
  }

  bool storedAt(const std::string& array, const CExpr& element) const {
    for (const CExpr& idx : stored_.at(array))
      if (c::exprEqual(idx, element->operands()[1]))
        return true;
    return false;
  }

  std::string var_;
  bool ok_ = true;
  std::set<std::string> declared_;
  std::vector<CExpr> exprs_;
  std::map<std::string, std::vector<CExpr>> stored_;
};

/// Whether `s` is or contains a loop.
bool containsLoop(const CStmt& s) {
  return s->kind() == StmtNode::Kind::For || c::anyChildStatement(s, containsLoop);
}

/// Inside a parallel loop: the innermost loops that pass get the pragma.
std::vector<CStmt> markInner(const std::vector<CStmt>& body) {
  std::vector<CStmt> out;
  for (const CStmt& s : body) {
    if (s->kind() == StmtNode::Kind::For && !c::anyChildStatement(s, containsLoop)) {
      if (isSimdSafe(s) && !isShortLoop(s))
        out.push_back(c::pragma(simdPragma()));
      out.push_back(s);
      continue;
    }
    out.push_back(c::mapBodies(s, markInner));
  }
  return out;
}

} // namespace

std::string simdPragma() {
  return "omp simd";
}

bool isShortLoop(const CStmt& loop) {
  const CExpr& cond = loop->expr();
  if (!cond || !c::isBinary(cond, c::COp::Lt))
    return false;
  const CExpr& end = cond->operands()[1];
  if (end->kind() != ExprNode::Kind::Literal || end->text().empty() ||
      end->text().find_first_not_of("0123456789") != std::string::npos)
    return false;
  return std::stoll(end->text()) < kShortLoop;
}

bool isSimdSafe(const CStmt& loop) {
  if (loop->kind() != StmtNode::Kind::For || !loop->forInit() ||
      loop->forInit()->kind() != StmtNode::Kind::Decl)
    return false;
  const std::string& var = loop->forInit()->name();
  const CExpr& step = loop->forStep();
  if (!step || !c::isBinary(step, c::COp::AddAssign) ||
      step->operands()[0]->kind() != ExprNode::Kind::Ident || step->operands()[0]->text() != var)
    return false;
  return LoopCheck(var).run(loop->body());
}

std::vector<CStmt> markSimdLoops(const std::vector<CStmt>& body) {
  std::vector<CStmt> out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const CStmt& s = body[i];
    bool parallel = s->kind() == StmtNode::Kind::Pragma && isParallelFor(s->text()) &&
                    i + 1 < body.size() && body[i + 1]->kind() == StmtNode::Kind::For;
    if (parallel) {
      // inside the collapsed loops only: a pragma between them breaks the
      // nest (a loop of the nest can be innermost once stage 10 has
      // replaced the single-iteration loop in its body)
      out.push_back(s);
      const CStmt& loop = body[++i];
      out.push_back(c::keepNest(loop, c::collapsed(s), markInner));
      continue;
    }
    out.push_back(c::mapBodies(s, markSimdLoops));
  }
  return out;
}

} // namespace risec::codegen::openmp
