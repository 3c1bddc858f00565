#include "codegen/c/LoopNests.h"

#include <cstdlib>
#include <string>

namespace risec::codegen::c {

int collapsed(const CStmt& pragma) {
  const std::string& t = pragma->text();
  std::size_t at = t.find("collapse(");
  return at == std::string::npos ? 1 : std::atoi(t.c_str() + at + 9);
}

CStmt keepNest(const CStmt& loop, int depth, const BodyPass& inside) {
  if (depth <= 1)
    return mapBodies(loop, inside);
  return mapBodies(loop, [&](const std::vector<CStmt>& body) {
    std::vector<CStmt> out;
    for (const CStmt& s : body)
      out.push_back(s->kind() == StmtNode::Kind::For ? keepNest(s, depth - 1, inside)
                                                     : mapBodies(s, inside));
    return out;
  });
}

} // namespace risec::codegen::c
