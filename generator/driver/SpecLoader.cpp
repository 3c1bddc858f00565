#include "driver/SpecLoader.h"

#include "codegen/ReservedSymbols.h"
#include "driver/SourceLoader.h"
#include "elevate/StrategyParams.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"
#include "support/PassTimer.h"
#include "support/Text.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>

namespace risec::driver {

namespace fs = std::filesystem;
using namespace risec::rise;

std::map<std::string, std::int64_t> isaFacts(const std::string& level) {
  // SSE (x86-64, -v2): 16 xmm registers of 4 floats; AVX2 (-v3): 16 ymm of
  // 8; AVX-512 (-v4): 32 zmm of 16.
  if (level == "x86-64-v4")
    return {{"vector_lanes", 16}, {"vector_registers", 32}};
  if (level == "x86-64-v3")
    return {{"vector_lanes", 8}, {"vector_registers", 16}};
  return {{"vector_lanes", 4}, {"vector_registers", 16}};
}

std::map<std::string, std::int64_t> VariantSpec::strategyBindings(const std::string& level) const {
  std::map<std::string, std::int64_t> values = params;
  // The baseline of levels that `--isas` added (IsaRequest.h) is the
  // variant's single function: no machine facts.
  if (level.empty() || (!isasFromSpec && level == isaLevels().front()))
    return values;
  if (auto it = isaParams.find(level); it != isaParams.end())
    for (const auto& [name, value] : it->second)
      values[name] = value;
  for (const auto& [name, value] : isaFacts(level))
    values[name] = value;
  return values;
}

namespace {

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const std::string& i : items)
    s += (s.empty() ? "" : ", ") + i;
  return s;
}

/// What a `cflags:` entry sets ("the optimisation level", ...), so that a list
/// sets each at most once; empty for a flag that a spec may not set. The
/// allow-list is documented in docs/usage.md, "Compiler flags".
std::string flagKind(const std::string& flag) {
  static const std::vector<std::pair<std::string, std::string>> exact = {
      {"-O0", "the optimisation level"},
      {"-O1", "the optimisation level"},
      {"-O2", "the optimisation level"},
      {"-O3", "the optimisation level"},
      {"-Os", "the optimisation level"},
      {"-funroll-loops", "loop unrolling"},
      {"-fno-unroll-loops", "loop unrolling"},
      {"-ffp-contract=off", "floating-point contraction"},
      {"-ffp-contract=on", "floating-point contraction"},
      {"-ffp-contract=fast", "floating-point contraction"}};
  for (const auto& [f, kind] : exact)
    if (flag == f)
      return kind;
  for (const char* prefix : {"-march=", "-mtune="}) {
    std::string p = prefix;
    if (flag.rfind(p, 0) != 0)
      continue;
    std::string cpu = flag.substr(p.size());
    bool valid =
        !cpu.empty() && std::isalnum(static_cast<unsigned char>(cpu[0])) &&
        std::all_of(cpu.begin(), cpu.end(), [](char c) {
          return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
        });
    return valid ? "the CPU (" + p.substr(0, p.size() - 1) + ")" : "";
  }
  return "";
}

/// Why `flag` (rejected by flagKind) may not be set, for E0815.
std::string whyNotAllowed(const std::string& flag) {
  const std::string allowed =
      "`cflags` takes only -O0, -O1, -O2, -O3, -Os, -march=CPU, -mtune=CPU, -funroll-loops, "
      "-fno-unroll-loops, -ffp-contract=off, -ffp-contract=on and -ffp-contract=fast";
  if (flag == "-Ofast" || flag == "-ffast-math" || flag.find("-math") != std::string::npos)
    return "`" + flag +
           "` lets the compiler change floating-point results, so the library would no "
           "longer compute what the kernel's tests check; " +
           allowed;
  if (flag.rfind("-W", 0) == 0)
    return "`" + flag + "`: warnings are the choice of the project that compiles the library; " +
           allowed;
  if (flag.rfind("-march=", 0) == 0 || flag.rfind("-mtune=", 0) == 0)
    return "`" + flag + "`: a CPU name is letters, digits, `-`, `_` and `.` (e.g. x86-64-v3)";
  return "`" + flag + "` is not a flag a spec may set; " + allowed;
}

/// `flags` with kDefaultOptimisationFlag first if they set no optimisation
/// level (a library is never compiled at -O0 because its consumer's build
/// type adds no -O), and kDefaultContractionFlag after them if they do not
/// choose the floating-point contraction.
std::vector<std::string> withDefaultFlags(std::vector<std::string> flags) {
  auto sets = [&](const char* prefix) {
    return std::any_of(flags.begin(), flags.end(),
                       [&](const std::string& f) { return f.rfind(prefix, 0) == 0; });
  };
  if (!sets("-O"))
    flags.insert(flags.begin(), kDefaultOptimisationFlag);
  if (!sets("-ffp-contract="))
    flags.push_back(kDefaultContractionFlag);
  return flags;
}

/// Reads one spec file; a class so that every helper knows the file for
/// locations.
class SpecReader {
public:
  SpecReader(std::string path, std::shared_ptr<const SourceFile> file)
      : path_(std::move(path)), file_(std::move(file)) {}

  KernelSpec read() {
    YAML::Node root;
    try {
      root = YAML::Load(file_->text);
    } catch (const YAML::ParserException& e) {
      throw CompileError("E0801", at(e.mark), "invalid YAML: " + e.msg);
    }
    KernelSpec spec;
    spec.path = path_;
    spec.loc = {file_, 1, 1};
    if (!root.IsMap())
      throw CompileError("E0801", spec.loc,
                         "a kernel spec is a YAML mapping with the keys kernel, source, variants, "
                         "...; see docs/usage.md");
    checkKeys(root,
              {"kernel", "source", "entry", "doc", "cflags", "isas", "variants", "check", "bench"},
              "the kernel spec");
    spec.kernel =
        identifier(required(root, "kernel", "the kernel spec", "the symbol prefix"), "`kernel`");
    YAML::Node source = required(root, "source", "the kernel spec", "the .rise file");
    spec.sourcePath = existingFile(source, "source");
    spec.entry = root["entry"] ? scalar(root["entry"], "`entry`") : spec.kernel;
    spec.doc = root["doc"] ? scalar(root["doc"], "`doc`") : "";
    if (root["cflags"])
      spec.cflags = readCflags(root["cflags"]);
    if (root["isas"])
      spec.isas = readIsas(root["isas"], spec.isaParams);
    loadProgram(spec, root["entry"] ? root["entry"] : source);
    readVariants(spec, required(root, "variants", "the kernel spec", "the list of targets"));
    if (root["check"])
      readChecks(spec, root["check"]);
    if (root["bench"]) {
      if (!root["bench"].IsMap())
        throw CompileError("E0807", at(root["bench"]),
                           "`bench` maps every size to a value, e.g. `{n: 1048576}`");
      spec.bench = readSizeMap(spec, root["bench"]);
    }
    return spec;
  }

private:
  SourceLocation at(const YAML::Mark& m) const {
    if (m.is_null())
      return {file_, 1, 1};
    return {file_, m.line + 1, m.column + 1};
  }
  SourceLocation at(const YAML::Node& n) const { return at(n.Mark()); }

  void checkKeys(const YAML::Node& map, const std::vector<std::string>& allowed,
                 const std::string& what) const {
    for (auto it = map.begin(); it != map.end(); ++it) {
      std::string key = it->first.IsScalar() ? it->first.Scalar() : "";
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        throw CompileError("E0802", at(it->first),
                           "unknown key `" + key + "` in " + what + "; the keys are " +
                               joined(allowed));
    }
  }

  YAML::Node required(const YAML::Node& map, const std::string& key, const std::string& what,
                      const std::string& purpose) const {
    YAML::Node n = map[key];
    if (!n)
      throw CompileError("E0803", at(map), what + " needs a `" + key + "` key (" + purpose + ")");
    return n;
  }

  std::string scalar(const YAML::Node& n, const std::string& what) const {
    if (!n.IsScalar())
      throw CompileError("E0807", at(n), what + " must be a single value");
    return n.Scalar();
  }

  std::string identifier(const YAML::Node& n, const std::string& what) const {
    std::string s = scalar(n, what);
    if (!isCIdentifier(s))
      throw CompileError("E0806", at(n),
                         what + " `" + s +
                             "` must be a C identifier (letters, digits and `_`, not starting "
                             "with a digit)");
    return s;
  }

  /// A path relative to the spec's folder that must exist.
  std::string existingFile(const YAML::Node& n, const std::string& key) const {
    std::string value = scalar(n, "`" + key + "`");
    fs::path p = fs::path(path_).parent_path() / value;
    std::error_code ec;
    if (!fs::is_regular_file(p, ec))
      throw CompileError("E0804", at(n),
                         "`" + key + "` names `" + value + "`, which does not exist (looked for " +
                             p.string() + "; paths are relative to the spec file)");
    return p.lexically_normal().string();
  }

  void loadProgram(KernelSpec& spec, const YAML::Node& entryNode) {
    spec.program = timed("parse", [&] { return parseProgram(loadSource(spec.sourcePath)); });
    if (!spec.program.findDef(spec.entry)) {
      std::vector<std::string> names;
      for (const Def& d : spec.program.defs)
        names.push_back(d.name);
      throw CompileError("E0813", at(entryNode),
                         "`" + spec.sourcePath + "` has no def named `" + spec.entry +
                             "`; its defs are " + joined(names) +
                             " (set `entry:` when it differs from `kernel:`)");
    }
    spec.typedEntry = timed("infer", [&] { return inferDef(spec.program, spec.entry); });
    spec.sizeParameters = sizeBinders(spec.typedEntry);
    sizeParameters_ = spec.sizeParameters;
  }

  std::vector<std::string> sizeNames(const KernelSpec& spec) const {
    std::vector<std::string> names;
    for (const DepBinder& b : spec.sizeParameters)
      names.push_back(b.name());
    return names;
  }

  void readVariants(KernelSpec& spec, const YAML::Node& list) {
    if (!list.IsSequence() || list.size() == 0)
      throw CompileError("E0814", at(list),
                         "`variants` must be a non-empty list, e.g. `- target: c`");
    std::set<std::string> symbols;
    for (const YAML::Node& v : list) {
      if (!v.IsMap())
        throw CompileError("E0807", at(v), "a variant is a mapping with a `target` key");
      checkKeys(v, {"target", "strategy", "launch", "symbol", "cflags", "isas", "params"},
                "a variant");
      VariantSpec variant;
      variant.loc = at(v);
      YAML::Node target = required(v, "target", "a variant", "c, openmp or opencl");
      std::string t = scalar(target, "`target`");
      std::optional<Target> parsed = codegen::parseTarget(t);
      if (!parsed)
        throw CompileError("E0805", at(target),
                           "unknown target `" + t + "`; the targets are c, openmp and opencl");
      variant.target = *parsed;
      if (v["strategy"])
        variant.strategyPath = existingFile(v["strategy"], "strategy");
      variant.symbol = v["symbol"] ? identifier(v["symbol"], "`symbol`")
                                   : spec.kernel + "_" + std::string(targetName(variant.target));
      if (std::string why = codegen::reservedSymbol(variant.symbol, variant.target); !why.empty())
        throw CompileError(
            "E0806", at(v["symbol"] ? v["symbol"] : v),
            "the variant cannot be named `" + variant.symbol + "`: that is " + why +
                ", which the generated files see; give it another `symbol:` (e.g. `" +
                variant.symbol + "_kernel`)");
      if (!symbols.insert(variant.symbol).second)
        throw CompileError("E0812", at(v),
                           "two variants are both named `" + variant.symbol +
                               "`; give one of them a different `symbol:`");
      if (v["launch"]) {
        if (variant.target != Target::OpenCL)
          throw CompileError("E0809", at(v["launch"]),
                             "`launch` only applies to opencl variants; remove it from this " +
                                 std::string(targetName(variant.target)) + " variant");
        variant.launch = readLaunch(spec, v["launch"]);
      }
      variant.cflags = withDefaultFlags(v["cflags"] ? readCflags(v["cflags"]) : spec.cflags);
      readVariantIsas(spec, v, variant);
      readVariantParams(v, variant);
      spec.variants.push_back(std::move(variant));
    }
  }

  /// The variant's `isas:`, else the spec's for a c or openmp variant (an
  /// opencl variant ignores the spec's: it runs on an OpenCL device). E0818:
  /// `isas:` on an opencl variant, or with a `-march=` in the variant's flags.
  void readVariantIsas(const KernelSpec& spec, const YAML::Node& v, VariantSpec& variant) {
    if (v["isas"] && variant.target == Target::OpenCL)
      throw CompileError("E0818", at(v["isas"]),
                         "`isas` only applies to c and openmp variants (an opencl kernel is "
                         "compiled by the OpenCL driver); remove it from this opencl variant");
    if (variant.target == Target::OpenCL)
      return;
    if (v["isas"]) {
      variant.isas = readIsas(v["isas"], variant.isaParams);
    } else {
      variant.isas = spec.isas;
      variant.isaParams = spec.isaParams;
    }
    variant.isasFromSpec = !variant.isas.empty();
    if (variant.isas.empty())
      return;
    for (const std::string& f : variant.cflags)
      if (f.rfind("-march=", 0) == 0)
        throw CompileError("E0818", at(v["isas"] ? v["isas"] : v),
                           "this variant asks for ISA levels (`isas`) and also sets `" + f +
                               "` in `cflags`; each level is compiled with its own -march, so "
                               "remove the -march from `cflags`");
  }

  /// An `isas:` list of x86-64 levels, each a name or `{isa: LEVEL, params:
  /// {...}}` (E0817: not a list, an unknown or repeated level); the result is
  /// in isaLevels() order with the baseline x86-64 always first, whether the
  /// list names it or not. The entries' `params:` go to `params` by level.
  std::vector<std::string>
  readIsas(const YAML::Node& n,
           std::map<std::string, std::map<std::string, std::int64_t>>& params) {
    if (!n.IsSequence() || n.size() == 0)
      throw CompileError("E0817", at(n),
                         "`isas` is a non-empty list of x86-64 levels, e.g. [x86-64-v2, "
                         "x86-64-v3, x86-64-v4]");
    std::set<std::string> named;
    for (const YAML::Node& item : n) {
      if (item.IsMap())
        checkKeys(item, {"isa", "params"}, "an `isas` entry");
      // (YAML::Node's operator= writes through to the node: no reassignment.)
      const YAML::Node levelNode =
          item.IsMap() ? required(item, "isa", "an `isas` entry", "the x86-64 level") : item;
      std::string level = scalar(levelNode, "an ISA level");
      const std::vector<std::string>& levels = isaLevels();
      if (std::find(levels.begin(), levels.end(), level) == levels.end())
        throw CompileError("E0817", at(levelNode),
                           "unknown ISA level `" + level + "`; the levels are " + joined(levels));
      if (!named.insert(level).second)
        throw CompileError("E0817", at(levelNode), "the ISA level `" + level + "` is listed twice");
      if (item.IsMap() && item["params"])
        params[level] = readParams(item["params"]);
    }
    std::vector<std::string> isas;
    for (const std::string& level : isaLevels())
      if (level == isaLevels().front() || named.count(level))
        isas.push_back(level);
    return isas;
  }

  /// A `params:` mapping of names to non-negative integers (E0827; 0 is how
  /// a strategy lets a binding switch a step off, e.g. `kc: 0`). Where each
  /// name was written is kept for the check against the strategy.
  std::map<std::string, std::int64_t> readParams(const YAML::Node& n) {
    if (!n.IsMap() || n.size() == 0)
      throw CompileError("E0827", at(n),
                         "`params` maps strategy parameters to values, e.g. `{mr: 8, vw: 16}`");
    std::map<std::string, std::int64_t> values;
    for (auto it = n.begin(); it != n.end(); ++it) {
      std::string name = scalar(it->first, "a parameter name");
      std::string value = scalar(it->second, "a parameter value");
      bool digits = !value.empty() && value.size() < 10 &&
                    value.find_first_not_of("0123456789") == std::string::npos;
      if (!digits)
        throw CompileError("E0827", at(it->second),
                           "the strategy parameter `" + name +
                               "` needs a non-negative integer, not `" + value + "`");
      values[name] = std::stoll(value);
      paramLocs_[name] = at(it->first);
    }
    return values;
  }

  /// The variant's `params:`, and a check of every bound name (the
  /// variant's, its ISA levels') against its strategy's parameters (E0827),
  /// and of the names its strategy's requirements use.
  void readVariantParams(const YAML::Node& v, VariantSpec& variant) {
    if (v["params"])
      variant.params = readParams(v["params"]);
    std::set<std::string> bound;
    for (const auto& [name, value] : variant.params)
      bound.insert(name);
    for (const auto& [level, values] : variant.isaParams)
      for (const auto& [name, value] : values)
        bound.insert(name);
    if (variant.strategyPath.empty()) {
      if (!bound.empty())
        throw CompileError("E0827", paramLocs_.at(*bound.begin()),
                           "`" + *bound.begin() +
                               "` binds a strategy parameter, but this variant has no "
                               "`strategy:`");
      return;
    }
    elevate::StrategyInterface iface = elevate::strategyInterface(loadSource(variant.strategyPath));
    std::vector<std::string> declared;
    for (const elevate::StrategyParameter& p : iface.params)
      declared.push_back(p.name);
    for (const std::string& name : bound)
      if (!iface.find(name))
        throw CompileError("E0827", paramLocs_.at(name),
                           "the strategy `" + fs::path(variant.strategyPath).filename().string() +
                               "` has no parameter `" + name + "`; " +
                               (declared.empty() ? "it declares none (`param NAME = DEFAULT`)"
                                                 : "its parameters are " + joined(declared)));
    std::vector<std::string> known = declared;
    for (const std::string& f : elevate::machineFactNames())
      known.push_back(f);
    for (const DepBinder& b : sizeParameters_)
      known.push_back(b.name());
    for (const elevate::StrategyRequirement& r : iface.requirements) {
      std::vector<std::string> names;
      elevate::namesIn(*r.cond, names);
      for (const std::string& name : names)
        if (std::find(known.begin(), known.end(), name) == known.end())
          throw CompileError("E0827", r.loc,
                             "this requirement names `" + name +
                                 "`, which is no parameter of the strategy, no machine fact "
                                 "and no size of the kernel; the names are " +
                                 joined(known));
    }
  }

  /// A `cflags:` list: flags that flagKind allows (E0815), each kind at most
  /// once (E0816).
  std::vector<std::string> readCflags(const YAML::Node& n) const {
    if (!n.IsSequence())
      throw CompileError("E0807", at(n),
                         "`cflags` is a list of compiler flags, e.g. [-O2, -march=x86-64-v3]");
    std::vector<std::string> flags;
    std::map<std::string, std::string> kinds; // what a flag sets -> the flag
    for (const YAML::Node& item : n) {
      std::string flag = scalar(item, "a compiler flag");
      std::string kind = flagKind(flag);
      if (kind.empty())
        throw CompileError("E0815", at(item), whyNotAllowed(flag));
      auto [it, fresh] = kinds.emplace(kind, flag);
      if (!fresh)
        throw CompileError("E0816", at(item),
                           "`" + it->second + "` and `" + flag + "` both set " + kind +
                               "; keep one");
      flags.push_back(flag);
    }
    return flags;
  }

  LaunchConfig readLaunch(const KernelSpec& spec, const YAML::Node& n) {
    if (!n.IsMap())
      throw CompileError("E0807", at(n),
                         "`launch` is a mapping such as `{global: [n], local: [32]}`");
    checkKeys(n, {"global", "local"}, "`launch`");
    LaunchConfig launch;
    launch.loc = at(n);
    launch.global =
        readSizes(spec, required(n, "global", "`launch`", "the global NDRange"), "global");
    if (n["local"]) {
      launch.local = readSizes(spec, n["local"], "local");
      if (launch.local.size() != launch.global.size())
        throw CompileError("E0807", at(n["local"]),
                           "`local` has " + std::to_string(launch.local.size()) +
                               " dimensions but `global` has " +
                               std::to_string(launch.global.size()));
    }
    return launch;
  }

  std::vector<Nat> readSizes(const KernelSpec& spec, const YAML::Node& n, const std::string& key) {
    if (!n.IsSequence() || n.size() < 1 || n.size() > 3)
      throw CompileError("E0807", at(n),
                         "`" + key + "` is a list of 1 to 3 size expressions, e.g. [n, m/4]");
    std::vector<Nat> sizes;
    for (const YAML::Node& item : n) {
      std::string text = scalar(item, "a launch size");
      try {
        sizes.push_back(parseNat(makeSourceFile(spec.path, text), spec.sizeParameters));
      } catch (const CompileError& e) {
        throw CompileError("E0808", at(item),
                           "launch size `" + text + "` of `" + key + "`: " + e.message() +
                               " (the sizes of `" + spec.entry + "` are " +
                               joined(sizeNames(spec)) + ")");
      }
    }
    return sizes;
  }

  void readChecks(KernelSpec& spec, const YAML::Node& list) {
    if (!list.IsSequence())
      throw CompileError("E0807", at(list), "`check` is a list of sizes, e.g. `- {n: 64}`");
    for (const YAML::Node& c : list) {
      if (!c.IsMap())
        throw CompileError("E0807", at(c), "a `check` entry maps every size to a value");
      spec.checks.push_back(readSizeMap(spec, c));
    }
  }

  /// A `check` entry or `bench`: a value for every size of the entry that
  /// meets its preconditions.
  CheckSizes readSizeMap(const KernelSpec& spec, const YAML::Node& c) const {
    std::vector<std::string> names = sizeNames(spec);
    CheckSizes check;
    check.loc = at(c);
    for (auto it = c.begin(); it != c.end(); ++it) {
      std::string name = scalar(it->first, "a size name");
      if (std::find(names.begin(), names.end(), name) == names.end())
        throw CompileError("E0810", at(it->first),
                           "`" + name + "` is not a size of `" + spec.entry + "`; its sizes are " +
                               joined(names));
      std::string value = scalar(it->second, "a size");
      bool digits = !value.empty() && value.size() < 13 &&
                    value.find_first_not_of("0123456789") == std::string::npos;
      if (!digits)
        throw CompileError("E0810", at(it->second),
                           "size `" + name + "` must be a non-negative integer, not `" + value +
                               "`");
      check.sizes[name] = std::stoll(value);
    }
    for (const std::string& name : names)
      if (!check.sizes.count(name))
        throw CompileError("E0810", at(c), "this entry has no value for `" + name + "`");
    checkPreconditions(spec, check);
    return check;
  }

  void checkPreconditions(const KernelSpec& spec, const CheckSizes& check) const {
    auto lookup = [&](const NatVarInfo& v) -> std::optional<std::int64_t> {
      for (const DepBinder& b : spec.sizeParameters)
        if (b.nat->id == v.id)
          return check.sizes.at(b.name());
      return std::nullopt;
    };
    for (const Precondition& p : spec.typedEntry.preconditions) {
      auto lhs = natEvaluate(p.lhs, lookup), rhs = natEvaluate(p.rhs, lookup);
      bool holds = lhs && rhs && (p.rel == Precondition::Rel::Eq ? *lhs == *rhs : *lhs >= *rhs);
      if (!holds && !p.onlyForNonEmptyResult)
        throw CompileError("E0811", check.loc,
                           "these sizes violate the precondition " + p.str() + " of `" +
                               spec.entry + "` (" + p.reason + ")")
            .note(p.loc, "the precondition comes from here");
    }
  }

  std::string path_;
  std::shared_ptr<const SourceFile> file_;
  /// Where each `params:` name was last written (for E0827).
  std::map<std::string, SourceLocation> paramLocs_;
  /// The entry's size parameters (for the names of strategy requirements).
  std::vector<DepBinder> sizeParameters_;
};

} // namespace

KernelSpec loadSpec(const std::string& path) {
  return SpecReader(path, loadSource(path)).read();
}

} // namespace risec::driver
