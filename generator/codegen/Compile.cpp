#include "codegen/Compile.h"

#include "codegen/c/EmitTypes.h"
#include "codegen/host/HostWrappers.h"
#include "codegen/opencl/Legality.h"
#include "codegen/opencl/MappingLegality.h"
#include "codegen/opencl/VectorTypes.h"
#include "codegen/openmp/Legality.h"
#include "dpia/FromRise.h"
#include "dpia/Translate.h"
#include "rules/LowerToC.h"
#include "support/Diagnostic.h"
#include "support/PassTimer.h"
#include "tooling/Formatter.h"
#include "tooling/Verifier.h"

#include <cstdlib>
#include <fstream>

namespace risec::codegen {

namespace {

/// Keeps files that failed verification in a fresh temporary directory, so
/// that the internal error can say where to look.
std::string keepForInspection(const c::CFiles& files, const std::string& symbol,
                              const std::string& sourceExt) {
  char pattern[] = "/tmp/risec-failed-XXXXXX";
  const char* dir = mkdtemp(pattern);
  if (!dir)
    return "(could not keep the files)";
  std::ofstream(std::string(dir) + "/" + symbol + sourceExt) << files.source;
  std::ofstream(std::string(dir) + "/" + symbol + ".h") << files.header;
  if (!files.hostSource.empty())
    std::ofstream(std::string(dir) + "/" + symbol + "_host.c") << files.hostSource;
  return dir;
}

/// Pipeline stage 7: format with libFormat (timed as "format"), then parse
/// every file with Clang (timed as "verify") in C11 (or C11 + OpenMP, or
/// OpenCL C 1.2) mode and -Werror. An OpenCL
/// kernel's header and host wrappers (SYMBOL_host.c) are C11 against the
/// OpenCL headers and the risec runtime's header (host/risec_cl.h, embedded).
/// A file that fails is a bug in risec.
c::CFiles formatAndVerify(c::CFiles files, const std::string& symbol,
                          tooling::SourceLanguage language) {
  using tooling::SourceLanguage;
  bool opencl = language == SourceLanguage::OpenCL12;
  std::string header = symbol + ".h", source = symbol + (opencl ? ".cl" : ".c");
  std::string hostSource = symbol + "_host.c";
  timed("format", [&] {
    files.header = tooling::formatSource(files.header, SourceLanguage::C11, header);
    if (!opencl) // emitC formats the .cl itself: the host wrappers embed it as shipped
      files.source = tooling::formatSource(files.source, language, source);
    if (opencl)
      files.hostSource = tooling::formatSource(files.hostSource, SourceLanguage::C11, hostSource);
  });
  std::map<std::string, std::string> runtime;
  if (opencl)
    runtime["risec_cl.h"] = host::runtimeHeader();
  SourceLanguage hostC = opencl ? SourceLanguage::C11OpenCLHost : SourceLanguage::C11;
  tooling::VerifyResult h, s, w{true, ""};
  timed("verify", [&] {
    h = tooling::verifySource(files.header, hostC, header, {}, runtime);
    s = opencl
            ? tooling::verifySource(files.source, language, source)
            : tooling::verifySource(files.source, language, source, {}, {{header, files.header}});
    if (opencl) {
      runtime[header] = files.header;
      w = tooling::verifySource(files.hostSource, hostC, hostSource, {}, runtime);
    }
  });
  if (!h.ok || !s.ok || !w.ok)
    throw InternalError("the C emitted for `" + symbol + "` does not compile (kept in " +
                        keepForInspection(files, symbol, opencl ? ".cl" : ".c") + "):\n" +
                        h.diagnostics + s.diagnostics + w.diagnostics);
  return files;
}

/// After lowering: the legality of the parallel mapping (docs/dpia.md,
/// "Legality of parallel mappings"); C has nothing to check.
void checkParallelMapping(const rise::TypedDef& lowered, const std::string& target) {
  if (target == "openmp")
    openmp::checkLegality(lowered);
  if (target == "opencl")
    opencl::checkMappingLegality(lowered);
}

/// Every parameter and the result of the entry must have a memory layout
/// (c::layoutProblem): otherwise E0699 at the parameter or at the body.
void checkLayouts(const rise::TypedDef& def) {
  rise::Expr e = def.expr;
  while (e->kind() == rise::ExprKind::DepLambda)
    e = e->body();
  for (; e->kind() == rise::ExprKind::Lambda; e = e->body()) {
    const rise::Type& t = e->type()->param();
    if (!t->isData())
      return; // rejected by the translation (E0605)
    std::string why = c::layoutProblem(t);
    if (!why.empty())
      throw CompileError("E0699", e->loc(),
                         "the parameter `" + e->name() + "` has the type `" +
                             rise::typeToString(t) + "`: " + why +
                             "; pass one array per component of the pairs instead and `zip` "
                             "them in the program");
  }
  if (!e->type()->isData())
    return;
  std::string why = c::layoutProblem(e->type());
  if (!why.empty())
    throw CompileError("E0699", e->loc(),
                       "the result has the type `" + rise::typeToString(e->type()) + "`: " + why +
                           "; return one array per component of the pairs instead (`unzip` the "
                           "result)");
}

} // namespace

std::vector<OutputFile> outputFiles(const CompileResult& r) {
  const KernelAbi& abi = r.files.abi;
  std::vector<OutputFile> files = {
      {abi.symbol + (abi.target == "opencl" ? ".cl" : ".c"), r.files.source},
      {abi.symbol + ".h", r.files.header}};
  if (abi.target == "opencl")
    files.push_back({abi.symbol + "_host.c", r.files.hostSource});
  return files;
}

CompileResult compileToC(const rise::Program& program, const rise::TypedDef& def,
                         const c::COptions& opts) {
  bool openmp = opts.target == "openmp", opencl = opts.target == "opencl";
  if (opts.target != "c" && !openmp && !opencl)
    throw InternalError("compileToC: unknown target `" + opts.target + "`");
  if (opencl)
    opencl::checkSupported(def); // no global or local temporaries yet
  if (opencl)
    opencl::checkVectorTypes(def); // floatN exists for N = 2, 3, 4, 8, 16
  checkLayouts(def);
  rules::LowerTarget lowering = openmp   ? rules::LowerTarget::OpenMP
                                : opencl ? rules::LowerTarget::OpenCL
                                         : rules::LowerTarget::C;
  CompileResult r;
  // 1. every choice made, legal parallel mapping; 2. read/write checked DPIA
  r.lowered = timed("lowerToC", [&] { return rules::lowerToC(program, def, lowering); });
  checkParallelMapping(r.lowered, opts.target);
  r.functional = timed("DPIA", [&] { return dpia::fromRise(r.lowered); });
  r.imperative = r.functional;
  timed("imperative", [&] { dpia::translateToImperative(r.imperative); }); // 3. accT / conT
  r.files = timed("emit", [&] { return c::emitC(r.imperative, opts); });   // 4-6. passes, views, C
  r.files = formatAndVerify(std::move(r.files), opts.symbol,               // 7. format and verify
                            openmp   ? tooling::SourceLanguage::C11OpenMP
                            : opencl ? tooling::SourceLanguage::OpenCL12
                                     : tooling::SourceLanguage::C11);
  return r;
}

} // namespace risec::codegen
