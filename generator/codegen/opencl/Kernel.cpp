#include "codegen/opencl/Kernel.h"

#include <regex>
#include <utility>

namespace risec::codegen::opencl {

std::string stdintTypedefs(const std::string& code) {
  static const std::pair<const char*, const char*> types[] = {
      {"int8_t", "char"},   {"int16_t", "short"},   {"int32_t", "int"},   {"int64_t", "long"},
      {"uint8_t", "uchar"}, {"uint16_t", "ushort"}, {"uint32_t", "uint"}, {"uint64_t", "ulong"},
  };
  std::string out;
  for (const auto& [name, cl] : types)
    if (std::regex_search(code, std::regex(std::string("\\b") + name + "\\b")))
      out += std::string("typedef ") + cl + " " + name + ";\n";
  if (!out.empty())
    out.pop_back();
  return out;
}

} // namespace risec::codegen::opencl
