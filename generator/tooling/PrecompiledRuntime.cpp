#include "tooling/PrecompiledRuntime.h"

#include <mutex>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace risec::tooling {

namespace {

const char* const kRuntimeHeader = "risec_cl.h";

/// The name in the first `#include "NAME"` of `code` if nothing but comments
/// and an include guard comes before it, else "".
std::string firstQuotedInclude(const std::string& code) {
  std::size_t i = 0;
  bool guardOpen = false;
  for (;;) {
    i = code.find_first_not_of(" \t\r\n", i);
    if (i == std::string::npos)
      return "";
    if (code.compare(i, 2, "//") == 0) {
      i = code.find('\n', i);
      continue;
    }
    if (code.compare(i, 2, "/*") == 0) {
      i = code.find("*/", i);
      if (i == std::string::npos)
        return "";
      i += 2;
      continue;
    }
    std::size_t end = code.find('\n', i);
    std::string line = code.substr(i, end == std::string::npos ? std::string::npos : end - i);
    if (line.rfind("#ifndef ", 0) == 0 && !guardOpen) {
      guardOpen = true;
    } else if (line.rfind("#define ", 0) == 0 && guardOpen &&
               line.find(' ', 8) == std::string::npos) {
      guardOpen = false;
    } else if (line.rfind("#include \"", 0) == 0 && !guardOpen) {
      std::size_t close = line.find('"', 10);
      return close == std::string::npos ? "" : line.substr(10, close - 10);
    } else {
      return "";
    }
    i = end;
  }
}

/// Whether `text` is only comments and white space.
bool onlyComments(std::string text) {
  for (std::size_t at = text.find("/*"); at != std::string::npos; at = text.find("/*")) {
    std::size_t close = text.find("*/", at);
    if (close == std::string::npos)
      return false;
    text.erase(at, close + 2 - at);
  }
  return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

/// Whether all of `code` is inside one `#ifndef` ... `#endif`, so that
/// including it again after its precompiled form is a no-op. (A wrong answer
/// cannot hide an error: a file included twice fails loudly.)
bool isIncludeGuarded(const std::string& code) {
  std::size_t guard = code.find("#ifndef "), end = code.rfind("#endif");
  if (guard == std::string::npos || end == std::string::npos || end < guard ||
      !onlyComments(code.substr(0, guard)))
    return false;
  std::size_t afterEnd = code.find('\n', end);
  if (afterEnd != std::string::npos && !onlyComments(code.substr(afterEnd)))
    return false;
  int depth = 0;
  for (std::size_t at = guard; at != std::string::npos && at <= end; at = code.find('#', at + 1))
    if (code.compare(at, 3, "#if") == 0)
      ++depth;
    else if (code.compare(at, 6, "#endif") == 0 && --depth == 0 && at != end)
      return false;
  return depth == 0;
}

/// Whether parsing `code` starts by including the runtime header (directly or
/// through the first include of a sibling), so that a precompiled runtime
/// header changes nothing but the time.
bool includesTheRuntimeFirst(const std::string& code,
                             const std::map<std::string, std::string>& siblings, int depth = 0) {
  std::string first = firstQuotedInclude(code);
  if (first == kRuntimeHeader)
    return true;
  auto sibling = siblings.find(first);
  return depth < 4 && sibling != siblings.end() &&
         includesTheRuntimeFirst(sibling->second, siblings, depth + 1);
}

/// The OpenCL host runtime's header (risec_cl.h with CL/cl.h: most of what an
/// OpenCL kernel's header and host wrappers parse), precompiled once per
/// process and text into a temporary directory, removed at exit.
class PrecompiledRuntime {
public:
  ~PrecompiledRuntime() {
    if (!dir_.empty())
      llvm::sys::fs::remove_directories(dir_);
  }

  /// The PCH of `text` as /risec-verify/risec_cl.h, parsed with `flags` (the
  /// language flags, `-x c`); "" if it cannot be built.
  std::string of(const std::string& text, std::vector<std::string> flags) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto key = std::make_pair(text, flags);
    auto it = built_.find(key);
    if (it != built_.end())
      return it->second;
    std::string pch = build(text, flags);
    built_.emplace(key, pch);
    return pch;
  }

private:
  std::string build(const std::string& text, std::vector<std::string> flags) {
    llvm::SmallString<128> dir;
    if (dir_.empty() && !llvm::sys::fs::createUniqueDirectory("risec-verify-pch", dir))
      dir_ = std::string(dir);
    if (dir_.empty())
      return "";
    std::string pch = dir_ + "/" + std::to_string(built_.size()) + ".pch";
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay(
        new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
    llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memory(
        new llvm::vfs::InMemoryFileSystem);
    overlay->pushOverlay(memory);
    std::string path = std::string("/risec-verify/") + kRuntimeHeader;
    memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text, path));
    llvm::IntrusiveRefCntPtr<clang::FileManager> files(
        new clang::FileManager(clang::FileSystemOptions(), overlay));
    for (std::size_t k = 0; k + 1 < flags.size(); ++k)
      if (flags[k] == "-x")
        flags[k + 1] += "-header";
    std::vector<std::string> argv = {"clang",   "-Wall",         "-Wextra",
                                     "-Werror", "-resource-dir", RISEC_CLANG_RESOURCE_DIR};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {path, "-o", pch});
    clang::DiagnosticConsumer consumer; // counts errors and warnings
    clang::tooling::ToolInvocation invocation(argv, std::make_unique<clang::GeneratePCHAction>(),
                                              files.get());
    invocation.setDiagnosticConsumer(&consumer);
    bool ok = invocation.run() && consumer.getNumErrors() == 0 && consumer.getNumWarnings() == 0;
    return ok && llvm::sys::fs::exists(pch) ? pch : "";
  }

  std::mutex mutex_;
  std::map<std::pair<std::string, std::vector<std::string>>, std::string> built_;
  std::string dir_;
};

PrecompiledRuntime& precompiledRuntime() {
  static PrecompiledRuntime runtime;
  return runtime;
}

} // namespace

std::vector<std::string>
precompiledRuntimeArguments(const std::string& code,
                            const std::map<std::string, std::string>& siblings,
                            const std::vector<std::string>& languageFlags) {
  auto runtime = siblings.find(kRuntimeHeader);
  if (runtime == siblings.end() || !isIncludeGuarded(runtime->second) ||
      !includesTheRuntimeFirst(code, siblings))
    return {};
  std::string pch = precompiledRuntime().of(runtime->second, languageFlags);
  if (pch.empty())
    return {};
  return {"-include-pch", pch};
}

} // namespace risec::tooling
