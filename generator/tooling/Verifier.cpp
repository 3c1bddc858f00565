#include "tooling/Verifier.h"

#include "tooling/PrecompiledRuntime.h"

#include <mutex>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/Utils.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Signals.h>
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

const std::string kPlaceholder = "/risec-verify/risec-verify-input";

/// What the Clang driver makes of a command line: the arguments of its one
/// cc1 job, for the input `kPlaceholder`. The driver (toolchain and GCC
/// installation detection) is a third of a small file's verification, and
/// every file of a language has the same command line but for its name, so
/// it runs once per distinct command line.
class Cc1Arguments {
public:
  /// Empty if the driver rejects the command line.
  std::vector<std::string> of(const std::vector<std::string>& argv) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = known_.find(argv);
    if (it != known_.end())
      return it->second;
    std::vector<const char*> args;
    for (const std::string& a : argv)
      args.push_back(a == kPlaceholderArg ? kPlaceholder.c_str() : a.c_str());
    clang::IgnoringDiagConsumer ignore;
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> diags =
        clang::CompilerInstance::createDiagnostics(new clang::DiagnosticOptions, &ignore, false);
    std::vector<std::string> cc1;
    if (!clang::createInvocationFromCommandLine(args, diags, nullptr, false, &cc1))
      cc1.clear();
    return known_.emplace(argv, cc1).first->second;
  }

  static constexpr const char* kPlaceholderArg = "<input>";

private:
  std::mutex mutex_;
  std::map<std::vector<std::string>, std::vector<std::string>> known_;
};

Cc1Arguments& cc1Arguments() {
  static Cc1Arguments cache;
  return cache;
}

/// Runs Clang's syntax-only frontend on `path` as `argv` (whose last element
/// is `path`) says, reporting to `consumer`; as clang::tooling::ToolInvocation
/// does, but with the driver's work remembered (Cc1Arguments).
bool runFrontend(std::vector<std::string> argv, const std::string& path,
                 llvm::IntrusiveRefCntPtr<clang::FileManager> files,
                 clang::DiagnosticConsumer& consumer) {
  argv.back() = Cc1Arguments::kPlaceholderArg;
  std::vector<std::string> cc1 = cc1Arguments().of(argv);
  if (cc1.empty()) { // let the tooling report what the driver does not like
    argv.back() = path;
    clang::tooling::ToolInvocation invocation(argv, std::make_unique<clang::SyntaxOnlyAction>(),
                                              files.get());
    invocation.setDiagnosticConsumer(&consumer);
    return invocation.run();
  }
  const std::string placeholderName = llvm::sys::path::filename(kPlaceholder).str();
  const std::string name = llvm::sys::path::filename(path).str();
  std::vector<const char*> args;
  for (const std::string& a : cc1)
    args.push_back(a == kPlaceholder      ? path.c_str()
                   : a == placeholderName ? name.c_str()
                                          : a.c_str());

  // The warning flags are in the invocation: parse it before the compiler
  // instance makes its diagnostics engine from it.
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> argumentDiagnostics =
      clang::CompilerInstance::createDiagnostics(new clang::DiagnosticOptions, &consumer, false);
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, args, *argumentDiagnostics))
    return false;
  invocation->getFrontendOpts().DisableFree = false;
  invocation->getCodeGenOpts().DisableFree = false;
  clang::CompilerInstance compiler;
  compiler.setInvocation(std::move(invocation));
  compiler.setFileManager(files.get());
  compiler.createDiagnostics(&consumer, /*ShouldOwnClient=*/false);
  compiler.createSourceManager(*files);
  clang::SyntaxOnlyAction action;
  return compiler.ExecuteAction(action);
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
  for (std::string& a : precompiledRuntimeArguments(code, siblings, languageFlags(language)))
    argv.push_back(std::move(a));
  argv.push_back(path);

  // `risec generate --jobs N` verifies on several threads at once: each
  // invocation has its own compiler instance, file manager and diagnostics,
  // as in Clang's own AllTUsToolExecutor, which runs tools on a thread pool.
  CollectingConsumer consumer;
  bool ran = runFrontend(argv, path, files, consumer);
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

void registerSignalHandlers() {
  static std::once_flag once;
  std::call_once(once, [] { llvm::sys::AddSignalHandler([](void*) {}, nullptr); });
}

} // namespace risec::tooling
