#include "codegen/host/HostWrappers.h"

#include "codegen/c/CPrinter.h"
#include "codegen/c/EmitNat.h"
#include "codegen/host/EmbeddedTemplates.h"
#include "support/Diagnostic.h"
#include "support/Text.h"

#include <kainjow/mustache.hpp>

#include <algorithm>
#include <map>
#include <regex>
#include <set>

namespace risec::codegen::host {

namespace mustache = kainjow::mustache;
using Role = AbiParam::Role;

namespace {

/// Renders an embedded template. Standalone section tags (alone on their
/// line) are joined with the next line first, so that they leave no blank
/// line behind; values are inserted as they are (C, not HTML).
std::string render(const char* text, const mustache::data& data) {
  static const std::regex standalone(R"(^[ \t]*(\{\{[#^/][^}]*\}\})[ \t]*\n)",
                                     std::regex::multiline);
  mustache::mustache tmpl{std::regex_replace(std::string(text), standalone, "$1")};
  tmpl.set_custom_escape([](const std::string& s) { return s; });
  if (!tmpl.is_valid())
    throw InternalError("host wrapper template: " + tmpl.error_message());
  std::string out = tmpl.render(data);
  if (!tmpl.is_valid())
    throw InternalError("host wrapper template: " + tmpl.error_message());
  return out;
}

mustache::data flag(bool b) {
  return b ? mustache::data::type::bool_true : mustache::data::type::bool_false;
}

/// `const float* x` (host) or `cl_mem x` (buffers) for one parameter.
std::string declaration(const AbiParam& p, bool buffers) {
  if (!p.array)
    return p.cType + " " + p.name;
  if (buffers)
    return "cl_mem " + p.name;
  return std::string(p.role == Role::Input ? "const " : "") + p.cType + "* restrict " + p.name;
}

std::string joined(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i)
    s += (i ? sep : "") + items[i];
  return s;
}

/// The parameters of the C ABI (no temporaries) as `(host)` or `(buffers)`
/// declarations or as arguments.
std::vector<std::string> abiList(const KernelAbi& abi, bool buffers, bool arguments) {
  std::vector<std::string> out;
  for (const AbiParam& p : abi.params) {
    if (p.role == Role::Temporary)
      continue;
    if (arguments)
      out.push_back(p.array && buffers ? "risec_" + p.name + "_array.buffer" : p.name);
    else
      out.push_back(declaration(p, buffers));
  }
  return out;
}

std::vector<std::string> sizeNames(const KernelAbi& abi) {
  std::vector<std::string> out;
  for (const AbiParam* p : abi.withRole(Role::Size))
    out.push_back(p->name);
  return out;
}

/// The names of SYMBOL_launch's array parameters: `global`, `local`, `dims`
/// (`risec_global`, ... in the definition, or if a size has one of the names).
std::string launchPrefix(const KernelAbi& abi, bool definition) {
  for (const std::string& s : sizeNames(abi))
    if (s == "global" || s == "local" || s == "dims" || s == "d")
      return "risec_";
  return definition ? "risec_" : "";
}

std::string launchParams(const KernelAbi& abi, bool definition) {
  std::string p = launchPrefix(abi, definition);
  std::vector<std::string> ps;
  for (const std::string& s : sizeNames(abi))
    ps.push_back("int " + s);
  ps.push_back("size_t " + p + "global[3]");
  ps.push_back("size_t " + p + "local[3]");
  ps.push_back("cl_uint* " + p + "dims");
  return joined(ps);
}

/// Prints Nats over the size parameters (RISE names) with their C names.
class SizePrinter {
public:
  explicit SizePrinter(const KernelAbi& abi) {
    for (const AbiParam* p : abi.withRole(Role::Size))
      cNames_[p->riseName] = p->name;
    nats_.helpers = &helpers_;
    nats_.name = [this](const rise::NatVarInfo& v) {
      auto it = cNames_.find(v.name);
      if (it == cNames_.end())
        throw InternalError("host wrapper: `" + v.name + "` is not a size parameter");
      return it->second;
    };
  }
  std::string operator()(const rise::Nat& n) { return c::printExpr(nats_.bare(n)); }
  std::string helpers() const {
    std::string out;
    for (const std::string& h : helpers_) {
      if (h == "risec_min")
        out += "static inline int risec_min(int a, int b) { return a < b ? a : b; }\n";
      else if (h == "risec_max")
        out += "static inline int risec_max(int a, int b) { return a > b ? a : b; }\n";
      else
        out += "static inline int risec_pow(int b, int e) {\n  int r = 1;\n  while (e-- > 0)\n"
               "    r *= b;\n  return r;\n}\n";
    }
    return out;
  }

private:
  std::map<std::string, std::string> cNames_;
  std::set<std::string> helpers_;
  c::NatPrinter nats_;
};

/// The body of SYMBOL_launch.
std::string launchBody(const KernelAbi& abi, const LaunchPlan& plan, SizePrinter& print) {
  const Launch& l = plan.launch;
  std::size_t dims = l.global.size();
  bool local = !l.local.empty();
  std::string body = "  *risec_dims = " + std::to_string(dims) + ";\n";
  for (std::size_t d = 0; d < 3; ++d) {
    std::string i = std::to_string(d);
    std::string g = d < dims ? "(size_t)(" + print(l.global[d]) + ")" : "1";
    std::string lo = !local ? "0" : d < dims ? "(size_t)(" + print(l.local[d]) + ")" : "1";
    body += "  risec_global[" + i + "] = " + g + ";\n  risec_local[" + i + "] = " + lo + ";\n";
  }
  if (plan.given)
    for (std::size_t d = 0; d < dims; ++d) {
      std::optional<rise::Nat> need =
          neededGlobal(plan.loops, static_cast<int>(d), local ? l.local[d] : rise::Nat());
      if (!need)
        continue;
      std::string i = std::to_string(d);
      body += "  if (risec_global[" + i + "] > (size_t)(" + print(*need) +
              ")) /* the work */\n    risec_global[" + i + "] = (size_t)(" + print(*need) + ");\n";
    }
  if (local)
    body +=
        "  for (cl_uint risec_d = 0; risec_d < *risec_dims; ++risec_d) /* whole work-groups */\n"
        "    if (risec_local[risec_d] > 0)\n"
        "      risec_global[risec_d] = (risec_global[risec_d] + risec_local[risec_d] - 1) / "
        "risec_local[risec_d] * risec_local[risec_d];\n";
  std::string voids;
  for (const std::string& s : sizeNames(abi))
    if (!std::regex_search(body, std::regex("\\b" + s + "\\b")))
      voids += "  (void)" + s + ";\n";
  return voids + body;
}

std::string natList(const std::vector<rise::Nat>& ns) {
  std::vector<std::string> items;
  for (const rise::Nat& n : ns)
    items.push_back(rise::natToString(n));
  return "[" + joined(items) + "]";
}

/// Where the launch comes from, its global and its local sizes: one line
/// each in the header's comment (short enough not to be reflowed).
std::string launchRule(const LaunchPlan& plan) {
  return plan.given ? "given (the spec's `launch:` or --launch)"
                    : "the default rule (docs/host.md)";
}

std::string launchGlobal(const LaunchPlan& plan) {
  return natList(plan.launch.global);
}

std::string launchLocal(const LaunchPlan& plan) {
  return plan.launch.local.empty() ? "chosen by the runtime" : natList(plan.launch.local);
}

std::string launchNeed(const LaunchPlan& plan) {
  std::vector<std::string> needs;
  for (std::size_t d = 0; d < plan.launch.global.size(); ++d) {
    // The work of a mapGlobal before the rounding to whole work-groups that
    // the comment states (neededGlobal without a local size), else the
    // work-groups' work.
    rise::Nat local = plan.launch.local.empty() ? rise::Nat() : plan.launch.local[d];
    std::optional<rise::Nat> need = neededGlobal(plan.loops, static_cast<int>(d), rise::Nat());
    if (!need)
      need = neededGlobal(plan.loops, static_cast<int>(d), local);
    needs.push_back(need ? rise::natToString(*need) : "unbounded");
  }
  return "at most [" + joined(needs) + "]";
}

/// The name of kernel `k` (from 0) of `abi`: its symbol without phases.
std::string kernelName(const KernelAbi& abi, std::size_t k) {
  return k < abi.kernels.size() ? abi.kernels[k].name : abi.symbol;
}

mustache::data common(const KernelAbi& abi, const c::COptions& opts) {
  mustache::data d;
  d.set("symbol", abi.symbol);
  d.set("version", opts.version);
  d.set("source", opts.sourceName);
  d.set("entry", abi.entry);
  d.set("guard", headerGuard(abi.symbol));
  return d;
}

} // namespace

std::string docComment(const KernelAbi& abi, const c::COptions& opts) {
  mustache::data d = common(abi, opts);
  bool opencl = abi.target == Target::OpenCL;
  d.set("strategy", opts.strategyName.empty() ? "lowerToC (default)" : opts.strategyName);
  d.set("targetText", opencl ? "opencl (OpenCL C 1.2)" : std::string(targetName(abi.target)));
  d.set("riseType", rise::typeToString(abi.riseType));
  mustache::data params{mustache::data::type::list};
  for (const AbiParam& p : abi.params) {
    mustache::data q;
    q.set("name", p.name);
    q.set("role", roleName(p.role));
    q.set("riseType", p.role == Role::Size ? "Nat" : rise::typeToString(p.riseType));
    q.set("array", flag(p.array));
    if (p.array)
      q.set("count", p.count->isConst(1) ? "1 element" : rise::natToString(p.count) + " elements");
    params.push_back(q);
  }
  d.set("params", params);
  mustache::data pres{mustache::data::type::list};
  std::vector<rise::Precondition> refusing = rise::refusingPreconditions(abi.preconditions);
  for (const rise::Precondition& pre : refusing) {
    mustache::data q;
    q.set("text", pre.str());
    pres.push_back(q);
  }
  d.set("preconditions", pres);
  d.set("hasPreconditions", flag(!refusing.empty()));
  d.set("isOpenCL", flag(opencl));
  d.set("hasTemporaries", flag(!abi.withRole(Role::Temporary).empty()));
  std::string text = render(embedded::kKernelDoc, d);
  if (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text;
}

std::string cHeader(const KernelAbi& abi, const c::COptions& opts,
                    const std::string& declarations) {
  mustache::data d = common(abi, opts);
  d.set("doc", docComment(abi, opts));
  d.set("declarations", declarations);
  return render(embedded::kCHeader, d);
}

std::string openclHeader(const KernelAbi& abi, const c::COptions& opts, const LaunchPlan& plan,
                         const std::string& declarations) {
  return openclHeader(abi, opts, std::vector<LaunchPlan>{plan}, declarations);
}

std::string openclHeader(const KernelAbi& abi, const c::COptions& opts,
                         const std::vector<LaunchPlan>& plans, const std::string& declarations) {
  const LaunchPlan& plan = plans.at(0);
  mustache::data d = common(abi, opts);
  d.set("doc", docComment(abi, opts));
  d.set("declarations", declarations);
  d.set("hostParams", joined(abiList(abi, false, false)));
  d.set("bufferParams", joined(abiList(abi, true, false)));
  d.set("launchParams", launchParams(abi, false));
  d.set("launchRule", launchRule(plan));
  d.set("launchGlobal", launchGlobal(plan));
  d.set("launchLocal", launchLocal(plan));
  d.set("launchNeed", launchNeed(plan));
  d.set("phased", flag(plans.size() > 1));
  d.set("phaseCount", std::to_string(plans.size()));
  mustache::data later{mustache::data::type::list};
  for (std::size_t k = 1; k < plans.size(); ++k) {
    mustache::data q;
    q.set("number", std::to_string(k + 1));
    q.set("kernel", kernelName(abi, k));
    q.set("launchRule", launchRule(plans[k]));
    q.set("launchGlobal", launchGlobal(plans[k]));
    q.set("launchLocal", launchLocal(plans[k]));
    q.set("launchNeed", launchNeed(plans[k]));
    later.push_back(q);
  }
  d.set("laterPhases", later);
  return render(embedded::kOpenCLHeader, d);
}

/// The largest OpenCL vector type (`float4`, `int8`, ...) the kernel source
/// names, in bytes (a 3-vector takes 4 elements), or 0. A kernel may access
/// an array through a pointer to it, which must then be aligned to its size
/// (OpenCL 1.2, 6.1.5): the zero-copy path of the host wrappers requires it
/// of a host array's address. Names in comments count too: it errs on the
/// safe side.
std::size_t largestVectorBytes(const std::string& source) {
  static const std::regex vector(
      R"(\b(u?char|u?short|u?int|u?long|half|float|double)(2|3|4|8|16)\b)");
  static const std::map<std::string, std::size_t> scalarBytes{
      {"char", 1}, {"uchar", 1}, {"short", 2}, {"ushort", 2}, {"int", 4},   {"uint", 4},
      {"long", 8}, {"ulong", 8}, {"half", 2},  {"float", 4},  {"double", 8}};
  std::size_t largest = 0;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), vector);
       it != std::sregex_iterator(); ++it) {
    std::size_t lanes = std::stoul((*it)[2].str());
    largest = std::max(largest, scalarBytes.at((*it)[1].str()) * (lanes == 3 ? 4 : lanes));
  }
  return largest;
}

std::string openclHostSource(const KernelAbi& abi, const c::COptions& opts, const LaunchPlan& plan,
                             const std::string& kernelSource) {
  return openclHostSource(abi, opts, std::vector<LaunchPlan>{plan}, kernelSource);
}

std::string openclHostSource(const KernelAbi& abi, const c::COptions& opts,
                             const std::vector<LaunchPlan>& plans,
                             const std::string& kernelSource) {
  const LaunchPlan& plan = plans.at(0);
  mustache::data d = common(abi, opts);
  SizePrinter print(abi);
  d.set("hostParams", joined(abiList(abi, false, false)));
  d.set("hostArgs", joined(abiList(abi, false, true)));
  d.set("bufferParams", joined(abiList(abi, true, false)));
  d.set("bufferArgs", joined(abiList(abi, true, true)));
  std::vector<std::string> sizes = sizeNames(abi);
  d.set("sizeArgs", joined(sizes));
  d.set("sizeArgsComma", sizes.empty() ? "" : joined(sizes) + ", ");
  d.set("launchDefinitionParams", launchParams(abi, true));
  d.set("launchBody", launchBody(abi, plan, print));
  d.set("phased", flag(plans.size() > 1));
  d.set("phaseCount", std::to_string(plans.size()));
  mustache::data phases{mustache::data::type::list}, later{mustache::data::type::list};
  for (std::size_t k = 0; k < plans.size(); ++k) {
    mustache::data q;
    q.set("index", std::to_string(k));
    q.set("number", std::to_string(k + 1));
    q.set("kernel", kernelName(abi, k));
    q.set("last", flag(k + 1 == plans.size()));
    q.set("launchBody", launchBody(abi, plans[k], print));
    phases.push_back(q);
    if (k > 0)
      later.push_back(q);
  }
  d.set("phases", phases);
  d.set("laterPhases", later);
  d.set("source_literal", cStringLiteral(kernelSource));

  mustache::data temporaries{mustache::data::type::list}, args{mustache::data::type::list},
      buffers{mustache::data::type::list};
  int index = 0, slot = 0;
  std::size_t vectorBytes = largestVectorBytes(kernelSource);
  for (const AbiParam& p : abi.params) {
    mustache::data q;
    q.set("name", p.name);
    q.set("cType", p.cType);
    q.set("countC", p.array ? print(p.count) : "1");
    q.set("index", std::to_string(index++));
    q.set("argType", p.array ? "cl_mem" : p.cType);
    args.push_back(q);
    if (p.role == Role::Temporary) {
      temporaries.push_back(q);
      continue;
    }
    if (!p.array)
      continue;
    bool output = p.role != Role::Input;
    std::string align = "_Alignof(" + p.cType + ")";
    if (vectorBytes > 0) {
      std::string v = std::to_string(vectorBytes);
      align = "(" + v + " > " + align + " ? " + v + " : " + align + ")";
    }
    q.set("slot", std::to_string(slot++));
    q.set("alignment", align);
    q.set("output", output ? "1" : "0");
    q.set("hostPointer", output ? p.name : "NULL");
    buffers.push_back(q);
  }
  d.set("temporaries", temporaries);
  d.set("args", args);
  d.set("buffers", buffers);
  d.set("helpers", print.helpers());
  return render(embedded::kOpenCLHost, d);
}

std::string runtimeHeader() {
  return embedded::kRuntimeHeader;
}

std::string cStringLiteral(const std::string& text) {
  std::string out;
  std::string line;
  auto flush = [&](bool newline) {
    out += (out.empty() ? "" : "\n") + std::string("    \"") + line + (newline ? "\\n" : "") + "\"";
    line.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char ch = static_cast<unsigned char>(text[i]);
    switch (ch) {
    case '\n':
      flush(true);
      continue;
    case '\\':
      line += "\\\\";
      break;
    case '"':
      line += "\\\"";
      break;
    case '\t':
      line += "\\t";
      break;
    case '?': // no trigraphs
      line += i + 1 < text.size() && text[i + 1] == '?' ? "?\\" : "?";
      break;
    default:
      if (ch < 0x20 || ch >= 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\%03o", ch);
        line += buf;
      } else {
        line += static_cast<char>(ch);
      }
    }
  }
  if (!line.empty() || out.empty())
    flush(false);
  return out;
}

} // namespace risec::codegen::host
