// OpenCL kernels (codegen/c/Emitter.h; docs/dpia.md, "OpenCL";
// codegen/opencl): grid-stride loops for mapGlobal/mapWorkGroup/mapLocal,
// the local and global temporaries placed, private arrays distributed over
// the work-items, and the kernel file (SYMBOL.cl), its header and host
// wrappers (stage 12).
#include "codegen/c/Emitter.h"

#include "codegen/c/CPrinter.h"
#include "codegen/host/HostWrappers.h"
#include "codegen/opencl/Kernel.h"
#include "codegen/opencl/Temporaries.h"
#include "codegen/opencl/VectorTypes.h"
#include "dpia/Imperative.h"
#include "tooling/Formatter.h"

#include <algorithm>
#include <functional>
#include <regex>

namespace risec::codegen::c {

using dpia::Phrase;
using rise::Nat;

void Emitter::gridStrideLoop(const Phrase& c, std::vector<CStmt>& out) {
  opencl::GridLoop g = opencl::gridLoop(c);
  recordGridLoop(c, g);
  usedDims_.insert(g.dim);
  phaseGridLoops_.back().dims.insert(g.dim);
  std::string i = loopName();
  natNames_[dpia::forIndex(c)->var().id] = i;
  loops_.push_back(i);
  std::vector<CStmt> body;
  gridStack_.push_back({dpia::forIndex(c)->var().id, i, c->tag(), g});
  comm(c->args()[0], body);
  gridStack_.pop_back();
  loops_.pop_back();
  out.push_back(
      countingLoop(namedType("int"), i, call(opencl::gridIdFunction(g.kind), {intLit(g.dim)}),
                   nats_.bare(dpia::forCount(c)),
                   call(opencl::gridSizeFunction(g.kind), {intLit(g.dim)}), body, c->tag()));
}

void Emitter::recordGridLoop(const Phrase& c, const opencl::GridLoop& g) {
  Nat count = dpia::forCount(c);
  bool sizesOnly = true;
  rise::natForEachVar(count,
                      [&](const rise::NatVarInfo& v) { sizesOnly &= sizeIds_.count(v.id) > 0; });
  if (!sizesOnly)
    return;
  gridLoops_.add({g.kind, g.dim, count, static_cast<int>(gridStack_.size())});
  phaseGridLoops_.back().loops.add({g.kind, g.dim, count, static_cast<int>(gridStack_.size())});
}

void Emitter::placeTemporaries(const std::vector<dpia::HoistedAllocation>& heap) {
  for (const dpia::HoistedAllocation& h : heap) {
    checkTemporaryLayout(h.type, h.command->loc());
    opencl::Placement where = opencl::placeTemporary(h);
    // a pair of arrays is one buffer per component (`tmp_fst`, `tmp_snd`),
    // each with the same slicing
    Memory m = makeMemory(h.name, h.type, [&](const std::string& n) { return fresh(n); });
    std::function<void(Memory&)> place = [&](Memory& leaf) {
      for (Memory& part : leaf.parts)
        place(part);
      if (!leaf.parts.empty())
        return;
      leaf.variable = false; // a scalar is a one-element array
      Nat count = TypeMapper::count(leaf.type);
      leaf.offset = where.slice->isConst(0) ? nullptr : where.slice * count;
      std::string elem = printType(types_.element(leaf.type));
      Nat total = where.slices * count;
      if (where.local) {
        localDecls_.push_back(
            declStmt(arrayType(namedType("local " + elem), total->value()), leaf.name));
      } else {
        params_.push_back({pointerType(namedType("global " + elem), true), leaf.name});
        AbiParam a;
        a.role = AbiParam::Role::Temporary;
        a.name = leaf.name;
        a.riseName = h.name;
        a.riseType = leaf.type;
        a.cType = elem;
        a.array = true;
        a.count = total;
        abi_.params.push_back(a);
      }
    };
    place(m);
    memory_[h.var->id()] = m;
    std::vector<const Memory*> ls;
    leaves(m, ls);
    std::string name = ls.front()->name;
    for (std::size_t i = 1; i < ls.size(); ++i)
      name += ", " + ls[i]->name;
    opencl::SharedTemporary& t = shared_[h.var->id()];
    t.local = where.local;
    t.description = name + " (" + where.primitive + ")";
    t.comment = name + " (" + where.primitive + " at " + h.command->loc().shortStr() + ")";
    t.loc = h.command->loc();
    for (const Phrase& l : h.parallelLoops)
      t.ownLoops.insert(dpia::forIndex(l)->var().id);
  }
}

void Emitter::distributePrivateArrays() {
  privateMemory_.check();
  // private arrays each work-item needs only its own elements of: with the
  // local sizes known at compile time, emit again with them distributed
  // (all of them: the kernel then requires them, reqd_work_group_size)
  std::map<opencl::GridLoop, std::int64_t> strides;
  if (opts_.launch && !opts_.launch->local.empty() &&
      std::all_of(opts_.launch->local.begin(), opts_.launch->local.end(),
                  [](const Nat& l) { return l->isConst(); }))
    for (std::size_t d = 0; d < opts_.launch->local.size(); ++d)
      strides[{opencl::GridKind::Local, static_cast<int>(d)}] = opts_.launch->local[d]->value();
  std::map<std::uint64_t, opencl::PrivateLayout> found = privateMemory_.layouts(strides);
  if (!found.empty() && layouts_.empty()) {
    for (std::uint64_t id : privateOrder_) {
      auto it = found.find(id);
      distributed_.push_back(it == found.end() ? opencl::PrivateLayout{} : it->second);
    }
    return;
  }
  reqdWorkGroupSize_ = !found.empty();
}

CFiles Emitter::openclFiles(std::vector<CStmt> statements) {
  const dpia::Program& p = program_;
  // one kernel per phase (opencl/Kernel.h), each with every parameter and
  // the local memory it uses
  std::vector<opencl::Phase> phases = opencl::splitPhases(statements);
  std::vector<Function> kernels;
  abi_.kernels.clear();
  for (std::size_t k = 0; k < phases.size(); ++k) {
    std::vector<CStmt> body = std::move(phases[k].statements);
    std::string text;
    for (const CStmt& s : body)
      text += printStmt(s);
    std::vector<CStmt> locals;
    for (const CStmt& d : localDecls_)
      if (phases.size() == 1 || std::regex_search(text, std::regex("\\b" + d->name() + "\\b")))
        locals.push_back(d);
    body.insert(body.begin(), locals.begin(), locals.end());
    voidUnusedParameters(params_, body);
    bool parallel = !phaseGridLoops_.at(k).dims.empty();
    Function kernel;
    kernel.qualifiers = {"__kernel"};
    if (reqdWorkGroupSize_ && parallel) { // the layouts hold for these local sizes only
      std::string sizes;
      for (std::size_t d = 0; d < 3; ++d) {
        std::int64_t l = d < opts_.launch->local.size() ? opts_.launch->local[d]->value() : 1;
        sizes += (d ? ", " : "") + std::to_string(l);
      }
      kernel.qualifiers.push_back("__attribute__((reqd_work_group_size(" + sizes + ")))");
    }
    kernel.returnType = namedType("void");
    kernel.name = opencl::phaseKernelName(opts_.symbol, k);
    kernel.params = params_;
    kernel.body = body;
    abi_.kernels.push_back({kernel.name, parallel});
    kernels.push_back(kernel);
  }

  std::vector<Param> sizes;
  for (const Param& prm : params_)
    if (prm.type->kind() != TypeNode::Kind::Pointer && printType(prm.type) == "int" &&
        sizes.size() < p.sizes.size())
      sizes.push_back(prm);
  std::vector<CStmt> checks = checks_;
  checks.push_back(returnStmt(intLit(kOk)));
  voidUnusedParameters(sizes, checks);
  Function check;
  check.qualifiers = {"static", "inline", "__attribute__((unused))"};
  check.returnType = namedType("int");
  check.name = opts_.symbol + "_check";
  check.params = sizes;
  check.body = checks;
  if (check.params.empty())
    check.params.push_back({namedType("void"), ""});

  std::vector<std::string> foreignCodes;
  for (const auto& f : p.foreigns)
    foreignCodes.push_back(foreignCode(*f));

  TranslationUnit cl;
  cl.raw(host::docComment(abi_, opts_));
  cl.blank();
  for (const StructDef& s : types_.structs())
    cl.add(s);
  // the helpers the kernels call (one whose call was a dead store is not)
  std::vector<CStmt> all;
  for (const Function& kernel : kernels)
    all.insert(all.end(), kernel.body.begin(), kernel.body.end());
  const std::set<std::string> helpers = calledHelpers(all);
  for (const std::string& hname : helpers)
    cl.raw(helperCode(hname));
  for (const std::string& f : foreignCodes)
    cl.raw(f);
  if (!helpers.empty() || !p.foreigns.empty() || !types_.structs().empty())
    cl.blank();
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    if (k > 0)
      cl.blank();
    if (kernels.size() > 1)
      cl.raw(
          printStmt(comment(opencl::phaseComment(opts_.symbol, k, kernels.size(), phases[k].why))));
    cl.add(kernels[k]);
  }
  std::string source = printUnit(cl);
  std::string typedefs = opencl::stdintTypedefs(source);
  if (!typedefs.empty()) {
    std::size_t end = source.find("*/\n");
    source.insert(end == std::string::npos ? 0 : end + 3, "\n" + typedefs + "\n");
  }

  // the declarations of the header: pair structs, the check function
  TranslationUnit h;
  guardedStructs(h);
  h.add(check);
  std::string declarations = printUnit(h);
  declarations.pop_back();

  // the host wrappers embed SYMBOL.cl as it is shipped: formatted
  source = tooling::formatSource(source, tooling::SourceLanguage::OpenCL12, opts_.symbol + ".cl");
  if (opts_.launch)
    host::checkUnusedDimensions(*opts_.launch, usedDims_);
  // each kernel's own launch: the given one (a parallel phase), else the
  // default rule for its grid loops (one work-item without any)
  std::vector<host::LaunchPlan> plans;
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    host::LaunchPlan plan;
    plan.loops = kernels.size() == 1 ? gridLoops_ : phaseGridLoops_.at(k).loops;
    plan.given = opts_.launch.has_value() && (kernels.size() == 1 || abi_.kernels[k].parallel);
    plan.launch = plan.given ? *opts_.launch : host::defaultLaunch(plan.loops);
    plans.push_back(plan);
  }
  return {source, host::openclHeader(abi_, opts_, plans, declarations), abi_,
          host::openclHostSource(abi_, opts_, plans, source)};
}

} // namespace risec::codegen::c
