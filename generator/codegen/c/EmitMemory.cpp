#include "codegen/c/EmitMemory.h"

#include "codegen/c/EmitC.h"
#include "codegen/c/EmitTypes.h"
#include "dpia/View.h"
#include "support/Diagnostic.h"

#include <set>

namespace risec::codegen::c {

namespace {

/// The array dimensions above the element of `t` (vectors are elements).
std::size_t arrayDims(const rise::Type& t) {
  std::size_t d = 0;
  for (rise::Type e = t; e->kind() == rise::TypeKind::Array; e = e->elem())
    ++d;
  return d;
}

rise::Type elementOf(const rise::Type& t) {
  rise::Type e = t;
  while (e->kind() == rise::TypeKind::Array)
    e = e->elem();
  return e;
}

/// `inner` under the first `dims` array dimensions of `t`.
rise::Type underDims(const rise::Type& t, std::size_t dims, const rise::Type& inner) {
  if (dims == 0)
    return inner;
  return rise::arrayType(t->size(), underDims(t->elem(), dims - 1, inner));
}

/// Whether `t` is or holds an array (not only vectors: a pair of scalars
/// and native vectors in an array is an array of structs).
bool holdsProperArray(const rise::Type& t) {
  if (t->kind() == rise::TypeKind::Array)
    return true;
  return t->kind() == rise::TypeKind::Pair &&
         (holdsProperArray(t->first()) || holdsProperArray(t->second()));
}

} // namespace

std::pair<rise::Type, rise::Type> splitComponents(const rise::Type& t) {
  std::size_t dims = arrayDims(t);
  rise::Type e = elementOf(t);
  return {underDims(t, dims, e->first()), underDims(t, dims, e->second())};
}

Memory makeMemory(const std::string& base, const rise::Type& t,
                  const std::function<std::string(const std::string&)>& name) {
  if (splitPair(t)) {
    auto [a, b] = splitComponents(t);
    Memory m{
        base, t, false, {makeMemory(base + "_fst", a, name), makeMemory(base + "_snd", b, name)}};
    m.sharedDims = arrayDims(t);
    return m;
  }
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

const Memory* selectPart(const Memory& m, dpia::Path& path) {
  std::vector<rise::Nat> shared;
  for (std::size_t k = 0; k < m.sharedDims; ++k) {
    if (path.empty() || path.next() != dpia::PathElem::Kind::Index)
      break;
    shared.push_back(path.popIndex());
  }
  bool selects =
      shared.size() == m.sharedDims && !path.empty() && path.next() != dpia::PathElem::Kind::Index;
  const Memory* part = selects ? &m.parts[path.popFst() ? 0 : 1] : nullptr;
  for (auto i = shared.rbegin(); i != shared.rend(); ++i)
    path.pushIndex(*i);
  return part;
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
  if (t->kind() == rise::TypeKind::Pair)
    return holdsArray(t);
  rise::Type e = elementOf(t);
  return t->kind() == rise::TypeKind::Array && e->kind() == rise::TypeKind::Pair &&
         holdsProperArray(e);
}

bool isStack(const rise::Type& t) {
  rise::Nat count = TypeMapper::count(t);
  return count->isConst() &&
         count->value() * TypeMapper::bytes(TypeMapper::innermost(t)) <= kStackLimitBytes;
}

void checkTemporaryLayout(const rise::Type& t, const SourceLocation& loc) {
  if (splitPair(t)) { // each component is a temporary of its own
    auto [a, b] = splitComponents(t);
    checkTemporaryLayout(a, loc);
    checkTemporaryLayout(b, loc);
    return;
  }
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
