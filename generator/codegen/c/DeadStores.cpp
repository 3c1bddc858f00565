#include "codegen/c/DeadStores.h"

#include <set>
#include <string>

namespace risec::codegen::c {

namespace {

/// Records every identifier read by `e`. The target of an assignment is not
/// a read, but the indices that select the written element are.
void collectReads(const CExpr& e, std::set<std::string>& reads) {
  if (!e)
    return;
  if (isAssignment(e)) {
    const CExpr& lhs = e->operands()[0];
    for (const ExprNode* cur = lhs.get(); isLvalueStep(cur); cur = cur->operands()[0].get())
      if (cur->kind() == ExprNode::Kind::Index)
        collectReads(cur->operands()[1], reads);
    // `x += e` reads x too.
    if (e->op() != COp::Assign)
      if (const ExprNode* base = writtenVariable(lhs.get()))
        reads.insert(base->text());
    collectReads(e->operands()[1], reads);
    return;
  }
  if (e->kind() == ExprNode::Kind::Ident)
    reads.insert(e->text());
  for (const CExpr& op : e->operands())
    collectReads(op, reads);
}

void collectReads(const std::vector<CStmt>& body, std::set<std::string>& reads);

void collectReads(const CStmt& s, std::set<std::string>& reads) {
  collectReads(s->expr(), reads);
  if (s->kind() == StmtNode::Kind::Decl)
    collectReads(s->init(), reads);
  if (s->kind() == StmtNode::Kind::For) {
    collectReads(s->forInit(), reads);
    collectReads(s->forStep(), reads);
  }
  collectReads(s->body(), reads);
  collectReads(s->elseBody(), reads);
}

void collectReads(const std::vector<CStmt>& body, std::set<std::string>& reads) {
  for (const CStmt& s : body)
    collectReads(s, reads);
}

/// Whether evaluating `e` has no effect but its value: no assignment, no
/// increment, no call (a call may allocate, like malloc, or be a foreign
/// function).
bool withoutSideEffects(const CExpr& e) {
  if (!e)
    return true;
  if (isAssignment(e) || e->kind() == ExprNode::Kind::Call)
    return false;
  if (e->kind() == ExprNode::Kind::Unary && (e->op() == COp::PreInc || e->op() == COp::PreDec))
    return false;
  for (const CExpr& op : e->operands())
    if (!withoutSideEffects(op))
      return false;
  return true;
}

/// Local variables that may be removed: not pointers, and declared without
/// an initialiser or with one that has no side effects (e.g. `float tmp =
/// image[..] + ...` of a stored scalar whose reader was a component that a
/// view dropped).
void collectCandidates(const std::vector<CStmt>& body, std::set<std::string>& out) {
  for (const CStmt& s : body) {
    if (s->kind() == StmtNode::Kind::Decl && s->declType()->kind() != TypeNode::Kind::Pointer &&
        withoutSideEffects(s->init()))
      out.insert(s->name());
    collectCandidates(s->body(), out);
    collectCandidates(s->elseBody(), out);
  }
}

class Remover {
public:
  explicit Remover(const std::set<std::string>& dead) : dead_(dead) {}

  std::vector<CStmt> run(const std::vector<CStmt>& body) const {
    std::vector<CStmt> out;
    for (const CStmt& s : body)
      if (CStmt kept = visit(s))
        out.push_back(kept);
    return out;
  }

private:
  CStmt visit(const CStmt& s) const {
    switch (s->kind()) {
    case StmtNode::Kind::Decl:
      return dead_.count(s->name()) ? nullptr : s;
    case StmtNode::Kind::Expr:
      if (isAssignment(s->expr()))
        if (const ExprNode* base = writtenVariable(s->expr()->operands()[0].get()))
          if (dead_.count(base->text()))
            return nullptr;
      return s;
    case StmtNode::Kind::For: {
      std::vector<CStmt> body = run(s->body());
      if (body.empty())
        return nullptr;
      return forLoop(s->forInit(), s->expr(), s->forStep(), std::move(body), s->comment());
    }
    case StmtNode::Kind::Block: {
      std::vector<CStmt> body = run(s->body());
      return body.empty() ? nullptr : block(std::move(body), s->comment());
    }
    case StmtNode::Kind::If: {
      std::vector<CStmt> then = run(s->body());
      if (!s->hasElse())
        return then.empty() ? nullptr : ifStmt(s->expr(), std::move(then));
      return ifStmt(s->expr(), std::move(then), run(s->elseBody()));
    }
    default:
      return s;
    }
  }

  const std::set<std::string>& dead_;
};

} // namespace

std::vector<CStmt> eliminateDeadStores(const std::vector<CStmt>& body,
                                       const std::set<std::string>& declaredBefore,
                                       std::set<std::string>* removedBefore) {
  std::vector<CStmt> cur = body;
  std::set<std::string> before = declaredBefore; // not yet removed
  // Removing the stores to one variable can leave another unread.
  for (;;) {
    std::set<std::string> candidates = before, reads, dead;
    collectCandidates(cur, candidates);
    collectReads(cur, reads);
    for (const std::string& v : candidates)
      if (!reads.count(v))
        dead.insert(v);
    if (dead.empty())
      return cur;
    for (const std::string& v : dead)
      if (before.erase(v) && removedBefore)
        removedBefore->insert(v);
    cur = Remover(dead).run(cur);
  }
}

} // namespace risec::codegen::c
