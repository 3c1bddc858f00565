#include "codegen/opencl/Kernel.h"

#include "support/Diagnostic.h"

#include <regex>
#include <utility>

namespace risec::codegen::opencl {

GridLoop gridLoop(const std::string& origin) {
  static const std::pair<const char*, GridLoop> kinds[] = {
      {"mapGlobal(", {"get_global_id", "get_global_size", 0}},
      {"mapWorkGroup(", {"get_group_id", "get_num_groups", 0}},
      {"mapLocal(", {"get_local_id", "get_local_size", 0}},
  };
  for (const auto& [prefix, loop] : kinds) {
    std::string p = prefix;
    if (origin.rfind(p, 0) != 0)
      continue;
    std::string d = origin.substr(p.size(), origin.size() - p.size() - 1);
    if (d != "0" && d != "1" && d != "2")
      throw CompileError("E0632", {},
                         "`" + origin +
                             "`: the dimension of an OpenCL map must be 0, 1 or 2 (a constant)");
    GridLoop g = loop;
    g.dim = d[0] - '0';
    return g;
  }
  throw InternalError("OpenCL back end: a parallel loop from `" + origin + "`");
}

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
