// Commands as C statements (codegen/c/Emitter.h; pipeline stage 9):
// assignments, temporaries declared where they are used, sequential loops,
// barriers; parallel loops in EmitOpenMPLoops.cpp and EmitOpenCLKernel.cpp.
#include "codegen/c/Emitter.h"

#include "dpia/Imperative.h"
#include "dpia/Parallel.h"
#include "dpia/Primitive.h"
#include "support/Diagnostic.h"

#include <algorithm>
#include <functional>

namespace risec::codegen::c {

std::vector<CStmt> Emitter::statements(const Phrase& command) {
  std::vector<CStmt> body;
  comm(command, body);
  if (opencl()) {
    abi_.usesBarriers = opencl::hasBarrier(command);
    distributePrivateArrays();
  }
  return body;
}

Path Emitter::within(const Path& at, dpia::PathElem inner) {
  Path p = at;
  p.elems = {std::move(inner)};
  p.elems.insert(p.elems.end(), at.elems.begin(), at.elems.end());
  return p;
}

void Emitter::assignment(const Phrase& lhs, const Phrase& rhs, const rise::Type& t, const Path& at,
                         std::vector<CStmt>& out) {
  // `at` selects a component of the assigned value; the component's parts
  // are selected after it, so their steps go innermost (the front of the
  // path: its back is the outermost step)
  if (t->kind() == rise::TypeKind::Pair) {
    assignment(lhs, rhs, t->first(), within(at, {dpia::PathElem::Kind::Fst, nullptr}), out);
    assignment(lhs, rhs, t->second(), within(at, {dpia::PathElem::Kind::Snd, nullptr}), out);
    return;
  }
  if (t->kind() == rise::TypeKind::Vec && vectors_.native(t) && !discardsWrites(lhs)) {
    noteWrite({});
    vectorLowering_.assign(lhs, rhs, t, at, out);
    return;
  }
  if (t->kind() == rise::TypeKind::Vec) { // lane by lane (each lane's write may be discarded)
    if (!t->size()->isConst())
      throw CompileError("E0699", {}, "vectors of a symbolic width are not supported");
    for (std::int64_t lane = 0; lane < t->size()->value(); ++lane) {
      Path l = within(at, {dpia::PathElem::Kind::Index, rise::natConst(lane)});
      assignment(lhs, rhs, t->elem(), l, out);
    }
    return;
  }
  if (t->kind() == rise::TypeKind::Array)
    throw InternalError("C back end: an assignment of a whole array");
  Path l = at, r = at;
  CExpr target = acc(lhs, l);
  const ExprNode* variable = writtenVariable(target.get());
  CStmt write = assign(std::move(target), exp(rhs, r));
  // a write that an acceptor may discard (take(n) of a padded computation):
  // one condition per bound, so that the loops around can drop those their
  // ends prove (EmitGuards.cpp)
  std::vector<CExpr> conditions;
  for (const dpia::Path::Bound& b : l.writeBounds)
    conditions.push_back(binary(COp::Lt, nats_.expr(b.index), nats_.expr(b.bound)));
  noteWrite(l.writeBounds, conditions, variable ? variable->text() : "");
  // a guard the Nat prover decides (an unrolled write, `if (3 < 3)`): a
  // false one drops the write, which may be out of bounds (fuzz finding
  // R11: `tmp[3]` of `float tmp[3]`, rejected by Clang), a true one the test
  CExpr cond;
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    const dpia::Path::Bound& b = l.writeBounds[i];
    if (rise::proveLessEqual(b.bound, b.index))
      return;
    if (!rise::proveLess(b.index, b.bound))
      cond = cond ? binary(COp::And, cond, conditions[i]) : conditions[i];
  }
  if (!cond) {
    out.push_back(std::move(write));
    return;
  }
  out.push_back(ifStmt(cond, {std::move(write)}));
}

bool Emitter::discardsWrites(Phrase a) {
  while (a->kind() == PhraseKind::Prim && a->prim().view) {
    if (a->isPrim(dpia::primitive::discardTailAcc()))
      return true;
    // the acceptor is the last argument (idxAcc(i, a) has the index first)
    a = a->args().back();
  }
  return false;
}

void Emitter::privatePair(const Phrase& c, std::vector<CStmt>& out) {
  const rise::Type& t = c->dataArg(0);
  const Phrase& f = c->args()[0];
  Memory m = makeMemory(c->tag(), t, [&](const std::string& n) { return fresh(n); });
  std::function<void(Memory&)> declare = [&](Memory& leaf) {
    for (Memory& part : leaf.parts)
      declare(part);
    if (!leaf.parts.empty())
      return;
    if (!isStack(leaf.type))
      throw InternalError("C back end: a heap temporary was not hoisted");
    CType ct = types_.element(leaf.type);
    if (!leaf.variable)
      ct = arrayType(ct, TypeMapper::count(leaf.type)->value());
    out.push_back(declStmt(ct, leaf.name));
    if (opencl()) {
      leaf.privateId = dpia::freshIdent(leaf.name, f->param()->type())->id();
      privateMemory_.declare(leaf.privateId, c, leaf.name, gridStack_);
    }
  };
  declare(m);
  memory_[f->param()->id()] = m;
  comm(f->body(), out);
}

void Emitter::comm(const Phrase& c, std::vector<CStmt>& out) {
  try {
    command(c, out);
  } catch (const CompileError& e) {
    // a limitation found below a command without its own location (a type
    // the C back end cannot store, an access it cannot spell) is reported
    // at the innermost command that has one
    if (e.location().known() || !c->loc().known())
      throw;
    CompileError located(e.code(), c->loc(), e.message());
    for (const DiagnosticNote& n : e.notes())
      located.note(n.location, n.message);
    throw located;
  }
}

void Emitter::command(const Phrase& c, std::vector<CStmt>& out) {
  namespace primitive = dpia::primitive;
  if (c->isPrim(primitive::seq())) {
    for (const Phrase& x : c->args())
      comm(x, out);
  } else if (c->isPrim(primitive::skip())) {
  } else if (c->isPrim(primitive::assign())) {
    const Phrase& rhs = c->args()[1];
    if (rhs->kind() == PhraseKind::Prim && rhs->isPrim(dpia::primitive::foreign()) &&
        c->dataArg(0)->kind() == rise::TypeKind::Pair) {
      noteWrite({});
      assignForeignPair(c->args()[0], rhs, c->dataArg(0), out);
    } else
      assignment(c->args()[0], rhs, c->dataArg(0), newPath(), out);
  } else if (c->isPrim(primitive::newVar())) {
    newVariable(c, out);
  } else if (c->isPrim(primitive::forLoop())) {
    sequentialLoop(c, out);
  } else if (dpia::isParallelLoop(c)) {
    noteWrite({}); // its writes are not followed
    parallelLoop(c, out);
  } else if (opencl::isPhaseBoundary(c)) { // a new kernel (opencl/Kernel.h)
    out.push_back(opencl::phaseMarker(c->tag()));
    phaseGridLoops_.emplace_back();
  } else if (c->isPrim(primitive::barrier())) {
    std::string flags = dpia::barrierLocal(c) ? "CLK_LOCAL_MEM_FENCE" : "";
    if (dpia::barrierGlobal(c))
      flags += std::string(flags.empty() ? "" : " | ") + "CLK_GLOBAL_MEM_FENCE";
    out.push_back(comment(c->tag()));
    out.push_back(exprStmt(call("barrier", {literal(flags)})));
  } else {
    throw InternalError(
        "C back end: unexpected command `" +
        (c->kind() == PhraseKind::Prim ? c->primName() : dpia::phraseTypeToString(c->type())) +
        "`");
  }
}

void Emitter::sequentialLoop(const Phrase& c, std::vector<CStmt>& out) {
  const rise::Nat& count = dpia::forCount(c);
  std::string i = loopName();
  natNames_[dpia::forIndex(c)->var().id] = i;
  loops_.push_back(i);
  LoopWrites writes;
  writes.index = dpia::forIndex(c);
  writes.count = count;
  writes.fixed = sizeIds_;
  writes.fixed.insert(loopIndices_.begin(), loopIndices_.end());
  loopWrites_.push_back(writes);
  loopIndices_.push_back(writes.index->var().id);
  std::vector<CStmt> body;
  comm(c->args()[0], body);
  loopIndices_.pop_back();
  loops_.pop_back();
  writes = loopWrites_.back();
  loopWrites_.pop_back();
  // no iteration (e.g. a map over the empty part that peelTail leaves): its
  // body, which may index an empty array, is never run (fuzz finding R2)
  if (count->isConst(0))
    return;
  CExpr end = boundedEnd(writes, body);
  out.push_back(countingLoop(namedType("int"), i, intLit(0), end, intLit(1), body, c->tag()));
}

void Emitter::newVariable(const Phrase& c, std::vector<CStmt>& out) {
  const rise::Type& t = c->dataArg(0);
  const Phrase& f = c->args()[0];
  checkTemporaryLayout(t, c->loc());
  if (splitPair(t)) { // OpenCL, private: one C array or variable per component
    privatePair(c, out);
    return;
  }
  std::string name = fresh(c->tag());
  for (LoopWrites& loop : loopWrites_)
    loop.locals.insert(name);
  bool array = t->kind() == rise::TypeKind::Array ||
               (t->kind() == rise::TypeKind::Vec && !vectors_.native(t));
  // OpenCL: a private array's size per work-item is checked once every
  // access is known (PrivateMemoryCheck::layouts, E0631)
  if (array && !isStack(t) && !opencl())
    throw InternalError("C back end: a heap temporary was not hoisted");
  Memory& m = memory_[f->param()->id()] = {name, t, !array, {}};
  if (opencl()) { // hoisting took the local and global ones: this one is private
    m.privateId = f->param()->id();
    privateMemory_.declare(f->param()->id(), c, name, gridStack_);
    std::size_t ordinal = privateOrder_.size();
    privateOrder_.push_back(f->param()->id());
    if (ordinal < layouts_.size() && array) {
      m.divisors = layouts_[ordinal].divisors;
      m.type = distributedType(t, m.divisors);
    }
  }
  CType ct = valueType(t);
  if (array)
    ct = arrayType(ct, TypeMapper::count(m.type)->value());
  std::vector<CStmt> body;
  comm(f->body(), body);
  // `float acc; acc = 0.0f;` reads better as `float acc = 0.0f;`
  CExpr init;
  if (!array && !body.empty() && body[0]->kind() == StmtNode::Kind::Expr &&
      isBinary(body[0]->expr(), COp::Assign) &&
      body[0]->expr()->operands()[0]->kind() == ExprNode::Kind::Ident &&
      body[0]->expr()->operands()[0]->text() == name) {
    init = body[0]->expr()->operands()[1];
    body.erase(body.begin());
  }
  out.push_back(declStmt(ct, name, init));
  out.insert(out.end(), body.begin(), body.end());
}

std::string Emitter::fresh(const std::string& hint) {
  std::string n = names_.fresh(hint);
  while (loopNames_.count(n))
    n = names_.fresh(hint);
  return n;
}

std::string Emitter::loopName() {
  static const char* const base[] = {"i", "j", "k", "l", "p", "q"};
  for (int round = 0;; ++round)
    for (const char* b : base) {
      std::string n = round == 0 ? b : b + std::to_string(round + 1);
      bool inScope = std::find(loops_.begin(), loops_.end(), n) != loops_.end();
      if (!inScope && !names_.taken(n)) {
        loopNames_.insert(n);
        return n;
      }
    }
}

} // namespace risec::codegen::c
