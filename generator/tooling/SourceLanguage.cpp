#include "tooling/SourceLanguage.h"

namespace risec::tooling {

std::string_view languageName(SourceLanguage l) {
  switch (l) {
  case SourceLanguage::C11:
    return "C11";
  case SourceLanguage::C11OpenMP:
    return "C11+OpenMP";
  case SourceLanguage::C11OpenCLHost:
    return "C11 (OpenCL host)";
  case SourceLanguage::OpenCL12:
    return "OpenCL C 1.2";
  }
  return "?";
}

} // namespace risec::tooling
