#include "codegen/c/EmitMemory.h"

#include "codegen/c/EmitC.h"
#include "codegen/c/EmitTypes.h"
#include "support/Diagnostic.h"

#include <set>

namespace risec::codegen::c {

Memory makeMemory(const std::string& base, const rise::Type& t,
                  const std::function<std::string(const std::string&)>& name) {
  if (splitPair(t))
    return {base,
            t,
            false,
            {makeMemory(base + "_fst", t->first(), name),
             makeMemory(base + "_snd", t->second(), name)}};
  bool buffer = t->kind() == rise::TypeKind::Array || t->kind() == rise::TypeKind::Vec;
  return {name(base), t, !buffer, {}};
}

void leaves(const Memory& m, std::vector<const Memory*>& out) {
  if (m.parts.empty()) {
    out.push_back(&m);
    return;
  }
  for (const Memory& p : m.parts)
    leaves(p, out);
}

rise::Type distributedType(const rise::Type& t, const std::vector<std::int64_t>& divisors,
                           std::size_t k) {
  if (t->kind() != rise::TypeKind::Array || k >= divisors.size())
    return t;
  std::int64_t d = divisors[k];
  return rise::arrayType(rise::natConst((t->size()->value() + d - 1) / d),
                         distributedType(t->elem(), divisors, k + 1));
}

bool holdsArray(const rise::Type& t) {
  switch (t->kind()) {
  case rise::TypeKind::Array:
  case rise::TypeKind::Vec:
    return true;
  case rise::TypeKind::Pair:
    return holdsArray(t->first()) || holdsArray(t->second());
  default:
    return false;
  }
}

bool splitPair(const rise::Type& t) {
  return t->kind() == rise::TypeKind::Pair && holdsArray(t);
}

bool isStack(const rise::Type& t) {
  rise::Nat count = TypeMapper::count(t);
  return count->isConst() &&
         count->value() * TypeMapper::bytes(TypeMapper::innermost(t)) <= kStackLimitBytes;
}

void checkTemporaryLayout(const rise::Type& t, const SourceLocation& loc) {
  std::string why = layoutProblem(t);
  if (!why.empty())
    throw CompileError("E0699", loc,
                       "a temporary of type `" + rise::typeToString(t) +
                           "` is stored here: " + why +
                           "; store one array per component of the pairs instead (`unzip` "
                           "before storing)");
}

void voidUnusedParameters(const std::vector<Param>& params, std::vector<CStmt>& body) {
  std::set<std::string> used = identifiersUsed(body);
  std::vector<CStmt> voids;
  for (const Param& prm : params)
    if (!used.count(prm.name))
      voids.push_back(exprStmt(cast(namedType("void"), ident(prm.name))));
  body.insert(body.begin(), voids.begin(), voids.end());
}

} // namespace risec::codegen::c
