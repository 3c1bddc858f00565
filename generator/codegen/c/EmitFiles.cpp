// SYMBOL.c and SYMBOL.h for --target c and openmp (codegen/c/Emitter.h;
// pipeline stage 12): the function (the prologue's checks and allocations,
// the statements, the frees), the helpers, structs and vector typedefs it
// uses, the foreign functions, and the header (codegen/host/HostWrappers.h).
#include "codegen/c/Emitter.h"

#include "codegen/c/CPrinter.h"
#include "codegen/host/HostWrappers.h"
#include "codegen/openmp/Pragmas.h"

namespace risec::codegen::c {

namespace {

/// `s` under the guard RISEC_STRUCT_<name>, so that a translation unit that
/// includes several kernels' headers or sources defines it once.
void addGuarded(TranslationUnit& unit, const StructDef& s) {
  unit.raw("#ifndef RISEC_STRUCT_" + s.name + "\n#define RISEC_STRUCT_" + s.name);
  unit.add(s);
  unit.raw("#endif");
}

void collectCalls(const CExpr& e, std::set<std::string>& out) {
  if (e->kind() == ExprNode::Kind::Call)
    out.insert(e->text());
  forEachChild(e, [&](const CExpr& op) { collectCalls(op, out); });
}

void collectCalls(const CStmt& s, std::set<std::string>& out) {
  if (s->kind() == StmtNode::Kind::Pragma) // a clause may call a helper
    out.insert(s->text());
  forEachChild(
      s, [&](const CExpr& e) { collectCalls(e, out); },
      [&](const CStmt& c) { collectCalls(c, out); });
}

} // namespace

std::set<std::string> Emitter::calledHelpers(const std::vector<CStmt>& body) const {
  std::set<std::string> calls;
  for (const CStmt& s : body)
    collectCalls(s, calls);
  std::set<std::string> used;
  for (const std::string& h : helpers_)
    for (const std::string& c : calls)
      if (c == h || c.find(h + "(") != std::string::npos)
        used.insert(h);
  for (const std::string& h : vectors_.splatNames())
    if (calls.count(h))
      used.insert(h);
  return used;
}

CFiles Emitter::files(std::vector<CStmt> statements) {
  return opencl() ? openclFiles(std::move(statements)) : cFiles(std::move(statements));
}

CFiles Emitter::cFiles(std::vector<CStmt> statements) {
  const dpia::Program& p = program_;
  std::vector<CStmt> body = checks_;
  body.insert(body.end(), statements.begin(), statements.end());
  for (auto it = heapNames_.rbegin(); it != heapNames_.rend(); ++it)
    body.push_back(exprStmt(call("free", {ident(*it)})));
  body.push_back(returnStmt(intLit(kOk)));

  voidUnusedParameters(params_, body);

  Function fn;
  fn.returnType = namedType("int");
  fn.name = opts_.symbol;
  fn.params = params_;
  fn.body = body;

  std::vector<std::string> foreignCodes;
  for (const auto& f : p.foreigns)
    foreignCodes.push_back(foreignCode(*f));

  // the declarations of the header: pair structs, the prototype
  TranslationUnit h;
  guardedStructs(h);
  Function proto = fn;
  proto.declarationOnly = true;
  proto.body.clear();
  h.add(proto);
  std::string declarations = printUnit(h);
  declarations.pop_back();

  TranslationUnit c;
  c.raw(host::docComment(abi_, opts_));
  c.include("\"" + opts_.symbol + ".h\"");
  c.blank();
  c.include("<limits.h>");
  if (math_)
    c.include("<math.h>");
  if (openmp_)
    c.include("<omp.h>");
  if (heapTemporaries_)
    c.include("<stdlib.h>");
  c.blank();
  if (vectors_.used()) {
    c.raw(vectors_.declarations(headerVectors_));
    c.blank();
  }
  // the structs with vector fields that no parameter has (not in the
  // header), under the header's guards: one definition per translation unit
  // when several kernels' files are compiled together (fuzz finding R1,
  // docs/fuzzing.md)
  bool ownStructs = false;
  for (const StructDef& s : types_.structs())
    if (!headerStructs_.count(s.name)) {
      addGuarded(c, s);
      ownStructs = true;
    }
  // the helpers the function calls (a statement that called one may have
  // been removed as a dead store: fuzz finding R4)
  const std::set<std::string> helpers = calledHelpers(body);
  for (const std::string& hname : helpers)
    c.raw(helperCode(hname));
  for (const std::string& f : foreignCodes)
    c.raw(f);
  if (!helpers.empty() || !p.foreigns.empty() || ownStructs)
    c.blank();
  c.add(fn);
  return {printUnit(c), host::cHeader(abi_, opts_, declarations), abi_, ""};
}

/// The pair structs of the header, each guarded so that several kernels'
/// headers can be included together: every struct of scalars, and the
/// structs with vector fields that a parameter's elements are, spelled in
/// host C (GCC vector types, also in an OpenCL kernel's header; their
/// layout is that of OpenCL's vectors), after the vector typedefs they
/// need. Remembers what it declared (headerStructs_, headerVectors_).
void Emitter::guardedStructs(TranslationUnit& h) {
  VectorTypes hostVectors(false);
  TypeMapper host;
  host.vector = [&](const rise::Type& v) { return hostVectors.type(v); };
  for (std::size_t i = 0; i < types_.structs().size(); ++i)
    if (!pairHoldsVector(types_.structTypes()[i]))
      host.element(types_.structTypes()[i]);
  for (const AbiParam& a : abi_.params)
    if (a.riseType && pairHoldsVector(TypeMapper::innermost(a.riseType)))
      host.element(TypeMapper::innermost(a.riseType));
  for (const auto& [name, typedefLine] : hostVectors.valueTypedefs()) {
    h.raw("#ifndef RISEC_VECTOR_" + name + "\n#define RISEC_VECTOR_" + name + "\n" + typedefLine +
          "\n#endif");
    headerVectors_.insert(name);
  }
  for (const StructDef& s : host.structs()) {
    addGuarded(h, s);
    headerStructs_.insert(s.name);
  }
}

std::string Emitter::helperCode(const std::string& h) {
  if (h.size() > 6 && h.compare(h.size() - 6, 6, "_splat") == 0)
    return vectors_.splatCode(h);
  if (h == "risec_min")
    return "static inline int risec_min(int a, int b) { return a < b ? a : b; }";
  if (h == "risec_max")
    return "static inline int risec_max(int a, int b) { return a > b ? a : b; }";
  if (h == "risec_omp_chunks")
    return openmp::chunksHelper();
  if (h == "risec_chunk_begin")
    return openmp::chunkBeginHelper();
  return "static inline int risec_pow(int b, int e) {\n  int r = 1;\n  while (e-- > 0)\n"
         "    r *= b;\n  return r;\n}";
}

} // namespace risec::codegen::c
