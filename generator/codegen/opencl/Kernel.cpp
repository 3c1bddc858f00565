#include "codegen/opencl/Kernel.h"

#include "support/Diagnostic.h"

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

namespace {

// A pragma no OpenCL compiler sees: splitPhases removes every one.
const std::string kMarker = "risec_phase_boundary ";

bool isMarker(const c::CStmt& s) {
  return s->kind() == c::StmtNode::Kind::Pragma && s->text().rfind(kMarker, 0) == 0;
}

void rejectNested(const c::CStmt& s) {
  c::forEachChild(
      s, [](const c::CExpr&) {},
      [](const c::CStmt& x) {
        if (isMarker(x))
          throw InternalError("OpenCL phases: a phase boundary inside a statement");
        rejectNested(x);
      });
}

} // namespace

c::CStmt phaseMarker(const std::string& why) {
  return c::pragma(kMarker + why);
}

std::vector<Phase> splitPhases(const std::vector<c::CStmt>& body) {
  std::vector<Phase> phases(1);
  for (const c::CStmt& s : body) {
    if (isMarker(s)) {
      phases.push_back({{}, s->text().substr(kMarker.size())});
      continue;
    }
    rejectNested(s);
    phases.back().statements.push_back(s);
  }
  return phases;
}

std::string phaseKernelName(const std::string& symbol, std::size_t index) {
  return index == 0 ? symbol : symbol + "_phase" + std::to_string(index + 1);
}

std::string phaseComment(const std::string& symbol, std::size_t index, std::size_t count,
                         const std::string& why) {
  std::string n = std::to_string(index + 1), of = std::to_string(count);
  if (index == 0)
    return "Phase 1 of " + of + " of " + symbol +
           " (docs/dpia.md, \"Kernel phases\"): the host wrappers launch the " + of +
           " kernels in order on one in-order queue.";
  return "Phase " + n + " of " + of + ": starts when every work-group of phase " +
         std::to_string(index) + " is done with " + why + ".";
}

} // namespace risec::codegen::opencl
