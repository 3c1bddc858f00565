// Randomized differential test of the rewrite rules (issue 4, "Must show"):
// random well-typed high-level programs (tests/support/RandomPrograms.h) are
// rewritten by a random sequence of 1..6 applicable rules, each at a random
// position where it applies, then lowered with lowerToC; the lowered
// program's result on random inputs must equal the original program's.
//
// Every step is applied through the strategy machinery (elevate::Session), so
// the program is re-inferred after each rule and must keep its type.
//
// Oracles are Backends: only the reference interpreter runs the lowered
// program today; the C back end plugs in at the marked place below.
//
// Environment:
//   RISEC_FUZZ_ITERATIONS=N  number of programs (default 1000)
//   RISEC_FUZZ_SEED=S        first seed (default kDefaultSeed); program i
//                            uses seed S+i, so a failure printed with its seed
//                            is re-run alone with RISEC_FUZZ_SEED=<that seed>
//                            RISEC_FUZZ_ITERATIONS=1.
#include "RandomPrograms.h"
#include "elevate/Combinators.h"
#include "elevate/Path.h"
#include "elevate/Session.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"
#include "rules/LowerToC.h"
#include "rules/Rule.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace risec;
using risec::elevate::Path;
using risec::elevate::State;
using risec::rise::interp::Value;
using risec::testsupport::Rng;

namespace {

constexpr std::uint64_t kDefaultSeed = 0x5eed2024;
constexpr long kDefaultIterations = 1000;
constexpr int kMaxSteps = 6;
// f32 sums over at most ~100 elements of moderate magnitude.
constexpr double kRelativeTolerance = 1e-4;
constexpr double kAbsoluteTolerance = 1e-4;
constexpr int kMaxReportedFailures = 10;

// ---- oracles ---------------------------------------------------------------------

/// Runs a lowered program on concrete inputs. nullopt: this back end cannot
/// run the program (a known limitation, counted but not a mismatch).
class Backend {
public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual std::optional<Value> run(const rise::Program& program, const rise::TypedDef& lowered,
                                   const rise::interp::SizeEnv& sizes,
                                   const std::vector<Value>& inputs) = 0;
};

class InterpreterBackend final : public Backend {
public:
  std::string name() const override { return "interpreter"; }
  std::optional<Value> run(const rise::Program&, const rise::TypedDef& lowered,
                           const rise::interp::SizeEnv& sizes,
                           const std::vector<Value>& inputs) override {
    return rise::interp::evaluate(lowered, sizes, inputs);
  }
};

std::vector<std::unique_ptr<Backend>> backends() {
  std::vector<std::unique_ptr<Backend>> b;
  b.push_back(std::make_unique<InterpreterBackend>());
  // C BACK END: add a `CBackend` here once `codegen::compileToC` (codegen/Compile.h)
  // handles every lowered program: compile `lowered` to C, build it with a driver
  // that reads `inputs` and prints the output as JSON (see CodegenCEndToEndTest.cpp),
  // run it and parse the result with rise::interp::parseValue. To keep the regular
  // run within seconds, batch all programs of a run into one C file (one symbol per
  // program) and build it once.
  return b;
}

// ---- rule arguments -----------------------------------------------------------------

/// The length of the array a rule at `focus` works on: the last array-typed
/// argument of its spine (`map(f)(x)`, `reduce(op)(init)(x)`), or the input of
/// its function type (`map(f)`).
std::optional<rise::Type> dataType(const rise::Expr& focus) {
  rules::Spine s = rules::spineOf(focus);
  for (auto it = s.args.rbegin(); it != s.args.rend(); ++it)
    if ((*it)->type() && (*it)->type()->kind() == rise::TypeKind::Array)
      return (*it)->type();
  const rise::Type& t = focus->type();
  if (t && t->kind() == rise::TypeKind::Fun && t->param()->kind() == rise::TypeKind::Array)
    return t->param();
  return std::nullopt;
}

std::optional<std::int64_t> constSize(const rise::Type& t) {
  if (t->kind() != rise::TypeKind::Array || !t->size()->isConst())
    return std::nullopt;
  return t->size()->value();
}

std::optional<std::int64_t> randomDivisor(const std::optional<rise::Type>& t, Rng& rng) {
  if (!t)
    return std::nullopt;
  auto n = constSize(*t);
  if (!n || *n < 1)
    return std::nullopt;
  return rng.pick(testsupport::divisors(*n));
}

/// A permutation of 1..d, for reorder over a map nest of depth d.
std::vector<std::int64_t> randomPermutation(std::int64_t d, Rng& rng) {
  std::vector<std::int64_t> p;
  for (std::int64_t i = 1; i <= d; ++i)
    p.push_back(i);
  rng.shuffle(p);
  return p;
}

/// Arguments for `info` at `focus` that make sense there (a split size that
/// divides the length, ...), or nullopt when the rule cannot apply.
std::optional<std::vector<rules::RuleArg>> chooseArgs(const rules::RuleInfo& info,
                                                      const rise::Expr& focus, Rng& rng) {
  if (info.params.empty())
    return std::vector<rules::RuleArg>{};
  const std::string& n = info.name;
  if (n == "splitJoin" || n == "splitStrategy" || n == "vectorize") {
    auto k = randomDivisor(dataType(focus), rng);
    if (!k)
      return std::nullopt;
    return std::vector<rules::RuleArg>{*k};
  }
  if (n == "tile") {
    auto outer = dataType(focus);
    if (!outer || (*outer)->elem()->kind() != rise::TypeKind::Array)
      return std::nullopt;
    auto x = randomDivisor(outer, rng), y = randomDivisor((*outer)->elem(), rng);
    if (!x || !y)
      return std::nullopt;
    return std::vector<rules::RuleArg>{*x, *y};
  }
  if (n == "reorder")
    return std::vector<rules::RuleArg>{randomPermutation(rng.range(2, 3), rng)};
  if (n == "mapToGlobal" || n == "mapToWorkGroup" || n == "mapToLocal")
    return std::vector<rules::RuleArg>{rng.range(0, 2)};
  if (n == "reduceToOclSeq") {
    static const std::vector<rise::AddrSpace> kSpaces = {
        rise::AddrSpace::global(), rise::AddrSpace::local(), rise::AddrSpace::privateSpace()};
    return std::vector<rules::RuleArg>{rng.pick(kSpaces)};
  }
  return std::nullopt; // a new parameterised rule: teach chooseArgs about it
}

// ---- random rewriting --------------------------------------------------------------------

void collectPaths(const rise::Expr& e, Path& at, std::vector<Path>& out) {
  out.push_back(at);
  for (int i = 0; i < elevate::childCount(e); ++i) {
    at.push_back(i);
    collectPaths(elevate::childAt(e, i), at, out);
    at.pop_back();
  }
}

struct Rewrite {
  const rules::RuleInfo* rule;
  std::vector<rules::RuleArg> args;
  Path path;
};

/// Whether the rule applies at `path`; a copy of the name supply keeps the
/// probe from changing the session.
bool appliesAt(const Rewrite& r, const State& s, elevate::Session& session) {
  rules::NameSupply probeNames = session.names();
  rules::RuleContext ctx{probeNames, session.program(), s.typed, r.path.empty()};
  return r.rule->make(r.args)(elevate::nodeAt(s.expr, r.path), ctx).has_value();
}

/// The rules a random step chooses from: the whole registry except lowerToC,
/// which ends every sequence.
std::vector<const rules::RuleInfo*> candidateRules() {
  std::vector<const rules::RuleInfo*> v;
  for (const auto& [name, info] : rules::RuleRegistry::instance().all())
    if (name != "lowerToC")
      v.push_back(&info);
  return v;
}

/// A random applicable rule (uniform over the rules that apply somewhere) at a
/// random position where it applies.
std::optional<Rewrite> pickRewrite(const State& s, elevate::Session& session, Rng& rng) {
  std::vector<const rules::RuleInfo*> order = candidateRules();
  rng.shuffle(order);
  std::vector<Path> paths;
  Path root;
  collectPaths(s.expr, root, paths);
  for (const rules::RuleInfo* rule : order) {
    std::vector<Rewrite> found;
    for (const Path& p : paths) {
      auto args = chooseArgs(*rule, elevate::nodeAt(s.expr, p), rng);
      if (!args)
        continue;
      Rewrite r{rule, *args, p};
      if (appliesAt(r, s, session))
        found.push_back(std::move(r));
    }
    if (!found.empty())
      return rng.pick(found);
  }
  return std::nullopt;
}

// ---- lowerToC's contract ----------------------------------------------------------------

/// A primitive that lowerToC must have replaced (LowerToC.h: every remaining
/// choice is made sequentially, C has one address space). `map` may remain:
/// the access analysis keeps a map that only rearranges data as a view
/// (dpia::Repair::ViewMap).
bool unloweredChoice(rise::Prim p) {
  using rise::Prim;
  switch (p) {
  case Prim::MapPar:
  case Prim::MapGlobal:
  case Prim::MapWorkGroup:
  case Prim::MapLocal:
  case Prim::Reduce:
  case Prim::ReducePar:
  case Prim::OclReduceSeq:
  case Prim::OclToMem:
  case Prim::ToGlobal:
  case Prim::ToLocal:
  case Prim::ToPrivate:
    return true;
  default:
    return false;
  }
}

std::optional<rise::Prim> leftoverChoice(const rise::Expr& e) {
  if (e->kind() == rise::ExprKind::Primitive && unloweredChoice(e->prim()))
    return e->prim();
  for (int i = 0; i < elevate::childCount(e); ++i)
    if (auto p = leftoverChoice(elevate::childAt(e, i)))
      return p;
  return std::nullopt;
}

// ---- one program ------------------------------------------------------------------------------

struct Step {
  std::string rule; ///< display, e.g. `splitJoin(4)`
  Path path;
  std::string before, after; ///< the focus
  State state;               ///< the whole program after the step
};

std::string pathText(const Path& p) {
  std::string s = "[";
  for (std::size_t i = 0; i < p.size(); ++i)
    s += (i ? "," : "") + std::to_string(p[i]);
  return s + "]";
}

std::string printed(const rise::TypedDef& d) {
  return rise::printExpr(rules::stripImplicit(d.expr));
}

/// Everything needed to reproduce one program's run; printed on failure.
struct Run {
  std::uint64_t seed = 0;
  std::string text;
  std::vector<Step> steps;
  std::optional<Step> attempt; ///< the step being applied (reported when it throws)
  std::string lowered;

  std::string report(const std::string& what) const {
    std::ostringstream o;
    o << "rewrite fuzz failure: " << what << "\n  reproduce: RISEC_FUZZ_SEED=" << seed
      << " RISEC_FUZZ_ITERATIONS=1\n  program: " << text << "  rules:";
    if (steps.empty())
      o << " (none applied)";
    for (std::size_t i = 0; i < steps.size(); ++i)
      o << "\n    " << i + 1 << ". " << steps[i].rule << " at " << pathText(steps[i].path)
        << "\n       before: " << steps[i].before << "\n       after:  " << steps[i].after;
    if (attempt)
      o << "\n    " << steps.size() + 1 << ". " << attempt->rule << " at "
        << pathText(attempt->path) << " (this step failed)\n       before: " << attempt->before;
    o << "\n  ; lowerToC\n";
    if (!steps.empty())
      o << "  rewritten: " << printed(steps.back().state.typed) << "\n";
    if (!lowered.empty())
      o << "  lowered:   " << lowered << "\n";
    return o.str();
  }
};

struct Stats {
  long programs = 0;
  long steps = 0;
  long withoutRewrite = 0; ///< programs where no rule applied anywhere
  std::map<std::string, long> applications;
  std::map<std::string, long> unsupported; ///< per back end: programs it could not run
  long failures = 0;
  long knownFailures = 0;
  /// Per known bug: how many programs hit it, and the first seed that did.
  std::map<std::string, std::pair<long, std::uint64_t>> known;
};

/// Failures the lead has been told about and will fix in the rules or in
/// inference; a report matches when it contains every one of `all`. Keep this
/// list short and explicit, with the reason; remove an entry once the bug is
/// fixed (the test then counts its cases as real failures again).
struct KnownBug {
  std::vector<const char*> all;
  const char* reason;
};
const std::vector<KnownBug> kKnownBugs = {};

const KnownBug* knownBug(const std::string& report) {
  for (const KnownBug& b : kKnownBugs) {
    bool all = true;
    for (const char* part : b.all)
      all = all && report.find(part) != std::string::npos;
    if (all)
      return &b;
  }
  return nullptr;
}

std::string valueText(const Value& v) {
  std::string s = rise::interp::valueToJson(v);
  return s.size() > 400 ? s.substr(0, 400) + "..." : s;
}

class Fuzzer {
public:
  explicit Fuzzer(Stats& stats) : stats_(stats), backends_(backends()) {}

  /// Runs program `seed`; returns the failure report, or "" when it passed.
  std::string runOne(std::uint64_t seed);

private:
  std::string rewriteAndCheck(Run& run, const rise::Program& program, const rise::TypedDef& def,
                              Rng& rng);
  std::string compare(Run& run, const rise::Program& program, const rise::TypedDef& def,
                      const rise::TypedDef& lowered, Rng& rng);
  std::string firstDivergence(const Run& run, const rise::TypedDef& def,
                              const std::vector<Value>& inputs, const Value& expected);

  Stats& stats_;
  std::vector<std::unique_ptr<Backend>> backends_;
};

std::string Fuzzer::runOne(std::uint64_t seed) {
  Rng rng(seed);
  Run run;
  run.seed = seed;
  run.text = testsupport::randomProgram(rng).text;
  ++stats_.programs;
  rise::Program program;
  rise::TypedDef def;
  try {
    program = rise::parseProgram(rise::makeSourceFile("fuzz.rise", run.text));
    def = rise::inferDef(program, "f");
  } catch (const CompileError& e) {
    return run.report("generator bug: the program does not type-check (" + e.code() + ": " +
                      e.message() + ")");
  }
  return rewriteAndCheck(run, program, def, rng);
}

std::string Fuzzer::rewriteAndCheck(Run& run, const rise::Program& program,
                                    const rise::TypedDef& def, Rng& rng) {
  elevate::Session session(program, def);
  State s = session.initial();
  const int length = static_cast<int>(rng.range(1, kMaxSteps));
  try {
    for (int i = 0; i < length; ++i) {
      auto r = pickRewrite(s, session, rng);
      if (!r)
        break;
      elevate::StrategyPtr rule = elevate::namedRule(r->rule->name, r->args, {});
      run.attempt =
          Step{rule->display(), r->path, rise::printExpr(elevate::nodeAt(s.expr, r->path)), "", s};
      auto next = rule->apply(s, r->path, session);
      if (!next)
        return run.report("`" + rule->display() + "` applied when probed but failed at " +
                          pathText(r->path));
      run.attempt->after = rise::printExpr(elevate::nodeAt(next->expr, r->path));
      run.attempt->state = *next;
      run.steps.push_back(*run.attempt);
      run.attempt.reset();
      ++stats_.applications[r->rule->name];
      ++stats_.steps;
      s = *next;
      if (!rise::typeEqual(s.typed.type, def.type))
        return run.report("the type changed to " + rise::typeToString(s.typed.type));
    }
  } catch (const std::exception& e) {
    return run.report(std::string("a rule broke the program: ") + e.what());
  }
  if (run.steps.empty())
    ++stats_.withoutRewrite;
  rise::TypedDef lowered;
  try {
    lowered = rules::lowerToC(program, s.typed);
    run.lowered = printed(lowered);
  } catch (const std::exception& e) {
    return run.report(std::string("lowerToC failed: ") + e.what());
  }
  if (!rise::typeEqual(lowered.type, def.type))
    return run.report("lowerToC changed the type to " + rise::typeToString(lowered.type));
  if (auto p = leftoverChoice(lowered.expr))
    return run.report("lowerToC left `" + std::string(rise::primName(*p)) + "` in the program");
  return compare(run, program, def, lowered, rng);
}

std::string Fuzzer::compare(Run& run, const rise::Program& program, const rise::TypedDef& def,
                            const rise::TypedDef& lowered, Rng& rng) {
  const rise::interp::SizeEnv sizes; // every size is a constant
  std::vector<Value> inputs;
  Value expected;
  try {
    for (const rise::Type& t : rise::interp::instantiateEntry(def, sizes).inputTypes)
      inputs.push_back(rise::interp::randomValue(t, rng.engine()));
    expected = rise::interp::evaluate(def, sizes, inputs);
  } catch (const std::exception& e) {
    return run.report(std::string("generator bug: the original program does not run: ") + e.what());
  }
  for (auto& backend : backends_) {
    std::optional<Value> actual;
    try {
      actual = backend->run(program, lowered, sizes, inputs);
    } catch (const std::exception& e) {
      return run.report(backend->name() + " failed on the lowered program: " + e.what());
    }
    if (!actual) {
      ++stats_.unsupported[backend->name()];
      continue;
    }
    std::string why;
    if (!rise::interp::valuesClose(*actual, expected, kRelativeTolerance, kAbsoluteTolerance, &why))
      return run.report(backend->name() + " result differs " + why + "\n  expected: " +
                        valueText(expected) + "\n  actual:   " + valueText(*actual) + "\n  " +
                        firstDivergence(run, def, inputs, expected));
  }
  return "";
}

/// Which step first changed the meaning (the interpreter on each intermediate).
std::string Fuzzer::firstDivergence(const Run& run, const rise::TypedDef&,
                                    const std::vector<Value>& inputs, const Value& expected) {
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    try {
      Value v = rise::interp::evaluate(run.steps[i].state.typed, {}, inputs);
      if (!rise::interp::valuesClose(v, expected, kRelativeTolerance, kAbsoluteTolerance))
        return "first differing step: " + std::to_string(i + 1) + " (" + run.steps[i].rule + ")";
    } catch (const std::exception& e) {
      return "step " + std::to_string(i + 1) + " does not evaluate: " + e.what();
    }
  }
  return "first differing step: lowerToC";
}

// ---- the test
// -------------------------------------------------------------------------------------

std::uint64_t envNumber(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

void printStats(const Stats& s, std::uint64_t seed, double seconds) {
  std::cout << "[rewrite fuzz] seed " << seed << ": " << s.programs << " programs, " << s.steps
            << " rule applications, " << s.withoutRewrite
            << " programs without an applicable rule, " << s.failures << " failures ("
            << s.knownFailures << " known), " << std::fixed << std::setprecision(2) << seconds
            << " s\n";
  for (const auto& [reason, hits] : s.known)
    std::cout << "[rewrite fuzz] known bug, " << hits.first << " programs (first seed "
              << hits.second << "): " << reason << "\n";
  for (const auto& [backend, n] : s.unsupported)
    std::cout << "[rewrite fuzz] " << backend << " could not run " << n << " programs\n";
  std::cout << "[rewrite fuzz] applications per rule:\n";
  for (const auto& [name, info] : rules::RuleRegistry::instance().all()) {
    if (name == "lowerToC")
      continue;
    auto it = s.applications.find(name);
    long n = it == s.applications.end() ? 0 : it->second;
    std::cout << "  " << std::left << std::setw(24) << name << std::right << std::setw(7) << n
              << (n == 0 ? "   <- never applied" : "") << "\n";
  }
  std::cout << "  " << std::left << std::setw(24) << "lowerToC" << std::right << std::setw(7)
            << s.programs << "   (ends every sequence)\n";
}

TEST(RewriteFuzz, RandomRuleSequencesPreserveTheMeaning) {
  const std::uint64_t seed = envNumber("RISEC_FUZZ_SEED", kDefaultSeed);
  const long iterations = static_cast<long>(envNumber("RISEC_FUZZ_ITERATIONS", kDefaultIterations));
  Stats stats;
  Fuzzer fuzzer(stats);
  auto start = std::chrono::steady_clock::now();
  int reported = 0;
  for (long i = 0; i < iterations; ++i) {
    std::string failure = fuzzer.runOne(seed + static_cast<std::uint64_t>(i));
    if (failure.empty())
      continue;
    if (const KnownBug* b = knownBug(failure)) {
      ++stats.knownFailures;
      auto [it, first] = stats.known.try_emplace(b->reason, 0, seed + i);
      ++it->second.first;
      continue;
    }
    ++stats.failures;
    if (reported++ < kMaxReportedFailures)
      ADD_FAILURE() << failure;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  printStats(stats, seed, seconds);
  EXPECT_EQ(stats.failures, 0) << "see the failures above (at most " << kMaxReportedFailures
                               << " are printed)";
  EXPECT_EQ(stats.withoutRewrite * 10 < stats.programs, true)
      << "too many programs without an applicable rule: the generator lost its variety";
}

/// The generator itself: deterministic per seed, and every program type-checks.
TEST(RewriteFuzz, GeneratorIsDeterministicAndWellTyped) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    Rng a(seed), b(seed);
    std::string text = testsupport::randomProgram(a).text;
    ASSERT_EQ(text, testsupport::randomProgram(b).text);
    try {
      rise::inferDef(rise::parseProgram(rise::makeSourceFile("gen.rise", text)), "f");
    } catch (const CompileError& e) {
      ADD_FAILURE() << "seed " << seed << ": " << e.message() << "\n" << text;
    }
  }
}

} // namespace
