#include "tooling/Verifier.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace risec::tooling {

namespace {

/// Collects warnings and errors as text instead of printing them.
class CollectingConsumer : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Warning)
      return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    std::string where = "<unknown>";
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      clang::PresumedLoc p = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (p.isValid())
        where = std::string(p.getFilename()) + ":" + std::to_string(p.getLine()) + ":" +
                std::to_string(p.getColumn());
    }
    const char* severity = level >= clang::DiagnosticsEngine::Error ? "error" : "warning";
    text += where + ": " + severity + ": " + std::string(message.str()) + "\n";
  }

  std::string text;
};

std::vector<std::string> languageFlags(SourceLanguage language) {
  switch (language) {
  case SourceLanguage::C11:
    return {"-x", "c", "-std=c11"};
  case SourceLanguage::C11OpenMP:
    return {"-x", "c", "-std=c11", "-fopenmp"};
  case SourceLanguage::C11OpenCLHost:
    // CL/cl_platform.h includes the x86 intrinsics headers (xmmintrin.h,
    // emmintrin.h, mmintrin.h, immintrin.h: two thirds of the parse) only to
    // add __m128-style members to cl_floatN; the host code never uses them.
    return {"-x", "c", "-std=c11", "-U__SSE__", "-U__SSE2__", "-U__MMX__", "-U__AVX__"};
  case SourceLanguage::OpenCL12:
    return {"-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header"};
  }
  return {};
}

} // namespace

VerifyResult verifySource(const std::string& code, SourceLanguage language,
                          const std::string& fileName, const std::vector<std::string>& includeDirs,
                          const std::map<std::string, std::string>& siblings) {
  // The file under test lives in memory, over the real file system (which
  // provides the system and Clang resource headers).
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(new llvm::vfs::InMemoryFileSystem);
  overlay->pushOverlay(memory);
  std::string path = "/risec-verify/" + fileName;
  memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(code, path));
  for (const auto& [name, text] : siblings)
    memory->addFile("/risec-verify/" + name, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(text, "/risec-verify/" + name));
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), overlay));

  std::vector<std::string> argv = {
      "clang",         "-fsyntax-only",         "-Wall", "-Wextra", "-Werror",
      "-resource-dir", RISEC_CLANG_RESOURCE_DIR};
  for (std::string& f : languageFlags(language))
    argv.push_back(std::move(f));
  for (const std::string& dir : includeDirs)
    argv.push_back("-I" + dir);
  argv.push_back(path);

  // `risec generate --jobs N` verifies on several threads at once: each
  // invocation has its own compiler instance, file manager and diagnostics,
  // as in Clang's own AllTUsToolExecutor, which runs tools on a thread pool.
  CollectingConsumer consumer;
  clang::tooling::ToolInvocation invocation(argv, std::make_unique<clang::SyntaxOnlyAction>(),
                                            files.get());
  invocation.setDiagnosticConsumer(&consumer);
  bool ran = invocation.run();
  VerifyResult r;
  r.ok = ran && consumer.getNumErrors() == 0 && consumer.getNumWarnings() == 0;
  r.diagnostics = consumer.text;
  // Messages name the file as the caller knows it.
  const std::string dir = "/risec-verify/";
  for (std::size_t at = r.diagnostics.find(dir); at != std::string::npos;
       at = r.diagnostics.find(dir, at))
    r.diagnostics.erase(at, dir.size());
  if (!r.ok && r.diagnostics.empty())
    r.diagnostics = fileName + ": error: Clang could not parse the file\n";
  return r;
}

} // namespace risec::tooling
