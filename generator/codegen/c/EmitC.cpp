// The emit stages of the pipeline (EmitC.h) and the emitter's construction;
// the emitter itself is codegen/c/Emitter.h, one file per concern.
#include "codegen/c/EmitC.h"

#include "codegen/c/Emitter.h"
#include "support/Diagnostic.h"

namespace risec::codegen::c {

Emitter::Emitter(const COptions& opts, std::vector<opencl::PrivateLayout> layouts)
    : opts_(opts), vectors_(opts.target == Target::OpenCL),
      vectorLowering_(vectors_, vectorHooks()), layouts_(std::move(layouts)) {
  nats_.name = [this](const rise::NatVarInfo& v) {
    auto it = natNames_.find(v.id);
    return it != natNames_.end() ? it->second : v.name;
  };
  nats_.helpers = &helpers_;
  names_.reserve("output");
  // a vector component of a pair in memory is a field of the native type
  types_.vector = [this](const rise::Type& v) {
    if (!rise::foreignTypeSupported(v) || !vectors_.native(v))
      throw CompileError("E0699", {},
                         "a pair with a component of type `" + rise::typeToString(v) +
                             "` has no memory layout in the back end; only vectors of 2, 4, 8 "
                             "or 16 numeric lanes can be fields of a pair in an array (unzip "
                             "the array into one array per component)");
    return vectors_.type(v);
  };
}

Emission::Emission(const dpia::Program& program, std::vector<dpia::HoistedAllocation> temporaries,
                   const COptions& opts)
    : program_(program), temporaries_(std::move(temporaries)), opts_(opts),
      emitter_(std::make_unique<Emitter>(opts_)) {
  emitter_->prologue(program_, temporaries_);
}

Emission::Emission(Emission&&) noexcept = default;
Emission& Emission::operator=(Emission&&) noexcept = default;
Emission::~Emission() = default;

void Emission::restartWithDistributedArrays() {
  std::vector<opencl::PrivateLayout> layouts = emitter_->distributed();
  emitter_ = std::make_unique<Emitter>(opts_, std::move(layouts));
  emitter_->prologue(program_, temporaries_);
}

Emission emitPrologue(const dpia::Program& program,
                      const std::vector<dpia::HoistedAllocation>& temporaries,
                      const COptions& opts) {
  return Emission(program, temporaries, opts);
}

const std::map<std::uint64_t, opencl::SharedTemporary>& sharedTemporaries(Emission& e) {
  return e.emitter().shared();
}

std::set<std::string> stackTemporaries(Emission& e) {
  return e.emitter().stackTemporaries();
}

void dropStackTemporaries(Emission& e, const std::set<std::string>& names) {
  e.emitter().dropStackTemporaries(names);
}

std::vector<CStmt> emitStatements(Emission& e, const dpia::Phrase& command) {
  std::vector<CStmt> statements = e.emitter().statements(command);
  if (e.emitter().distributed().empty())
    return statements;
  // OpenCL: the first emission found private arrays to distribute over the
  // work-items; the names and the prologue come out the same the second time
  e.restartWithDistributedArrays();
  return e.emitter().statements(command);
}

CFiles assembleFiles(Emission& e, std::vector<CStmt> statements) {
  return e.emitter().files(std::move(statements));
}

} // namespace risec::codegen::c
