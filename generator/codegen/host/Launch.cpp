#include "codegen/host/Launch.h"

#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <algorithm>

namespace risec::codegen::host {

using rise::Nat;

namespace {

/// The largest default local size per dimension: at most 256 work-items per
/// work-group, which every OpenCL GPU supports.
constexpr std::int64_t kDefaultLocal[3] = {32, 8, 1};

/// The largest default local size of a one-dimensional kernel whose only
/// parallel maps are mapGlobal(0): 4 warps of 32 work-items, so that a GPU's
/// limit of resident work-groups per compute unit does not cap its occupancy
/// (32 groups of one warp fill half of an NVIDIA SM), while n/128 groups
/// still fill every compute unit for the row counts of gemv (16384 rows: 128
/// groups on an H100's 132 SMs, where 256 would leave half of them idle).
constexpr std::int64_t kLoneGlobalLocal = 128;

/// The trip count `n` clamped to 1..cap (as a Nat: `max(1, min(32, n))`).
Nat localFromTripCount(const Nat& n, std::int64_t cap) {
  if (n->isConst())
    return rise::natConst(std::clamp<std::int64_t>(n->value(), 1, cap));
  if (cap == 1)
    return rise::natConst(1);
  return rise::natMax(rise::natConst(1), rise::natMin(rise::natConst(cap), n));
}

Nat roundUp(const Nat& n, const Nat& multiple) {
  if (multiple->isConst(1))
    return n;
  return (n + multiple - 1) / multiple * multiple;
}

std::string sizeNamesText(const std::vector<rise::DepBinder>& sizes) {
  if (sizes.empty())
    return "none";
  std::string s;
  for (const rise::DepBinder& b : sizes)
    s += (s.empty() ? "" : ", ") + b.name();
  return s;
}

/// `[a, b]` -> {"a", "b"}; throws E0510 on a malformed list.
std::vector<std::string> splitList(const std::string& option, const std::string& key,
                                   const std::string& text) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']')
    throw CompileError("E0510", {},
                       "--launch '" + option + "': `" + key + "=` takes a list such as `" + key +
                           "=[n, m/4]`, not `" + text + "`");
  std::vector<std::string> items;
  std::string inner = text.substr(1, text.size() - 2), item;
  int depth = 0;
  for (char ch : inner + ",") {
    if (ch == ',' && depth == 0) {
      item.erase(0, item.find_first_not_of(" \t"));
      item.erase(item.find_last_not_of(" \t") + 1);
      items.push_back(item);
      item.clear();
      continue;
    }
    depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
    item += ch;
  }
  if (inner.find_first_not_of(" \t") == std::string::npos)
    items.clear();
  return items;
}

} // namespace

void GridLoops::add(const GridLoopInfo& loop) {
  loops_.push_back(loop);
}

const GridLoopInfo* GridLoops::outermost(GridLoopInfo::Kind kind, int dim) const {
  const GridLoopInfo* best = nullptr;
  for (const GridLoopInfo& l : loops_)
    if (l.kind == kind && l.dim == dim && (!best || l.depth < best->depth))
      best = &l;
  return best;
}

std::optional<Nat> GridLoops::outermostCount(GridLoopInfo::Kind kind, int dim) const {
  const GridLoopInfo* first = outermost(kind, dim);
  if (!first)
    return std::nullopt;
  Nat count = first->count;
  for (const GridLoopInfo& l : loops_)
    if (&l != first && l.kind == kind && l.dim == dim && l.depth == first->depth)
      count = rise::natMax(count, l.count);
  return count;
}

int GridLoops::dims() const {
  int d = 0;
  for (const GridLoopInfo& l : loops_)
    d = std::max(d, l.dim + 1);
  return d;
}

Launch defaultLaunch(const GridLoops& loops) {
  using Kind = GridLoopInfo::Kind;
  Launch launch;
  int dims = loops.dims();
  if (dims == 0)
    return {{rise::natConst(1)}, {rise::natConst(1)}};
  bool groups = false; // a mapWorkGroup or mapLocal in any dimension
  for (int d = 0; d < dims; ++d)
    groups = groups || loops.outermost(Kind::WorkGroup, d) || loops.outermost(Kind::Local, d);
  for (int d = 0; d < dims; ++d) {
    std::optional<Nat> wg = loops.outermostCount(Kind::WorkGroup, d);
    std::optional<Nat> lc = loops.outermostCount(Kind::Local, d);
    std::optional<Nat> gl = loops.outermostCount(Kind::Global, d);
    std::int64_t cap = dims == 1 && !groups ? kLoneGlobalLocal : kDefaultLocal[d];
    Nat local = lc ? localFromTripCount(*lc, cap) : rise::natConst(1);
    if (!wg && gl)
      local = localFromTripCount(*gl, cap);
    launch.local.push_back(local);
    // A mapGlobal's trip count as it is: the wrapper rounds every global size
    // up to whole work-groups, so `n` reads better than its rounded form.
    launch.global.push_back(!wg && gl ? *gl : *neededGlobal(loops, d, local));
  }
  return launch;
}

std::optional<Nat> neededGlobal(const GridLoops& loops, int d, const Nat& local) {
  using Kind = GridLoopInfo::Kind;
  std::optional<Nat> wg = loops.outermostCount(Kind::WorkGroup, d);
  std::optional<Nat> gl = loops.outermostCount(Kind::Global, d);
  if (wg)
    return local ? std::optional<Nat>(*wg * local) : std::nullopt;
  if (gl)
    return local ? roundUp(*gl, local) : *gl;
  if (loops.outermost(Kind::Local, d))
    return local ? std::optional<Nat>(local) : std::nullopt;
  return rise::natConst(1); // an unused dimension
}

Launch parseLaunchOption(const std::string& text, const std::vector<rise::DepBinder>& sizes) {
  Launch launch;
  bool haveGlobal = false, haveLocal = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t close = text.find(']', start);
    std::size_t end = close == std::string::npos ? text.size() : close + 1;
    std::string part = text.substr(start, end - start);
    part.erase(0, part.find_first_not_of(" \t"));
    std::size_t eq = part.find('=');
    std::string key = eq == std::string::npos ? part : part.substr(0, eq);
    key.erase(key.find_last_not_of(" \t") + 1);
    if (eq == std::string::npos || (key != "global" && key != "local"))
      throw CompileError("E0510", {},
                         "--launch '" + text + "': expected `global=[...]` or `local=[...]` at `" +
                             part + "`; write e.g. --launch 'global=[n],local=[32]'");
    bool& seen = key == "global" ? haveGlobal : haveLocal;
    if (seen)
      throw CompileError("E0510", {}, "--launch '" + text + "': `" + key + "` is given twice");
    seen = true;
    std::string list = part.substr(eq + 1);
    list.erase(0, list.find_first_not_of(" \t"));
    std::vector<std::string> items = splitList(text, key, list);
    if (items.empty() || items.size() > 3)
      throw CompileError("E0512", {},
                         "--launch '" + text + "': `" + key + "` has 1 to 3 dimensions, e.g. `" +
                             key + "=[n, m]`, not " + std::to_string(items.size()));
    std::vector<Nat>& out = key == "global" ? launch.global : launch.local;
    for (const std::string& item : items) {
      try {
        out.push_back(rise::parseNat(rise::makeSourceFile("--launch", item), sizes));
      } catch (const CompileError& e) {
        throw CompileError("E0511", {},
                           "--launch '" + text + "': size `" + item + "` of `" + key + "`: " +
                               e.message() + " (the sizes are " + sizeNamesText(sizes) + ")");
      }
    }
    start = end;
    while (start < text.size() && (text[start] == ' ' || text[start] == ','))
      ++start;
    if (start >= text.size())
      break;
  }
  if (!haveGlobal)
    throw CompileError("E0513", {},
                       "--launch '" + text + "': the global size is missing; add `global=[...]`");
  if (haveLocal && launch.local.size() != launch.global.size())
    throw CompileError("E0512", {},
                       "--launch '" + text + "': `local` has " +
                           std::to_string(launch.local.size()) + " dimensions but `global` has " +
                           std::to_string(launch.global.size()));
  return launch;
}

void checkUnusedDimensions(const Launch& launch, const std::set<int>& usedDims) {
  for (std::size_t d = 0; d < launch.global.size(); ++d)
    if (!usedDims.count(static_cast<int>(d)) && !launch.global[d]->isConst(1))
      throw CompileError(
          "E0515", {},
          "--launch '" + launchToString(launch) +
              "': no parallel map of the kernel "
              "uses dimension " +
              std::to_string(d) +
              ", so its global size must be 1, "
              "not `" +
              rise::natToString(launch.global[d]) +
              "`: every work-item in it "
              "would run the whole kernel again, and in-place updates of local or "
              "global memory would be counted once per work-item; drop the dimension "
              "or give it size 1");
}

std::string launchToString(const Launch& launch) {
  auto list = [](const std::vector<Nat>& ns) {
    std::string s = "[";
    for (std::size_t i = 0; i < ns.size(); ++i)
      s += (i ? ", " : "") + rise::natToString(ns[i]);
    return s + "]";
  };
  std::string s = "global=" + list(launch.global);
  if (!launch.local.empty())
    s += ",local=" + list(launch.local);
  return s;
}

} // namespace risec::codegen::host
