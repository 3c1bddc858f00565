#include "tooling/Formatter.h"

#include "tooling/EmbeddedStyle.h"

#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>

namespace risec::tooling {

const char* embeddedStyle() {
  return kEmbeddedClangFormatStyle;
}

std::string formatSource(const std::string& code, SourceLanguage language,
                         const std::string& fileName) {
  (void)language; // C, OpenMP and OpenCL are all formatted as C-family code.
  clang::format::FormatStyle style = clang::format::getLLVMStyle();
  style.Language = clang::format::FormatStyle::LK_Cpp;
  if (clang::format::parseConfiguration(kEmbeddedClangFormatStyle, &style))
    return code;
  std::vector<clang::tooling::Range> ranges{
      clang::tooling::Range(0, static_cast<unsigned>(code.size()))};
  clang::tooling::Replacements replacements =
      clang::format::reformat(style, code, ranges, fileName);
  llvm::Expected<std::string> formatted = clang::tooling::applyAllReplacements(code, replacements);
  if (!formatted) {
    llvm::consumeError(formatted.takeError());
    return code;
  }
  return *formatted;
}

} // namespace risec::tooling
