// Foreign functions in the emitted code (codegen/c/Emitter.h;
// rise/ast/ForeignTypes.h): calls with every argument passed whole, pair
// results, and the definitions as `static inline` functions.
#include "codegen/c/Emitter.h"

#include "codegen/c/CPrinter.h"
#include "support/Diagnostic.h"

#include <cctype>

namespace risec::codegen::c {

CType Emitter::foreignType(const rise::Type& t) {
  if (t->kind() == rise::TypeKind::Vec)
    return vectors_.type(t);
  return types_.element(t); // scalars and pairs: as in memory (EmitTypes.h)
}

CExpr Emitter::wholeValue(const Phrase& p, const Path& path, const rise::Type& t) {
  if (t->kind() == rise::TypeKind::Vec)
    return vectorLowering_.value(p, path, t);
  if (t->kind() == rise::TypeKind::Pair) {
    if (!holdsArray(t) && (p->kind() == PhraseKind::Ident || p->kind() == PhraseKind::Proj1)) {
      // a struct in memory (a variable, an element of an array of structs)
      const Memory& m = memoryOf(p);
      if (m.parts.empty()) {
        Path at = path;
        return access(m, at, false);
      }
    }
    return compoundLiteral(
        foreignType(t), {wholeValue(p, within(path, {PathElem::Kind::Fst, nullptr}), t->first()),
                         wholeValue(p, within(path, {PathElem::Kind::Snd, nullptr}), t->second())});
  }
  Path at = path;
  return exp(p, at);
}

CExpr Emitter::foreignCall(const Phrase& p, Path& path) {
  std::vector<CExpr> args;
  for (const Phrase& a : p->args())
    args.push_back(wholeValue(a, newPath(), dpia::dataType(a)));
  CExpr e = call(p->tag(), args);
  rise::Type t = dpia::dataType(p);
  while (!path.empty()) {
    if (t->kind() == rise::TypeKind::Pair && path.next() != PathElem::Kind::Index) {
      bool fst = path.popFst();
      e = member(e, fst ? "fst" : "snd");
      t = fst ? t->first() : t->second();
    } else if (t->kind() == rise::TypeKind::Vec && path.next() == PathElem::Kind::Index) {
      Nat lane = path.popIndex();
      if (!lane->isConst())
        throw CompileError("E0699", p->loc(),
                           "a lane of the vector that `" + p->tag() +
                               "` returns is selected by a run-time index, which the back end "
                               "does not support yet; store the result first (`toMem`)");
      e = vectors_.lane(e, lane->value());
      t = t->elem();
    } else {
      throw InternalError("C back end: `" + p->tag() + "` read at a path beyond its result");
    }
  }
  return e;
}

void Emitter::assignForeignPair(const Phrase& lhs, const Phrase& rhs, const rise::Type& t,
                                std::vector<CStmt>& out) {
  Path whole = newPath();
  CExpr value = exp(rhs, whole);
  if ((lhs->kind() == PhraseKind::Ident || lhs->kind() == PhraseKind::Proj2) && !holdsArray(t)) {
    const Memory& m = memoryOf(lhs);
    if (m.variable && m.parts.empty() && rise::typeToString(m.type) == rise::typeToString(t)) {
      Path at = newPath();
      out.push_back(assign(access(m, at, true), value));
      return;
    }
  }
  std::string tmp = fresh(rhs->tag() + "_result");
  out.push_back(declStmt(foreignType(t), tmp, value));
  Phrase id = dpia::freshIdent(tmp, dpia::expType(t, dpia::Access::Rd));
  Memory& m = memory_[id->id()];
  m.name = tmp;
  m.type = t;
  m.variable = true;
  assignment(lhs, id, t, newPath(), out);
}

std::string Emitter::foreignCode(const rise::ForeignDecl& f) {
  std::string s = "static inline " + printType(foreignType(f.result)) + " " + f.name + "(";
  for (std::size_t i = 0; i < f.params.size(); ++i)
    s += (i ? ", " : "") + printDeclarator(foreignType(f.params[i].second), f.params[i].first);
  if (f.params.empty())
    s += "void";
  s += ") {\n";
  // a parameter the body never names (Shine's calcAcc ignores deltaT)
  // would fail -Wunused-parameter
  auto named = [&](const std::string& name) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = f.body.find(name); at != std::string::npos;
         at = f.body.find(name, at + 1))
      if ((at == 0 || !word(f.body[at - 1])) &&
          (at + name.size() == f.body.size() || !word(f.body[at + name.size()])))
        return true;
    return false;
  };
  for (const auto& prm : f.params)
    if (!named(prm.first))
      s += "  (void)" + prm.first + ";\n";
  std::string body = f.body;
  std::size_t start = 0;
  while (start <= body.size()) {
    std::size_t end = body.find('\n', start);
    std::string line = body.substr(start, end == std::string::npos ? end : end - start);
    std::size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos)
      s += "  " + line.substr(first) + "\n";
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return s + "}";
}

} // namespace risec::codegen::c
