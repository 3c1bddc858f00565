#include "codegen/FormatAndVerify.h"

#include "codegen/host/HostWrappers.h"
#include "support/Diagnostic.h"
#include "support/PassTimer.h"
#include "tooling/Formatter.h"
#include "tooling/Verifier.h"

#include <cstdlib>
#include <fstream>
#include <map>

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

} // namespace

c::CFiles formatAndVerify(c::CFiles files, const std::string& symbol, Target target) {
  using tooling::SourceLanguage;
  SourceLanguage language = target == Target::OpenMP   ? SourceLanguage::C11OpenMP
                            : target == Target::OpenCL ? SourceLanguage::OpenCL12
                                                       : SourceLanguage::C11;
  bool opencl = language == SourceLanguage::OpenCL12;
  std::string header = symbol + ".h", source = symbol + (opencl ? ".cl" : ".c");
  std::string hostSource = symbol + "_host.c";
  timed("format", [&] {
    files.header = tooling::formatSource(files.header, SourceLanguage::C11, header);
    if (!opencl) // assembleFiles formatted the .cl: the host wrappers embed it as shipped
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

} // namespace risec::codegen
