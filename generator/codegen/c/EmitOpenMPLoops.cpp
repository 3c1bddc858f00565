// Parallel loops for OpenMP (codegen/c/Emitter.h; docs/dpia.md, "OpenMP";
// texts in codegen/openmp/Pragmas.h): `omp parallel for` work-sharing
// loops, reductions by a clause or combined explicitly in chunk order, and
// each thread's slice of the heap temporaries hoisted out of a parallel loop.
#include "codegen/c/Emitter.h"

#include "codegen/c/CPrinter.h"

#include "codegen/openmp/Pragmas.h"
#include "dpia/Imperative.h"
#include "dpia/Parallel.h"
#include "dpia/Primitive.h"
#include "support/Diagnostic.h"

#include <algorithm>
#include <cctype>

namespace risec::codegen::c {

using dpia::Phrase;

void Emitter::parallelLoop(const Phrase& c, std::vector<CStmt>& out) {
  if (opencl() && c->isPrim(dpia::primitive::parFor())) {
    gridStrideLoop(c, out);
    return;
  }
  if (opts_.target != Target::OpenMP)
    throw InternalError("C back end: a parallel loop for the target `" +
                        std::string(targetName(opts_.target)) + "`");
  openmp_ = true;
  if (c->isPrim(dpia::primitive::parForCombine())) {
    combineLoop(c, out);
    return;
  }
  std::string i = loopName();
  std::uint64_t id = dpia::forIndex(c)->var().id;
  natNames_[id] = i;
  loops_.push_back(i);
  loopIndices_.push_back(id);
  std::vector<CStmt> body = privateSlices(id);
  std::size_t slices = body.size();
  comm(c->args()[0], body);
  restoreSlices(id);
  loopIndices_.pop_back();
  loops_.pop_back();
  bool reduce = c->isPrim(dpia::primitive::parForReduce());
  bool collapse = !reduce && collapsible(i, body, slices);
  std::string text = reduce ? openmp::reductionFor(c->tag(), memoryOf(c->args()[1]).name)
                            : openmp::parallelFor(collapse ? 2 : 1);
  out.push_back(pragma(text));
  out.push_back(countingLoop(namedType("int"), i, intLit(0), nats_.bare(dpia::forCount(c)),
                             intLit(1), body,
                             c->isPrim(dpia::primitive::parForReduce()) ? "reducePar" : c->tag()));
}

namespace {

/// Whether the C text of `e` names `name` (sizes and indices may sit in
/// literal text, e.g. `risec_min(32, h - 32 * i)`).
bool mentions(const CExpr& e, const std::string& name) {
  std::string text = printExpr(e);
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1))
    if ((at == 0 || !word(text[at - 1])) &&
        (at + name.size() == text.size() || !word(text[at + name.size()])))
      return true;
  return false;
}

bool containsLoop(const CStmt& s) {
  return s->kind() == StmtNode::Kind::For || anyChildStatement(s, containsLoop);
}

} // namespace

/// A parallel loop over few iterations (the blocks of rows of a skinny
/// matrix) leaves threads idle; when its body is one loop whose range does
/// not depend on it and which holds loops of its own (so that it is not the
/// loop `omp simd` marks), the two are shared out together: `collapse(2)`.
/// The private slices of heap temporaries (the first `slices` statements of
/// `body`) move into the inner loop's body, since nothing may stand between
/// collapsed loops. Rewrites `body` when it returns true.
bool Emitter::collapsible(const std::string& index, std::vector<CStmt>& body, std::size_t slices) {
  std::size_t inner = body.size();
  for (std::size_t k = slices; k < body.size(); ++k) {
    if (body[k]->kind() == StmtNode::Kind::Comment)
      continue;
    if (body[k]->kind() != StmtNode::Kind::For || inner != body.size())
      return false;
    inner = k;
  }
  if (inner == body.size())
    return false;
  const CStmt& loop = body[inner];
  if (!loop->forInit() || !loop->expr() || mentions(loop->expr(), index) ||
      (loop->forStep() && mentions(loop->forStep(), index)) ||
      (loop->forInit()->expr() && mentions(loop->forInit()->expr(), index)))
    return false;
  if (!std::any_of(loop->body().begin(), loop->body().end(), containsLoop))
    return false;
  std::vector<CStmt> innerBody(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(slices));
  innerBody.insert(innerBody.end(), loop->body().begin(), loop->body().end());
  CStmt collapsed =
      forLoop(loop->forInit(), loop->expr(), loop->forStep(), innerBody, loop->comment());
  std::vector<CStmt> rest(body.begin() + static_cast<std::ptrdiff_t>(slices), body.end());
  rest[inner - slices] = collapsed;
  body = std::move(rest);
  return true;
}

namespace {

/// The leaves of `m` (one per component of a pair holding arrays), writable.
void mutableLeaves(Memory& m, std::vector<Memory*>& out) {
  if (m.parts.empty()) {
    out.push_back(&m);
    return;
  }
  for (Memory& p : m.parts)
    mutableLeaves(p, out);
}

} // namespace

/// Each heap temporary hoisted out of the parallel loop `loop` is allocated
/// once per thread (allocateHeap); in the loop, every leaf of it (one per
/// array of a pair of arrays) names the calling thread's slice.
std::vector<CStmt> Emitter::privateSlices(std::uint64_t loop) {
  std::vector<CStmt> decls;
  auto [b, e] = privateHeap_.equal_range(loop);
  for (auto it = b; it != e; ++it) {
    std::vector<Memory*> ls;
    mutableLeaves(memory_.at(it->second), ls);
    std::vector<std::string>& shared = sharedNames_[it->second];
    shared.clear();
    for (Memory* m : ls) {
      std::string own = fresh(m->name + "_own");
      CExpr offset = binary(COp::Mul, cast(namedType("size_t"), call("omp_get_thread_num", {})),
                            cast(namedType("size_t"), nats_.expr(TypeMapper::count(m->type))));
      decls.push_back(declStmt(pointerType(types_.element(m->type), true), own,
                               binary(COp::Add, ident(m->name), offset)));
      shared.push_back(m->name);
      m->name = own;
    }
  }
  return decls;
}

void Emitter::restoreSlices(std::uint64_t loop) {
  auto [b, e] = privateHeap_.equal_range(loop);
  for (auto it = b; it != e; ++it) {
    std::vector<Memory*> ls;
    mutableLeaves(memory_.at(it->second), ls);
    const std::vector<std::string>& shared = sharedNames_.at(it->second);
    for (std::size_t k = 0; k < ls.size(); ++k)
      ls[k]->name = shared[k];
  }
}

/// reducePar with an operator OpenMP has no clause for: the range is cut
/// into at most kMaxChunks chunks (one per thread); each chunk is reduced
/// from its first element into a partial result, and the partial results
/// are combined into the accumulator sequentially, in chunk order.
void Emitter::combineLoop(const Phrase& c, std::vector<CStmt>& out) {
  helpers_.insert("risec_omp_chunks");
  helpers_.insert("risec_chunk_begin");
  const Phrase& part = c->args()[3];
  const rise::Type& t = dpia::dataType(proj1(part));
  if (t->kind() == rise::TypeKind::Vec && !vectors_.native(t))
    throw InternalError("C back end: reducePar on `" + rise::typeToString(t) +
                        "` (dpia::simdVector disagrees with VectorTypes::native)");
  CType ct = valueType(t);
  std::string partial = fresh("partial"), chunks = fresh("chunks");
  std::string partName = fresh("part");
  memory_[part->id()] = {partName, t, true, {}};
  CExpr n = nats_.bare(dpia::forCount(c));
  out.push_back(declStmt(arrayType(ct, openmp::kMaxChunks), partial));
  out.push_back(declStmt(namedType("int"), chunks, call("risec_omp_chunks", {n})));
  std::uint64_t id = dpia::forIndex(c)->var().id;

  std::string ch = loopName();
  loops_.push_back(ch);
  std::string lo = fresh("lo"), hi = fresh("hi");
  std::vector<CStmt> body = privateSlices(id);
  body.push_back(
      declStmt(namedType("int"), lo, call("risec_chunk_begin", {n, ident(ch), ident(chunks)})));
  body.push_back(declStmt(
      namedType("int"), hi,
      call("risec_chunk_begin", {n, binary(COp::Add, ident(ch), intLit(1)), ident(chunks)})));
  body.push_back(declStmt(ct, partName));
  natNames_[id] = lo;
  comm(c->args()[1], body); // part = x[lo]
  std::string i = loopName();
  natNames_[id] = i;
  loops_.push_back(i);
  std::vector<CStmt> step;
  comm(c->args()[0], step); // part = f(part, x[i])
  loops_.pop_back();
  body.push_back(countingLoop(namedType("int"), i, binary(COp::Add, ident(lo), intLit(1)),
                              ident(hi), intLit(1), step, "reducePar: this chunk"));
  body.push_back(assign(index(ident(partial), ident(ch)), ident(partName)));
  restoreSlices(id);
  out.push_back(pragma(openmp::parallelFor()));
  out.push_back(countingLoop(namedType("int"), ch, intLit(0), ident(chunks), intLit(1), body,
                             "reducePar: one partial result per chunk"));

  std::vector<CStmt> combine;
  combine.push_back(declStmt(ct, partName, index(ident(partial), ident(ch))));
  comm(c->args()[2], combine); // acc = f(acc, part)
  loops_.pop_back();
  out.push_back(countingLoop(namedType("int"), ch, intLit(0), ident(chunks), intLit(1), combine,
                             "reducePar: combined in chunk order"));
}

} // namespace risec::codegen::c
