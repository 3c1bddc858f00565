#include "codegen/c/DeadStores.h"

#include "rise/ast/Primitive.h"

#include <set>
#include <string>

namespace risec::codegen::c {

namespace {

/// Records every identifier read by `e`. The target of an assignment is not
/// a read, but the indices that select the written element are.
void collectReads(const CExpr& e, std::set<std::string>& reads) {
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
  forEachChild(e, [&](const CExpr& op) { collectReads(op, reads); });
}

void collectReads(const CStmt& s, std::set<std::string>& reads) {
  forEachChild(
      s, [&](const CExpr& e) { collectReads(e, reads); },
      [&](const CStmt& c) { collectReads(c, reads); });
}

/// Whether `fn` is a math function of the primitive table (`fabsf`, `sqrt`,
/// OpenCL's `fabs`) or a helper of the generated file that only computes
/// (`risec_min`): a call of it has no effect but its value (fuzz finding
/// R12: `float tmp_2 = fabsf(...);`, never read, was kept).
bool pureFunction(const std::string& fn) {
  static const std::set<std::string> pure = [] {
    std::set<std::string> s = {"risec_min", "risec_max", "risec_pow"};
    for (rise::Prim p : rise::allPrims()) {
      const rise::PrimTraits& t = rise::primInfo(p).traits;
      for (std::string_view f : {t.cMathF32, t.cMathF64, t.openclBuiltin})
        if (!f.empty())
          s.insert(std::string(f));
    }
    return s;
  }();
  return pure.count(fn) > 0;
}

/// Whether evaluating `e` has no effect but its value: no assignment, no
/// increment, no call but of a pure function (any other call may allocate,
/// like malloc, or be a foreign function).
bool withoutSideEffects(const CExpr& e) {
  if (!e)
    return true;
  if (isAssignment(e) || (e->kind() == ExprNode::Kind::Call && !pureFunction(e->text())))
    return false;
  if (e->kind() == ExprNode::Kind::Unary && (e->op() == COp::PreInc || e->op() == COp::PreDec))
    return false;
  return !anyChild(e, [](const CExpr& op) { return !withoutSideEffects(op); });
}

/// Local variables that may be removed: not pointers, and declared without
/// an initialiser or with one that has no side effects (e.g. `float tmp =
/// image[..] + ...` of a stored scalar whose reader was a component that a
/// view dropped).
void collectCandidates(const CStmt& s, std::set<std::string>& out) {
  if (s->kind() == StmtNode::Kind::Decl && s->declType()->kind() != TypeNode::Kind::Pointer &&
      withoutSideEffects(s->init()))
    out.insert(s->name());
  forEachChildStatement(s, [&](const CStmt& c) { collectCandidates(c, out); });
}

class Remover {
public:
  explicit Remover(const std::set<std::string>& dead) : dead_(dead) {}

  std::vector<CStmt> run(const std::vector<CStmt>& body) const {
    std::vector<CStmt> out;
    for (const CStmt& s : body)
      if (CStmt kept = visit(s))
        out.push_back(kept);
      else if (!out.empty() && out.back()->kind() == StmtNode::Kind::Pragma)
        out.pop_back(); // the removed loop's `#pragma omp parallel for`
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
    case StmtNode::Kind::For:
    case StmtNode::Kind::Block:
    case StmtNode::Kind::If: {
      // a loop, block or `if` without else left empty goes too
      CStmt kept = mapBodies(s, [&](const std::vector<CStmt>& b) { return run(b); });
      return kept->body().empty() && !kept->hasElse() ? nullptr : kept;
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
    for (const CStmt& s : cur) {
      collectCandidates(s, candidates);
      collectReads(s, reads);
    }
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
