// Differential fuzzer of the OpenCL back end (issue 13, deliverable 4;
// docs/fuzzing.md): random low-level programs (tests/support/
// RandomOclPrograms.h) are compiled in-process for --target opencl and run
// on PoCL (tests/support/OclRunner.h) at a few launch configurations and
// sizes, against the reference interpreter on the same random inputs.
//
// Every program must end in one of two ways:
//   - rejected with a user diagnostic (a CompileError with a code and a
//     known source location), or
//   - compiled, and every launch computes the interpreter's result.
// Failures: a type error (the generator made an ill-typed program), an
// internal error (the compiler crashed on a well-typed program), a
// diagnostic without a location, a run failure (the kernel did not build or
// launch, or the runner crashed) and a mismatch. Each failure is printed with
// a reproducer: the seed, the program, the sizes and the launch.
//
// Environment:
//   RISEC_OCL_FUZZ_COUNT=N   number of programs (default 300)
//   RISEC_OCL_FUZZ_SEED=S    first seed (default kDefaultSeed); program i uses
//                            seed S+i, so RISEC_OCL_FUZZ_SEED=<seed>
//                            RISEC_OCL_FUZZ_COUNT=1 re-runs one program
//   RISEC_OCL_FUZZ_VERBOSE=1 print every program and its outcome
//   RISEC_OCL_FUZZ_DUMP=DIR  write each failing program's reproducer to
//                            DIR/seed-<seed>.rise
//   RISEC_OCL_FUZZ_PROCESSES=P  runner processes at a time (default 2)
//   RISEC_OCL_FUZZ_RUN=0     generate and compile only (no PoCL): checks the
//                            generator and the rejections quickly
//   RISEC_OCL_FUZZ_REPRO=F   OclFuzz.Reproducer runs the one program in file F
//                            (a failure's reproducer, tests/fuzz-findings/)
// OclFuzz.FindingsStayFixed runs tests/fuzz-findings/*.rise.
#include "OclRunner.h"
#include "RandomOclPrograms.h"
#include "TestFiles.h"

#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace risec;
using namespace risec::testsupport;
using risec::rise::interp::SizeEnv;
using risec::rise::interp::Value;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kDefaultSeed = 0x0c1f0220;
constexpr long kDefaultCount = 300;
/// Size environments run per program (of those meeting its preconditions).
constexpr std::size_t kSizesPerProgram = 2;
// f32 sums over a few dozen elements, in the same order as the interpreter.
constexpr double kRelativeTolerance = 1e-4;
constexpr double kAbsoluteTolerance = 1e-4;
constexpr int kMaxReportedFailures = 20;
/// Compiled programs run by one runner process (PoCL starts once per batch).
constexpr std::size_t kBatchPrograms = 100;

/// Compiler bugs the fuzzer found that are not fixed yet: the seed, and the
/// reproducer under tests/fuzz-findings/. Their failures are reported as
/// known (and do not fail the test); a seed listed here that passes fails
/// the test, so that the entry is removed with the fix.
/// (None in the default range at present: tests/fuzz-findings/README.md
/// lists the open findings and the seeds that found them.)
const std::map<std::uint64_t, std::string> kKnownFindings = {};

long envLong(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtol(v, nullptr, 0) : fallback;
}

std::uint64_t envSeed() {
  const char* v = std::getenv("RISEC_OCL_FUZZ_SEED");
  return v && *v ? std::strtoull(v, nullptr, 0) : kDefaultSeed;
}

/// Whether the front end knows oclIterate (added with issue 13): then the
/// generator uses it besides iterate.
bool frontEndKnowsOclIterate() {
  const std::string probe =
      "def p = depFun(n: Nat => fun(xs: (4*n).f32 => xs |> split(4) |> mapWorkGroup(0)(fun(c =>\n"
      "  c |> oclIterate(Local)(1)(depFun(l: Nat => fun(ys => ys |> split(2)\n"
      "    |> mapLocal(0)(oclReduceSeq(Private)(add)(0.0f)))))))))\n";
  try {
    rise::Program program = rise::parseProgram(rise::makeSourceFile("probe.rise", probe));
    rise::inferDef(program, "p");
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

struct Stats {
  long generated = 0, typeErrors = 0, rejected = 0, internalErrors = 0, unlocated = 0, compiled = 0,
       run = 0, launches = 0, matching = 0, mismatches = 0, runFailures = 0, noSizes = 0, known = 0,
       distributed = 0;
  double compileSeconds = 0, runSeconds = 0;
  std::map<std::string, long> byCode;

  std::string summary(std::uint64_t seed) const {
    std::ostringstream os;
    os << "OclFuzz summary: " << generated << " programs (seeds " << seed << ".."
       << seed + static_cast<std::uint64_t>(generated) - 1 << "), rejected " << rejected;
    if (!byCode.empty()) {
      os << " (";
      bool first = true;
      for (const auto& [code, n] : byCode) {
        os << (first ? "" : ", ") << code << " " << n;
        first = false;
      }
      os << ")";
    }
    os << ", compiled " << compiled << ", run " << run << " (" << launches << " launches"
       << (noSizes ? ", " + std::to_string(noSizes) + " without valid sizes" : "") << "), matching "
       << matching << ", mismatches " << mismatches << ", run failures " << runFailures
       << ", internal errors " << internalErrors << ", type errors " << typeErrors
       << ", diagnostics without location " << unlocated << ", known findings " << known
       << ", with private arrays distributed for a launch known at compile time " << distributed;
    return os.str();
  }
};

std::string truncated(const std::string& s, std::size_t n = 600) {
  return s.size() <= n ? s : s.substr(0, n) + "...";
}

std::string sizesText(const SizeEnv& s) {
  std::string t;
  for (const auto& [k, v] : s)
    t += (t.empty() ? "" : ",") + k + "=" + std::to_string(v);
  return t.empty() ? "(none)" : t;
}

class Fuzzer {
public:
  Fuzzer(std::uint64_t firstSeed, OclRunner& runner, const OclGeneratorOptions& opts)
      : firstSeed_(firstSeed), runner_(runner), opts_(opts) {
    if (const char* d = std::getenv("RISEC_OCL_FUZZ_DUMP"); d && *d)
      dump_ = d;
    verbose_ = envLong("RISEC_OCL_FUZZ_VERBOSE", 0) != 0;
    runKernels_ = envLong("RISEC_OCL_FUZZ_RUN", 1) != 0;
  }

  /// Generates, checks and compiles program `seed`; a compiled one waits
  /// for runPending with its jobs and the interpreter's results.
  void prepare(std::uint64_t seed);
  /// Runs the waiting programs in one batch (OclRunner::runBatch) and
  /// compares their results.
  void runPending();
  std::size_t pendingCount() const { return pending_.size(); }
  const Stats& stats() const { return stats_; }
  const std::vector<std::string>& failures() const { return failures_; }
  const std::vector<std::string>& knownFailures() const { return knownFailures_; }
  const std::set<std::uint64_t>& failingSeeds() const { return failingSeeds_; }

private:
  struct Pending;
  /// Compiles the program of `whole` again for its first launch within the
  /// contract, known at compile time (`risec compile --launch`): when that
  /// distributes private arrays over the work-items (docs/dpia.md,
  /// "Temporaries"), runs that kernel too, at that launch.
  void withLaunchKnown(const Pending& whole);
  /// Records a failure of program `seed` with its reproducer.
  void fail(std::uint64_t seed, const RandomOclProgram& p, const std::string& kind,
            const std::string& details);

  struct Pending {
    std::uint64_t seed = 0;
    RandomOclProgram program;
    CompiledKernel kernel;
    std::vector<OclRunner::Job> jobs;
    std::vector<Value> expected;    ///< per job
    std::vector<std::string> notes; ///< per job: RandomOclProgram::launchNotes
  };

  std::uint64_t firstSeed_;
  OclRunner& runner_;
  OclGeneratorOptions opts_;
  Stats stats_;
  std::vector<std::string> failures_, knownFailures_;
  std::set<std::uint64_t> failingSeeds_;
  std::vector<std::unique_ptr<Pending>> pending_;
  std::string dump_;
  bool verbose_ = false;
  bool runKernels_ = true;
};

void Fuzzer::fail(std::uint64_t seed, const RandomOclProgram& p, const std::string& kind,
                  const std::string& details) {
  std::ostringstream os;
  os << "---- " << kind << ", seed " << seed << " (re-run: RISEC_OCL_FUZZ_SEED=" << seed
     << " RISEC_OCL_FUZZ_COUNT=1 build/tests/OclFuzzTest)\n"
     << p.describe() << details << "\n";
  failingSeeds_.insert(seed);
  if (auto it = kKnownFindings.find(seed); it != kKnownFindings.end()) {
    ++stats_.known;
    knownFailures_.push_back("known finding " + it->second + ":\n" + os.str());
  } else {
    failures_.push_back(os.str());
  }
  if (!dump_.empty()) {
    std::error_code ec;
    fs::create_directories(dump_, ec);
    std::ofstream(fs::path(dump_) / ("seed-" + std::to_string(seed) + ".rise"))
        << "// " << kind << ", seed " << seed << "\n"
        << p.describe() << "/*\n"
        << details << "\n*/\n";
  }
}

void Fuzzer::prepare(std::uint64_t seed) {
  Rng rng(seed);
  OclGeneratorOptions opts = opts_;
  opts.entry = "k" + std::to_string(seed); // distinct kernel names share one OpenCL program
  RandomOclProgram p = randomOclProgram(rng, opts);
  ++stats_.generated;
  const std::string name = "fuzz" + std::to_string(seed) + ".rise";
  if (verbose_)
    std::cout << "==== seed " << seed << " (" << p.shape << ")\n" << p.describe() << std::flush;

  // The generator's contract: a well-typed program.
  try {
    rise::Program program = rise::parseProgram(rise::makeSourceFile(name, p.text));
    rise::inferDef(program, p.entry);
  } catch (const CompileError& e) {
    ++stats_.typeErrors;
    fail(seed, p, "type error (a generator bug)",
         e.code() + " at " + e.location().str() + ": " + e.message());
    return;
  } catch (const std::exception& e) {
    ++stats_.internalErrors;
    fail(seed, p, "internal error in parse/infer", e.what());
    return;
  }

  auto t0 = std::chrono::steady_clock::now();
  OclCompileOutcome c = compileOpenCL(name, p.text, "", p.entry);
  stats_.compileSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (verbose_)
    std::cout << "-> " << c.describe() << "\n";
  if (c.status == OclCompileOutcome::Status::Rejected ||
      c.status == OclCompileOutcome::Status::TypeError) {
    ++stats_.rejected;
    ++stats_.byCode[c.error->code()];
    if (!c.error->location().known()) {
      ++stats_.unlocated;
      fail(seed, p, "diagnostic without a source location", c.describe());
    }
    return;
  }
  if (c.status == OclCompileOutcome::Status::Internal) {
    ++stats_.internalErrors;
    fail(seed, p, "internal error", c.internal);
    return;
  }
  ++stats_.compiled;
  auto pending = std::make_unique<Pending>();
  pending->seed = seed;
  pending->program = p;
  pending->kernel = std::move(*c.kernel);
  const CompiledKernel& kernel = pending->kernel;
  std::string why;
  if (!OclRunner::supports(kernel, &why)) {
    ++stats_.runFailures;
    fail(seed, p, "the runner cannot feed the kernel", why);
    return;
  }

  // Sizes that meet the preconditions, inputs, the interpreter's results.
  std::size_t sizesRun = 0;
  for (const SizeEnv& s : p.sizes) {
    if (sizesRun == kSizesPerProgram)
      break;
    rise::interp::EntryInterface iface;
    try {
      iface = rise::interp::instantiateEntry(kernel.def, s);
    } catch (const CompileError&) { // a precondition fails: the host check's business
      continue;
    }
    std::mt19937_64 valueRng(seed * 7919 + sizesRun);
    std::vector<Value> inputs;
    for (const rise::Type& t : iface.inputTypes)
      inputs.push_back(rise::interp::randomValue(t, valueRng));
    Value want;
    try {
      want = rise::interp::evaluate(kernel.def, s, inputs);
    } catch (const std::exception& e) {
      ++stats_.runFailures;
      fail(seed, p, "the interpreter failed",
           std::string("sizes ") + sizesText(s) + ": " + e.what());
      return;
    }
    ++sizesRun;
    for (std::size_t l = 0; l < p.launches.size(); ++l) {
      pending->jobs.push_back({s, inputs, p.launches[l]});
      pending->expected.push_back(want);
      pending->notes.push_back(p.launchNotes.at(l));
    }
  }
  if (pending->jobs.empty()) {
    ++stats_.noSizes;
    return;
  }
  ++stats_.run;
  stats_.launches += static_cast<long>(pending->jobs.size());
  pending_.push_back(std::move(pending));
  withLaunchKnown(*pending_.back());
}

void Fuzzer::withLaunchKnown(const Pending& whole) {
  const RandomOclProgram& p = whole.program;
  auto first = std::find(whole.notes.begin(), whole.notes.end(), std::string());
  if (first == whole.notes.end())
    return;
  const Launch launch = whole.jobs[static_cast<std::size_t>(first - whole.notes.begin())].launch;
  std::string global = "global=[", local = "local=[";
  for (unsigned d = 0; d < launch.dims; ++d) {
    global += (d ? "," : "") + std::to_string(launch.global[d]);
    local += (d ? "," : "") + std::to_string(launch.local[d]);
  }
  const std::string given = global + "]," + local + "]";
  // another kernel name: the kernels of a batch share one OpenCL program
  std::string text = p.text, entry = p.entry + "_launch";
  std::size_t at = text.find("def " + p.entry + " ");
  if (at == std::string::npos)
    return;
  text.replace(at, 4 + p.entry.size(), "def " + entry);
  OclCompileOutcome c =
      compileOpenCL("fuzz" + std::to_string(whole.seed) + ".rise", text, "", entry, given);
  if (c.status == OclCompileOutcome::Status::Internal) {
    ++stats_.internalErrors;
    fail(whole.seed, p, "internal error with --launch '" + given + "'", c.internal);
    return;
  }
  if (!c.compiled() ||
      c.kernel->result.files.source.find("reqd_work_group_size") == std::string::npos)
    return; // rejected for this launch (E0515), or nothing distributed
  ++stats_.distributed;
  auto d = std::make_unique<Pending>();
  d->seed = whole.seed;
  d->program = p;
  d->kernel = std::move(*c.kernel);
  for (std::size_t j = 0; j < whole.jobs.size(); ++j)
    if (whole.notes[j].empty() && whole.jobs[j].launch.str() == launch.str()) {
      d->jobs.push_back(whole.jobs[j]);
      d->expected.push_back(whole.expected[j]);
      d->notes.push_back("the launch known at compile time: --launch '" + given + "'");
    }
  ++stats_.run;
  stats_.launches += static_cast<long>(d->jobs.size());
  pending_.push_back(std::move(d));
}

void Fuzzer::runPending() {
  if (!runKernels_) { // RISEC_OCL_FUZZ_RUN=0: compile only
    stats_.run -= static_cast<long>(pending_.size());
    pending_.clear();
    return;
  }
  std::vector<OclRunner::BatchJob> batch;
  for (const auto& p : pending_)
    for (const OclRunner::Job& j : p->jobs)
      batch.push_back({&p->kernel, j});
  auto t1 = std::chrono::steady_clock::now();
  std::vector<OclRunResult> results = runner_.runBatch(batch);
  stats_.runSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  std::size_t at = 0;
  for (const auto& p : pending_) {
    bool ok = true;
    for (std::size_t j = 0; j < p->jobs.size(); ++j, ++at) {
      if (!ok)
        continue;
      const OclRunResult& r = results[at];
      const OclRunner::Job& job = p->jobs[j];
      std::string where = "sizes " + sizesText(job.sizes) + ", " + job.launch.str() +
                          (p->notes[j].empty() ? "" : " (" + p->notes[j] + ")");
      std::string kind = p->notes[j].empty() ? "" : " with " + p->notes[j];
      if (!r.ok()) {
        ok = false;
        ++stats_.runFailures;
        fail(p->seed, p->program, "run failure" + kind,
             where + ": " + truncated(r.error, 2000) + "\n" + p->kernel.result.files.source);
        continue;
      }
      std::string diff;
      if (!rise::interp::valuesClose(*r.output, p->expected[j], kRelativeTolerance,
                                     kAbsoluteTolerance, &diff)) {
        ok = false;
        ++stats_.mismatches;
        std::ostringstream d;
        d << where << ": " << diff << "\n  expected "
          << truncated(rise::interp::valueToJson(p->expected[j])) << "\n  got      "
          << truncated(rise::interp::valueToJson(*r.output)) << "\n"
          << p->kernel.result.files.source;
        fail(p->seed, p->program, "MISMATCH" + kind, d.str());
      }
    }
    if (ok)
      ++stats_.matching;
    if (verbose_)
      std::cout << "seed " << p->seed << ": " << (ok ? "match" : "FAILED") << " (" << p->jobs.size()
                << " launches)\n";
  }
  pending_.clear();
}

TEST(OclFuzz, RandomProgramsAreRejectedOrComputeTheInterpretersResult) {
  const long count = envLong("RISEC_OCL_FUZZ_COUNT", kDefaultCount);
  const std::uint64_t seed = envSeed();
  OclRunner runner(fs::temp_directory_path() / ("risec-ocl-fuzz-" + std::to_string(::getpid())));
  ASSERT_TRUE(runner.ok()) << runner.buildLog();
  // Two runner processes (the machines have two cores or more); PoCL's
  // `loops` work-group method compiles about twice as fast as its default
  // (which adds a vectoriser) and runs the same work-group semantics.
  runner.setProcesses(static_cast<std::size_t>(envLong("RISEC_OCL_FUZZ_PROCESSES", 2)));
  runner.setEnvironment("POCL_WORK_GROUP_METHOD=loops");
  OclGeneratorOptions opts;
  opts.oclIterate = frontEndKnowsOclIterate();

  auto start = std::chrono::steady_clock::now();
  Fuzzer fuzzer(seed, runner, opts);
  for (long i = 0; i < count; ++i) {
    fuzzer.prepare(seed + static_cast<std::uint64_t>(i));
    if (fuzzer.pendingCount() >= kBatchPrograms)
      fuzzer.runPending();
  }
  fuzzer.runPending();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const Stats& s = fuzzer.stats();
  int shown = 0;
  for (const std::string& f : fuzzer.failures())
    if (shown++ < kMaxReportedFailures)
      std::cout << f;
  for (const std::string& f : fuzzer.knownFailures())
    std::cout << f;
  std::cout << s.summary(seed) << " [" << static_cast<long>(seconds) << " s: compiling "
            << static_cast<long>(s.compileSeconds) << " s, running "
            << static_cast<long>(s.runSeconds) << " s; oclIterate "
            << (opts.oclIterate ? "on" : "off") << "]\n";
  if (!fuzzer.failingSeeds().empty()) {
    std::cout << "failing seeds:";
    for (std::uint64_t f : fuzzer.failingSeeds())
      std::cout << " " << f;
    std::cout << "\n";
  }
  EXPECT_TRUE(fuzzer.failures().empty())
      << fuzzer.failures().size() << " failures (printed above; the first " << kMaxReportedFailures
      << ")";
  // A known finding inside this run's seeds that passes now: remove it.
  for (const auto& [known, file] : kKnownFindings) {
    if (known >= seed && known < seed + static_cast<std::uint64_t>(count)) {
      EXPECT_TRUE(fuzzer.failingSeeds().count(known))
          << "seed " << known << " (" << file << ") passes now; remove it from kKnownFindings";
    }
  }
  // The generator must keep exercising both outcomes.
  if (count >= 100 && envLong("RISEC_OCL_FUZZ_RUN", 1) != 0) {
    EXPECT_GE(s.run * 4, s.generated) << "fewer than a quarter of the programs ran";
    EXPECT_GE(s.rejected * 10, s.generated) << "fewer than a tenth were rejected";
  }
  if (!HasFailure()) // the runner's directory is kept on failure
    fs::remove_all(runner.dir());
}

// ---- reproducers ------------------------------------------------------------------

/// `global 4x6 local 2x3` (Launch::str) into `l`.
bool parseLaunch(const std::string& text, Launch& l) {
  std::istringstream in(text);
  std::string g, gs, lw, ls;
  if (!(in >> g >> gs >> lw >> ls) || g != "global" || lw != "local")
    return false;
  auto dims = [](const std::string& s, std::size_t* out) {
    unsigned n = 0;
    std::istringstream part(s);
    for (std::string d; std::getline(part, d, 'x') && n < 3;)
      out[n++] = std::stoul(d);
    return n;
  };
  l.dims = dims(gs, l.global);
  return l.dims >= 1 && dims(ls, l.local) == l.dims;
}

/// Runs the program in `file` as a failure report (or a file in
/// tests/fuzz-findings/) gives it, with its `// sizes:` and `// launches:`
/// comment lines (RandomOclProgram::describe): it must be rejected with a
/// located diagnostic, or every launch must compute the interpreter's result
/// (inputs from seed 1). With `withinContract`, launches whose note says
/// "outside the launch contract" are left out. Prints the outcome, the
/// kernel when `verbose`, and every result.
void checkProgramFile(const fs::path& file, bool withinContract, bool verbose) {
  std::ifstream in(file);
  ASSERT_TRUE(in) << "cannot read " << file;
  std::string text, line;
  std::vector<Launch> launches;
  std::vector<SizeEnv> sizes;
  while (std::getline(in, line)) {
    text += line + "\n";
    if (line.rfind("// launches:", 0) == 0) {
      for (std::size_t at = line.find('['); at != std::string::npos; at = line.find('[', at + 1)) {
        Launch l;
        std::size_t end = line.find_first_of(",]", at);
        ASSERT_TRUE(parseLaunch(line.substr(at + 1, end - at - 1), l)) << line;
        std::size_t close = line.find(']', at);
        if (withinContract &&
            line.substr(at, close - at).find("outside the launch contract") != std::string::npos)
          continue;
        launches.push_back(l);
      }
    } else if (line.rfind("// sizes:", 0) == 0) {
      std::istringstream envs(line.substr(9));
      for (std::string env; envs >> env;) {
        SizeEnv s;
        std::istringstream kv(env);
        for (std::string item; std::getline(kv, item, ',');)
          s[item.substr(0, item.find('='))] = std::stoll(item.substr(item.find('=') + 1));
        sizes.push_back(s);
      }
    }
  }
  if (sizes.empty())
    sizes.push_back({});
  ASSERT_FALSE(launches.empty()) << "no `// launches:` line in " << file;
  OclCompileOutcome c = compileOpenCL(file.filename().string(), text);
  std::cout << file.filename().string() << ": " << c.describe() << "\n";
  if (!c.compiled()) {
    EXPECT_NE(c.status, OclCompileOutcome::Status::Internal) << c.internal;
    if (c.error) {
      EXPECT_TRUE(c.error->location().known()) << "a diagnostic without a location";
    }
    return;
  }
  OclRunner& runner = defaultOclRunner();
  ASSERT_TRUE(runner.ok()) << runner.buildLog();
  const CompiledKernel& kernel = *c.kernel;
  if (verbose)
    std::cout << kernel.result.files.source;
  for (const SizeEnv& s : sizes) {
    rise::interp::EntryInterface iface;
    try {
      iface = rise::interp::instantiateEntry(kernel.def, s);
    } catch (const CompileError& e) {
      std::cout << "sizes " << sizesText(s) << ": skipped (" << e.message() << ")\n";
      continue;
    }
    std::mt19937_64 valueRng(1);
    std::vector<Value> inputs;
    for (const rise::Type& t : iface.inputTypes)
      inputs.push_back(rise::interp::randomValue(t, valueRng));
    Value want = rise::interp::evaluate(kernel.def, s, inputs);
    std::vector<OclRunResult> results = runner.run(kernel, s, inputs, launches);
    for (std::size_t i = 0; i < launches.size(); ++i) {
      const OclRunResult& r = results[i];
      std::cout << "sizes " << sizesText(s) << ", " << launches[i].str() << ":\n  expected "
                << truncated(rise::interp::valueToJson(want), 2000) << "\n  got      "
                << (r.ok() ? truncated(rise::interp::valueToJson(*r.output), 2000)
                           : "rc " + std::to_string(r.rc))
                << "\n";
      ASSERT_TRUE(r.ok()) << r.error;
      std::string why;
      EXPECT_TRUE(
          rise::interp::valuesClose(*r.output, want, kRelativeTolerance, kAbsoluteTolerance, &why))
          << file.filename() << ", " << launches[i].str() << ": " << why;
    }
  }
}

/// RISEC_OCL_FUZZ_REPRO=FILE.rise: runs that one program, every launch of
/// it (docs/fuzzing.md, "Reproducing a failure"). Skipped without the
/// variable.
TEST(OclFuzz, Reproducer) {
  const char* file = std::getenv("RISEC_OCL_FUZZ_REPRO");
  if (!file || !*file)
    GTEST_SKIP() << "set RISEC_OCL_FUZZ_REPRO=FILE.rise to run one program";
  checkProgramFile(file, false, true);
}

/// The fuzzer's findings (tests/fuzz-findings/) stay fixed: each is rejected
/// with a located diagnostic or computes the interpreter's result at its
/// launches within the launch contract.
TEST(OclFuzz, FindingsStayFixed) {
  fs::path dir = fs::path(RISEC_TEST_DATA) / "fuzz-findings";
  int files = 0;
  for (const std::string& f : risec::test::filesWithExtension(dir, ".rise")) {
    SCOPED_TRACE(f);
    checkProgramFile(dir / f, true, false);
    ++files;
  }
  EXPECT_GE(files, 3);
}

} // namespace
