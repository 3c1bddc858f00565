#include "driver/IsaRequest.h"

#include "driver/IsaDispatch.h"
#include "driver/SourceLoader.h"
#include "elevate/StrategyParams.h"
#include "support/Diagnostic.h"

#include <algorithm>
#include <set>

namespace risec::driver {

namespace {

std::string trimmed(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t");
  std::size_t e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string validItems() {
  std::string s;
  for (const std::string& l : isaLevels())
    s += l + ", ";
  return s.substr(0, s.size() - 2) + " and native";
}

} // namespace

std::string nativeIsaLevel() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  bool supported[5] = {true, true, true, true, true}; // by level number, 1: the baseline
#define RISEC_NATIVE_FEATURE_TEST(level, feature)                                                  \
  if (!__builtin_cpu_supports(feature))                                                            \
    supported[level] = false;
  RISEC_ISA_LEVEL_FEATURES(RISEC_NATIVE_FEATURE_TEST)
#undef RISEC_NATIVE_FEATURE_TEST
  int best = 1;
  while (best < 4 && supported[best + 1])
    ++best;
  return isaLevels()[best - 1];
#else
  return "";
#endif
}

std::vector<std::string> resolveIsaRequest(const std::string& list) {
  std::set<std::string> named;
  if (trimmed(list).empty())
    return {};
  std::size_t start = 0;
  while (true) {
    std::size_t comma = list.find(',', start);
    std::string item = trimmed(list.substr(start, comma - start));
    if (item == "native") {
      std::string level = nativeIsaLevel();
      if (!level.empty())
        named.insert(level);
    } else if (std::find(isaLevels().begin(), isaLevels().end(), item) != isaLevels().end()) {
      named.insert(item);
    } else {
      throw CompileError("E0819", {},
                         (item.empty() ? std::string("--isas has an empty item")
                                       : "--isas names `" + item + "`, which is not an ISA level") +
                             "; list some of " + validItems() +
                             ", separated by commas (e.g. --isas x86-64-v3,x86-64-v4)");
    }
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  std::vector<std::string> levels;
  for (const std::string& level : isaLevels())
    if (level == isaLevels().front() || named.count(level))
      levels.push_back(level);
  if (levels.size() < 2) // the baseline alone: one function, no dispatch
    return {};
  return levels;
}

namespace {

/// Why the strategy of `v` cannot be loaded for `level` (a `require` that
/// does not hold with the level's machine facts), or "" when it can.
std::string unmetRequirement(const VariantSpec& v, const std::string& level) {
  if (v.strategyPath.empty())
    return "";
  elevate::StrategyInterface iface = elevate::strategyInterface(loadSource(v.strategyPath));
  elevate::ParamValues values = v.strategyBindings(level);
  for (const auto& [name, value] : iface.bind(values))
    values[name] = value;
  try {
    elevate::checkRequirements(iface, values);
  } catch (const CompileError& e) {
    return e.message();
  }
  return "";
}

} // namespace

std::vector<std::string> applyIsaRequest(std::vector<KernelSpec>& specs,
                                         const std::vector<std::string>& levels) {
  std::vector<std::string> warnings;
  if (levels.size() < 2)
    return warnings;
  for (KernelSpec& spec : specs)
    for (VariantSpec& v : spec.variants) {
      if (v.target == Target::OpenCL || v.isasFromSpec)
        continue;
      if (std::any_of(v.cflags.begin(), v.cflags.end(),
                      [](const std::string& f) { return f.rfind("-march=", 0) == 0; }))
        continue;
      std::vector<std::string> kept = {levels.front()};
      for (std::size_t i = 1; i < levels.size(); ++i) {
        std::string why = unmetRequirement(v, levels[i]);
        if (why.empty())
          kept.push_back(levels[i]);
        else
          warnings.push_back(v.loc.str() + ": warning: `" + v.symbol + "` gets no " + levels[i] +
                             " function: " + why + " (per level, in an `isas:` entry)");
      }
      if (kept.size() > 1)
        v.isas = kept;
    }
  return warnings;
}

} // namespace risec::driver
