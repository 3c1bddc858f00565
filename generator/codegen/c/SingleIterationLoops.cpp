// Stage 10, last step: a counting loop of one iteration replaced by its body
// (c/Unswitch.h).
#include "codegen/c/Unswitch.h"
#include "codegen/c/UnswitchInternal.h"

namespace risec::codegen::c {

namespace {

/// The index of a counting loop of one iteration, `for (int v = 0; v < 1;
/// v += 1)`, else empty.
std::string singleIterationIndex(const CStmt& loop) {
  std::set<std::string> changed;
  changedIn(loop, changed);
  std::optional<CountingLoop> c = countingLoopOf(loop, changed);
  return c && intValue(c->first) == 0 && intValue(c->last) == 0 ? c->var : "";
}

/// Whether a variable that `inner` (the body of `body[at]`) declares is
/// named anywhere else in `body`: spliced into it, the declaration would
/// clash with one there or shadow a variable it uses. (The emitter names
/// its variables afresh in each function, so this is rare.)
bool clashes(const std::vector<CStmt>& inner, const std::vector<CStmt>& body, std::size_t at) {
  std::vector<CStmt> others = body;
  others.erase(others.begin() + static_cast<std::ptrdiff_t>(at));
  std::set<std::string> named = identifiersUsed(others);
  for (const CStmt& s : others) // a declaration in the same scope
    if (s->kind() == StmtNode::Kind::Decl)
      named.insert(s->name());
  for (const CStmt& s : inner)
    if (s->kind() == StmtNode::Kind::Decl && named.count(s->name()))
      return true;
  return false;
}

} // namespace

std::vector<CStmt> inlineSingleIterations(const std::vector<CStmt>& body) {
  std::vector<CStmt> out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    bool afterPragma = i > 0 && body[i - 1]->kind() == StmtNode::Kind::Pragma;
    if (afterPragma && body[i]->kind() == StmtNode::Kind::For) {
      out.push_back(keepNest(body[i], collapsed(body[i - 1]), inlineSingleIterations));
      continue;
    }
    CStmt s = mapBodies(body[i], inlineSingleIterations);
    std::string v = s->kind() == StmtNode::Kind::For ? singleIterationIndex(s) : "";
    if (v.empty()) {
      out.push_back(s);
      continue;
    }
    std::vector<CStmt> inner;
    for (const CStmt& c : s->body())
      inner.push_back(
          mapExpressions(c, [&](const CExpr& e) { return substituteFolded(e, v, intLit(0)); }));
    // a size the substitution could not read keeps the index: the loop stays
    if (identifiersUsed(inner).count(v)) {
      out.push_back(s);
      continue;
    }
    if (clashes(inner, body, i))
      out.push_back(block(std::move(inner))); // its declarations keep their scope
    else
      out.insert(out.end(), inner.begin(), inner.end());
  }
  return out;
}

} // namespace risec::codegen::c
