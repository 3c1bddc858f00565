// The ABI prologue of the function (kernel) (codegen/c/Emitter.h; pipeline
// stage 7; docs/dpia.md, "The generated-code contract"): the parameters in
// ABI order and their KernelAbi description, the checks of the sizes and the
// preconditions (return codes 1 to 3), and the heap temporaries allocated
// once up front (return code 4); OpenCL: the local and global temporaries
// placed (EmitOpenCLKernel.cpp).
#include "codegen/c/Emitter.h"

#include "codegen/c/CPrinter.h"
#include "support/Diagnostic.h"

#include <algorithm>
#include <functional>

namespace risec::codegen::c {

using dpia::Phrase;
using rise::Nat;

void Emitter::prologue(const dpia::Program& p,
                       const std::vector<dpia::HoistedAllocation>& temporaries) {
  program_ = p;
  for (const auto& f : p.foreigns)
    rise::checkForeignSignature(*f);
  math_ = !p.foreigns.empty(); // foreign bodies may call the math functions
  std::vector<dpia::HoistedAllocation> heap = temporaries;
  // parameters: the output (one pointer per component of a pair of arrays),
  // the sizes, the inputs
  memory_[p.output->id()] =
      makeMemory("output", p.outputType, [](const std::string& n) { return n; });
  std::function<void(Memory&)> asPointers = [&](Memory& m) {
    m.variable = false; // a scalar result is a one-element array
    for (Memory& part : m.parts)
      asPointers(part);
  };
  asPointers(memory_[p.output->id()]);
  std::vector<const Memory*> outLeaves;
  leaves(memory_[p.output->id()], outLeaves);
  for (const Memory* m : outLeaves) {
    names_.reserve(m->name);
    CType elem = types_.element(m->type);
    abiParam(AbiParam::Role::Output, *m, "output");
    if (opencl())
      elem = namedType("global " + printType(elem));
    params_.push_back({pointerType(elem, true), m->name});
  }
  std::vector<std::string> sizeNames;
  for (const rise::DepBinder& b : p.sizes) {
    std::string name = names_.fresh(b.name());
    natNames_[b.id()] = name;
    sizeIds_.insert(b.id());
    sizeNames.push_back(name);
    params_.push_back({namedType("int"), name});
    AbiParam a;
    a.role = AbiParam::Role::Size;
    a.name = name;
    a.riseName = b.name();
    a.cType = "int";
    abi_.params.push_back(a);
  }
  for (const Phrase& x : p.inputs) {
    Memory m = makeMemory(x->name(), dpia::dataType(x),
                          [&](const std::string& n) { return names_.fresh(n); });
    std::vector<const Memory*> ls;
    leaves(m, ls);
    for (const Memory* l : ls) {
      CType ct = types_.element(l->type);
      abiParam(AbiParam::Role::Input, *l, x->name());
      if (opencl() && !l->variable)
        ct = namedType("global " + printType(ct));
      params_.push_back({l->variable ? ct : pointerType(constOf(ct), true), l->name});
    }
    memory_[x->id()] = m;
  }
  if (opencl()) {
    placeTemporaries(heap);
    heap.clear();
  }
  heapTemporaries_ = !heap.empty();
  abi_.symbol = opts_.symbol;
  abi_.target = opts_.target;
  abi_.entry = p.name;
  abi_.riseType = p.riseType;
  abi_.preconditions = p.preconditions;
  for (AbiParam& a : abi_.params)
    if (a.array)
      a.countC = printExpr(nats_.bare(a.count));

  // heap temporaries (named now, allocated after the checks)
  std::vector<const Memory*> heapLeaves;
  std::set<std::string> perThread; // heap leaves with one copy per thread
  for (const auto& h : heap) {
    checkTemporaryLayout(h.type, h.command->loc());
    memory_[h.var->id()] =
        makeMemory(h.name, h.type, [&](const std::string& n) { return fresh(n); });
    std::size_t before = heapLeaves.size();
    leaves(memory_[h.var->id()], heapLeaves);
    if (h.parallelLoop == 0)
      continue;
    // One copy per thread of every leaf (each array of a pair of arrays is
    // its own heap block); a leaf kept as a C variable or a stack array
    // would be one copy shared by the threads, so such pairs stay refused.
    for (std::size_t k = before; k < heapLeaves.size(); ++k) {
      const Memory* l = heapLeaves[k];
      if (l->variable || isStack(l->type))
        throw CompileError("E0621", h.command->loc(),
                           "a pair `" + h.name +
                               "` with a scalar or small array component inside a parallel "
                               "loop is not supported by the OpenMP back end");
      perThread.insert(l->name);
    }
    privateHeap_.insert({h.parallelLoop, h.var->id()});
  }
  sizeChecks(sizeNames, outLeaves, heapLeaves);
  allocateHeap(heapLeaves, perThread);
}

void Emitter::abiParam(AbiParam::Role role, const Memory& m, const std::string& riseName) {
  AbiParam a;
  a.role = role;
  a.name = m.name;
  a.riseName = riseName;
  a.riseType = m.type;
  a.cType = printType(types_.element(m.type));
  a.array = !m.variable;
  if (a.array)
    a.count = TypeMapper::count(m.type); // printed once the sizes have C names
  abi_.params.push_back(a);
}

void Emitter::sizeChecks(const std::vector<std::string>& sizeNames,
                         const std::vector<const Memory*>& outLeaves,
                         const std::vector<const Memory*>& heapLeaves) {
  if (!sizeNames.empty()) {
    CExpr negative;
    for (const std::string& s : sizeNames) {
      CExpr c = binary(COp::Lt, ident(s), intLit(0));
      negative = negative ? binary(COp::Or, negative, c) : c;
    }
    checks_.push_back(ifStmt(negative, {returnStmt(intLit(kNegativeSize))}));
  }
  std::vector<rise::Type> sized;
  for (const Phrase& x : program_.inputs) {
    std::vector<const Memory*> ls;
    leaves(memory_[x->id()], ls);
    for (const Memory* l : ls)
      sized.push_back(l->type);
  }
  for (const Memory* l : outLeaves)
    sized.push_back(l->type);
  for (const Memory* l : heapLeaves)
    sized.push_back(l->type);
  CExpr tooLarge;
  std::set<std::string> seen;
  for (const rise::Type& t : sized) {
    Nat count = TypeMapper::count(t);
    if (count->isConst() || count->kind() == rise::NatKind::Var)
      continue; // a single size parameter always fits
    CExpr c = binary(COp::Gt, nats_.upperBound(count), literal("INT_MAX"));
    std::string key = printExpr(c);
    if (!seen.insert(key).second)
      continue;
    tooLarge = tooLarge ? binary(COp::Or, tooLarge, c) : c;
  }
  if (tooLarge)
    checks_.push_back(ifStmt(tooLarge, {returnStmt(intLit(kSizeTooLarge))}));
  for (const rise::Precondition& pre : program_.preconditions) {
    if (pre.onlyForNonEmptyResult) { // `v >= 1`; v = 0 leaves nothing to compute
      CExpr size = nats_.bare(pre.lhs);
      checks_.push_back(comment(printExpr(size) + " = 0: the result is empty, nothing to compute"));
      checks_.push_back(ifStmt(binary(COp::Eq, size, intLit(0)), {returnStmt(intLit(kOk))}));
      continue;
    }
    CExpr cond = binary(pre.rel == rise::Precondition::Rel::Eq ? COp::Ne : COp::Lt,
                        nats_.bare(pre.lhs), nats_.bare(pre.rhs));
    checks_.push_back(comment(pre.reason.empty() ? pre.str() : pre.reason));
    checks_.push_back(ifStmt(cond, {returnStmt(intLit(kPreconditionFailed))}));
  }
}

std::set<std::string> Emitter::stackTemporaries() const {
  std::set<std::string> names;
  for (const CStmt& s : checks_)
    if (s->kind() == StmtNode::Kind::Decl && s->declType()->kind() != TypeNode::Kind::Pointer &&
        !s->init())
      names.insert(s->name());
  return names;
}

void Emitter::dropStackTemporaries(const std::set<std::string>& names) {
  checks_.erase(std::remove_if(checks_.begin(), checks_.end(),
                               [&](const CStmt& s) {
                                 return s->kind() == StmtNode::Kind::Decl && names.count(s->name());
                               }),
                checks_.end());
}

void Emitter::allocateHeap(const std::vector<const Memory*>& heapLeaves,
                           const std::set<std::string>& perThread) {
  CExpr failed;
  for (const Memory* h : heapLeaves) {
    const std::string& name = h->name;
    CType elem = types_.element(h->type);
    if (h->variable || isStack(h->type)) { // a small part of a split pair
      checks_.push_back(declStmt(
          h->variable ? elem : arrayType(elem, TypeMapper::count(h->type)->value()), name));
      continue;
    }
    heapNames_.push_back(name);
    CExpr size = binary(COp::Mul, cast(namedType("size_t"), nats_.expr(TypeMapper::count(h->type))),
                        call("sizeof", {ident(printType(elem))}));
    if (perThread.count(name)) {
      if (threadsName_.empty()) {
        threadsName_ = fresh("nthreads");
        checks_.push_back(
            declStmt(namedType("int"), threadsName_, call("omp_get_max_threads", {})));
      }
      size = binary(COp::Mul, cast(namedType("size_t"), ident(threadsName_)), size);
    }
    checks_.push_back(declStmt(pointerType(elem, true), name, call("malloc", {size})));
    CExpr c = binary(COp::Eq, ident(name), literal("NULL"));
    Nat count = TypeMapper::count(h->type);
    if (!count->isConst()) // malloc(0) may return NULL
      c = binary(COp::And, c, binary(COp::Ne, nats_.bare(count), intLit(0)));
    failed = failed ? binary(COp::Or, failed, c) : c;
  }
  if (failed) {
    std::vector<CStmt> cleanup;
    for (const std::string& n : heapNames_)
      cleanup.push_back(exprStmt(call("free", {ident(n)})));
    cleanup.push_back(returnStmt(intLit(kOutOfMemory)));
    checks_.push_back(ifStmt(failed, cleanup));
  }
}

} // namespace risec::codegen::c
