#include "driver/TuneCommand.h"

#include "driver/IsaRequest.h"
#include "driver/KernelCompiler.h"
#include "driver/SizesOption.h"
#include "driver/SourceLoader.h"
#include "driver/SpecLoader.h"
#include "elevate/StrategyParams.h"
#include "support/Diagnostic.h"
#include "tune/Constraints.h"
#include "tune/Measure.h"
#include "tune/SpecWriter.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace risec::driver {

namespace fs = std::filesystem;
using elevate::ParamValues;

namespace {

using Clock = std::chrono::steady_clock;

/// "10m", "90s", "1h", "600" -> seconds (E0830).
double parseBudget(const std::string& text) {
  std::size_t used = 0;
  double v = -1;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::string unit = text.substr(used);
  double scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : -1;
  if (used == 0 || scale < 0 || v <= 0)
    throw CompileError("E0830", {},
                       "bad --budget `" + text +
                           "`; write seconds or a number with s, m or h, "
                           "e.g. --budget 90s or --budget 10m");
  return v * scale;
}

std::string sizesText(const std::map<std::string, std::int64_t>& s) {
  std::string t;
  for (const auto& [k, v] : s)
    t += (t.empty() ? "" : ", ") + k + "=" + std::to_string(v);
  return t;
}

std::string bindingText(const elevate::StrategyInterface& iface, const ParamValues& b) {
  std::string t;
  for (const elevate::StrategyParameter& p : iface.params)
    if (!p.candidates.empty())
      t += (t.empty() ? "" : " ") + p.name + "=" + std::to_string(b.at(p.name));
  return t;
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      std::size_t colon = line.find(':');
      std::size_t b = line.find_first_not_of(" \t", colon + 1);
      return b == std::string::npos ? "" : line.substr(b);
    }
  return "unknown";
}

/// One candidate's fate, for the log and the summary.
struct Trial {
  ParamValues binding;
  bool baseline = false;
  std::string status = "NOT RUN"; ///< OK, WRONG, REJECTED, BUILD FAILED, NOT RUN
  std::string detail;
  double seconds = -1;
};

std::string secondsText(double s) {
  std::ostringstream os;
  os << std::setprecision(4) << s << " s";
  return os.str();
}

} // namespace

int runTune(const TuneOptions& opts, std::ostream& out) {
  const auto start = Clock::now();
  const double budget = parseBudget(opts.budget);
  KernelSpec spec = loadSpec(opts.spec);

  // 1. the variant and the level
  const VariantSpec* found = nullptr;
  std::size_t variantIndex = 0;
  std::string symbols;
  for (std::size_t i = 0; i < spec.variants.size(); ++i) {
    symbols += (symbols.empty() ? "" : ", ") + spec.variants[i].symbol;
    if (spec.variants[i].symbol == opts.variant) {
      found = &spec.variants[i];
      variantIndex = i;
    }
  }
  if (!found)
    throw CompileError("E0831", spec.loc,
                       "the spec has no variant `" + opts.variant + "`; its variants are " +
                           symbols);
  const VariantSpec& v = *found;
  if (v.target == Target::OpenCL)
    throw CompileError("E0831", v.loc,
                       "`risec tune` tunes c and openmp variants only for now; `" + v.symbol +
                           "` is an opencl variant");
  if (v.strategyPath.empty())
    throw CompileError("E0832", v.loc,
                       "the variant `" + v.symbol +
                           "` has no strategy, so it has no parameters to tune");

  const std::string native = nativeIsaLevel();
  std::string level = opts.isa;
  if (!level.empty()) {
    if (isaLevelIndex(level) >= static_cast<int>(isaLevels().size()))
      throw CompileError("E0831", {},
                         "--isa names `" + level +
                             "`, which is not an ISA level; use x86-64, x86-64-v2, x86-64-v3 "
                             "or x86-64-v4");
    if (!v.isas.empty() && std::find(v.isas.begin(), v.isas.end(), level) == v.isas.end())
      throw CompileError("E0831", v.loc,
                         "the variant `" + v.symbol + "` has no function for " + level +
                             "; tune one of its `isas:` levels or add " + level + " to them");
    if (native.empty() || isaLevelIndex(level) > isaLevelIndex(native))
      throw CompileError("E0831", {},
                         "this CPU does not support " + level +
                             ", so it cannot run the candidates; tune on a machine that does");
  } else if (!v.isas.empty()) {
    for (const std::string& l : v.isas)
      if (!native.empty() && isaLevelIndex(l) <= isaLevelIndex(native))
        level = l;
    if (level.empty())
      throw CompileError("E0831", v.loc, "this CPU supports none of the variant's `isas:`");
  } else {
    level = native;
  }
  // -march=LEVEL where the library compiles the function with it.
  const bool march = !level.empty() && (!v.isas.empty() || !opts.isa.empty());
  const std::string bindingLevel = v.isas.empty() ? "" : level;

  // 2. the parameters and the constraint model
  std::shared_ptr<const SourceFile> strategyFile = loadSource(v.strategyPath);
  const SourceLocation strategyLoc{strategyFile, 1, 1};
  elevate::StrategyInterface iface = elevate::strategyInterface(strategyFile);
  if (std::none_of(iface.params.begin(), iface.params.end(),
                   [](const elevate::StrategyParameter& p) { return !p.candidates.empty(); }))
    throw CompileError("E0832", iface.params.empty() ? strategyLoc : iface.params.front().loc,
                       "the strategy declares no parameter with candidates, so there is "
                       "nothing to tune; declare some as `param NAME = DEFAULT in [V, ...]`");

  std::map<std::string, std::int64_t> bench;
  if (!opts.sizes.empty())
    bench = parseSizesOption(opts.sizes, "E0830", "m=256,n=256,k=256");
  else if (spec.bench)
    bench = spec.bench->sizes;
  else
    throw CompileError("E0830", spec.loc,
                       "the spec has no `bench:` sizes to time the candidates at; add e.g. "
                       "`bench: {m: 1024, n: 1024, k: 1024}` or pass --sizes");
  rise::interp::instantiateEntry(spec.typedEntry, bench); // every size, preconditions

  const std::map<std::string, std::int64_t> facts = isaFacts(level);
  ParamValues base = v.strategyBindings(bindingLevel);
  for (const auto& [k, x] : facts)
    base[k] = x;
  tune::TuneProblem problem;
  problem.iface = iface;
  problem.constants = facts;
  for (const auto& [k, x] : bench)
    problem.constants[k] = x;
  const ParamValues current = iface.bind(base);
  for (const elevate::StrategyParameter& p : iface.params)
    problem.fixed[p.name] = current.at(p.name);
  std::vector<ParamValues> candidates = tune::solveCandidates(problem);
  if (candidates.empty())
    throw CompileError("E0833", strategyLoc,
                       "no binding of the parameters meets the requirements at " + level +
                           " with the bench sizes " + sizesText(bench) + ":\n" +
                           tune::constraintsText(problem));

  // The baseline (the spec's binding now) first, then the candidates, those
  // that change fewest of its values first (the budget may not cover all).
  ParamValues baseline;
  for (const elevate::StrategyParameter& p : iface.params)
    baseline[p.name] = current.at(p.name);
  tune::nearestFirst(candidates, baseline);
  std::vector<Trial> trials;
  trials.push_back({baseline, true, "NOT RUN", "", -1});
  for (const ParamValues& c : candidates)
    if (c != baseline)
      trials.push_back({c, false, "NOT RUN", "", -1});

  // The check sizes, smallest first.
  std::vector<CheckSizes> checks = spec.checks;
  auto volume = [](const CheckSizes& c) {
    double p = 1;
    for (const auto& [k, x] : c.sizes)
      p *= static_cast<double>(std::max<std::int64_t>(x, 1));
    return p;
  };
  std::stable_sort(checks.begin(), checks.end(),
                   [&](const CheckSizes& a, const CheckSizes& b) { return volume(a) < volume(b); });

  // 3. build, check, time
  tune::BuildSettings settings;
  settings.cc = tune::defaultCompiler();
  settings.flags = v.cflags;
  if (march)
    settings.flags.push_back("-march=" + level);
  if (v.target == Target::OpenMP)
    settings.flags.push_back("-fopenmp");
  const fs::path work =
      fs::temp_directory_path() / ("risec-tune-" + std::to_string(::getpid()) + "-" + v.symbol);
  fs::remove_all(work);
  struct RemoveOnExit {
    fs::path dir;
    ~RemoveOnExit() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } removeWork{work};
  const fs::path folder = fs::path(spec.path).parent_path();
  std::size_t index = 0;
  for (Trial& t : trials) {
    ++index;
    double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (!t.baseline && elapsed > budget) {
      t.detail = "the budget ran out";
      continue;
    }
    if (t.baseline && !tune::admits(problem, t.binding)) {
      t.status = "REJECTED";
      t.detail = "the requirements do not admit it at these sizes and facts";
      continue;
    }
    ParamValues bindings = base;
    for (const auto& [k, x] : t.binding)
      bindings[k] = x;
    try {
      codegen::c::COptions copts{v.symbol, spec.sourcePath, RISEC_VERSION, v.strategyPath,
                                 v.target};
      codegen::CompileResult r =
          compileWithStrategy(spec.program, spec.typedEntry, v.strategyPath, copts, bindings);
      tune::LoadedKernel kernel(work / ("candidate" + std::to_string(index)), r.files, settings);
      tune::TuneProblem atCheck = problem;
      std::vector<std::map<std::string, std::int64_t>> sizeSets;
      for (const CheckSizes& c : checks) {
        atCheck.constants = facts;
        for (const auto& [k, x] : c.sizes)
          atCheck.constants[k] = x;
        if (tune::admits(atCheck, t.binding))
          sizeSets.push_back(c.sizes);
      }
      tune::CheckOutcome check = tune::checkAgainstInterpreter(kernel, spec.typedEntry, sizeSets);
      if (check.status == tune::CheckOutcome::Status::Wrong) {
        t.status = "WRONG";
        t.detail = "at " + sizesText(check.sizes) + ": " + check.detail;
      } else if (check.status == tune::CheckOutcome::Status::NotRun) {
        t.status = "REJECTED";
        t.detail = "not checked: " + check.detail;
      } else {
        t.seconds = tune::timeKernel(kernel, bench, std::max(opts.runs, 1));
        t.status = t.seconds < 0 ? "REJECTED" : "OK";
        t.detail = t.seconds < 0
                       ? "the kernel returns nonzero at the bench sizes"
                       : "checked at " + sizesText(check.sizes) +
                             (check.checked > 1 ? " and " + std::to_string(check.checked - 1) +
                                                      " larger check sizes"
                                                : "");
      }
    } catch (const tune::BuildFailure& e) {
      t.status = "BUILD FAILED";
      t.detail = e.what();
    } catch (const CompileError& e) {
      if (e.code() == "E0836")
        throw;
      t.status = "REJECTED";
      t.detail = e.code() + ": " + e.message();
    }
  }

  const Trial* winner = nullptr;
  for (const Trial& t : trials)
    if (t.status == "OK" && (!winner || t.seconds < winner->seconds))
      winner = &t;
  const Trial& base0 = trials.front();

  // 4. the log
  const std::string logLevel = level.empty() ? "native" : level;
  const fs::path logPath = folder / (fs::path(spec.path).stem().string() + "." + v.symbol + "." +
                                     logLevel + ".tune.log");
  {
    std::ofstream log(logPath);
    std::time_t now = std::time(nullptr);
    char date[64];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));
    log << "risec tune " << opts.spec << " --variant " << v.symbol << "\n"
        << "date: " << date << "\n"
        << "cpu: " << cpuModel()
        << " (best x86-64 level: " << (nativeIsaLevel().empty() ? "none" : nativeIsaLevel())
        << ")\n"
        << "level: " << logLevel << (march ? " (-march=" + level + ")" : " (facts only)")
        << "\ncompiler: " << settings.cc;
    for (const std::string& f : settings.flags)
      log << " " << f;
    if (v.target == Target::OpenMP) { // the times depend on it
      const char* threads = std::getenv("OMP_NUM_THREADS");
      log << "\nthreads: "
          << (threads
                  ? std::string("OMP_NUM_THREADS=") + threads
                  : "the OpenMP default (" + std::to_string(std::thread::hardware_concurrency()) +
                        " hardware threads)");
    }
    log << "\nbench sizes: " << sizesText(bench) << "\nruns per candidate: " << opts.runs
        << " (the best counts)\nbudget: " << opts.budget << "\n\nconstraints:\n"
        << tune::constraintsText(problem) << "\ncandidates (" << candidates.size()
        << " solutions):\n";
    for (const Trial& t : trials) {
      log << "  " << bindingText(iface, t.binding) << (t.baseline ? " [current]" : "") << ": "
          << t.status;
      if (t.seconds >= 0)
        log << " " << secondsText(t.seconds);
      if (!t.detail.empty()) {
        std::string d = t.detail.substr(0, 2000);
        std::replace(d.begin(), d.end(), '\n', ' ');
        log << " (" << d << ")";
      }
      log << "\n";
    }
    log << "\ncurrent binding: " << bindingText(iface, base0.binding) << ": " << base0.status;
    if (base0.seconds >= 0)
      log << " " << secondsText(base0.seconds);
    log << "\n";
    if (winner) {
      log << "winner: " << bindingText(iface, winner->binding) << ": "
          << secondsText(winner->seconds) << "\n";
      if (base0.seconds > 0)
        log << "ratio winner/current: " << std::setprecision(3) << winner->seconds / base0.seconds
            << "\n";
      else
        log << "ratio winner/current: none (the current binding did not run)\n";
    } else {
      log << "winner: none (no candidate was correct and ran)\n";
    }
  }
  if (!winner)
    throw CompileError("E0834", v.loc,
                       "no candidate of `" + v.symbol +
                           "` built, matched the interpreter and ran at the bench sizes; see " +
                           logPath.string());

  // 5. write back
  tune::TunedParams tuned;
  for (const elevate::StrategyParameter& p : iface.params)
    if (!p.candidates.empty())
      tuned.push_back({p.name, winner->binding.at(p.name)});
  bool written = false;
  if (!opts.noWrite) {
    std::string text = loadSource(spec.path)->text;
    std::string edited =
        tune::writeTunedParams(text, variantIndex, v.isas.empty() ? "" : level, tuned, v.loc);
    if (edited != text) {
      std::ofstream(spec.path, std::ios::binary) << edited;
      try {
        loadSpec(spec.path);
      } catch (...) {
        std::ofstream(spec.path, std::ios::binary) << text; // restore
        throw;
      }
      written = true;
    }
  }

  std::size_t ok = 0, wrong = 0, rejected = 0, notRun = 0;
  for (const Trial& t : trials)
    (t.status == "OK"        ? ok
     : t.status == "WRONG"   ? wrong
     : t.status == "NOT RUN" ? notRun
                             : rejected)++;
  out << v.symbol << " at " << logLevel << ", bench " << sizesText(bench) << ": " << trials.size()
      << " candidates, " << ok << " ok, " << wrong << " wrong, " << rejected << " rejected, "
      << notRun << " not run\n";
  out << "current  " << bindingText(iface, base0.binding) << ": "
      << (base0.seconds >= 0 ? secondsText(base0.seconds) : base0.status) << "\n";
  out << "winner   " << bindingText(iface, winner->binding) << ": " << secondsText(winner->seconds);
  if (base0.seconds > 0)
    out << " (" << std::setprecision(3) << winner->seconds / base0.seconds << " x current)";
  out << "\n";
  out << (written        ? "wrote " + tune::flowMapping(tuned) + " into " + spec.path
          : opts.noWrite ? std::string("--no-write: spec unchanged")
                         : std::string("spec already has the winner"))
      << "\nlog: " << logPath.string() << "\n";
  return 0;
}

} // namespace risec::driver
