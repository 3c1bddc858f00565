// Randomized differential test of the rewrite rules (issue 4, "Must show"):
// random well-typed high-level programs (tests/support/RandomPrograms.h) are
// rewritten by a random sequence of 1..6 applicable rules, each at a random
// position where it applies, then lowered with lowerToC; the lowered
// program's result on random inputs must equal the original program's.
//
// Every step is applied through the strategy machinery (elevate::Session), so
// the program is re-inferred after each rule and must keep its type.
//
// Oracles: the reference interpreter runs the lowered program (a Backend),
// and the C back end compiles it (codegen::compileToC) and runs the C on the
// same inputs. To keep the regular run fast the C of kBatchSize programs is
// built into one program (tests/support/CKernelRunner.h, KernelBatch: one
// translation unit, one driver, one gcc run) and run once; a batch that does
// not build is retried kernel by kernel to name the offending program.
//
// Environment:
//   RISEC_FUZZ_ITERATIONS=N  number of programs (default 1000)
//   RISEC_FUZZ_BACKENDS=L    comma-separated oracles: `interp`, `c` (default
//                            both); `interp` alone skips the C back end
//   RISEC_FUZZ_SEED=S        first seed (default kDefaultSeed); program i
//                            uses seed S+i, so a failure printed with its seed
//                            is re-run alone with RISEC_FUZZ_SEED=<that seed>
//                            RISEC_FUZZ_ITERATIONS=1 (which also prints the
//                            report of a known bug). Two programs whose C
//                            builds alone but not in one batch are reported
//                            together, with the range that batches them again.
//
// RewriteFuzz.FindingsStayFixed runs the findings (tests/fuzz-findings/rewrite/,
// docs/fuzzing.md): each program rewritten by its strategy, its C built into
// one translation unit with the others' and compared with the interpreter.
#include "CKernelRunner.h"
#include "RandomPrograms.h"
#include "TestFiles.h"
#include "codegen/Compile.h"
#include "elevate/Combinators.h"
#include "elevate/Path.h"
#include "elevate/Rewriter.h"
#include "elevate/Session.h"
#include "elevate/StrategyFile.h"
#include "lower/LowerToC.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "rise/print/Printer.h"
#include "rules/Rule.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

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
/// Programs whose C is built into one executable.
constexpr std::size_t kBatchSize = 250;
/// 1 in kDefaultOmpShare seeds is also compiled for OpenMP (Fuzzer::parallelise);
/// fewer in sanitizer builds, where each gcc run costs several times more.
#ifdef RISEC_E2E_SANITIZE
constexpr std::uint64_t kDefaultOmpShare = 10;
#else
constexpr std::uint64_t kDefaultOmpShare = 2;
#endif

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
  return b;
}

/// Whether RISEC_FUZZ_BACKENDS (default: all) names `name`.
bool backendEnabled(const std::string& name) {
  const char* v = std::getenv("RISEC_FUZZ_BACKENDS");
  if (!v || !*v)
    return true;
  std::string list = std::string(",") + v + ",";
  return list.find("," + name + ",") != std::string::npos;
}

// ---- the coverage tally ----------------------------------------------------------------

/// The primitives the generator claims to cover (RandomPrograms.h); the
/// default run must use each in at least one program.
const std::vector<const char*> kClaimedPrimitives = {
    "map", "reduce", "zip", "split", "join", "transpose", "slide", "padCst",
    "add", "sub",    "mul", "neg",   "fabs", "max",       "fst",   "snd"};

/// Rules the default run need not reach, each with the reason: a shape the
/// generator cannot make, or makes too rarely to count on in 1,000 programs.
/// Every rule not listed must be applied at least once by the default run.
/// (A listed rule that is applied is only noted in the tally.)
const std::map<std::string, const char*> kUnreachedRules = {
    {"fissionReduceInit", "needs a reduction whose initial value depends on the map's "
                          "variable; the generator's reductions start from constants"},
    {"iterateToOcl", "needs `iterate`, which the generator does not make"},
    {"scanToSeq", "needs `scan`, which the generator does not make"},
    {"scanBlocked", "needs `scan`, which the generator does not make"},
    {"scanBlockedPadded", "needs `scan`, which the generator does not make"},
    {"stageTiles", "needs a matrix-matrix nest (a reduction of zip(row, column) inside two "
                   "maps over arrays of rows); the generator's nests combine scalars"},
    {"vectorReduceRows", "needs reductions of zip(row, b) with b shared by the rows of a map; "
                         "the generator makes them too rarely (0 in 1,000 programs)"},
    {"padCstRows", "needs transpose |> map(padCst) |> transpose; the generator pads the outer "
                   "dimension"},
    // Rules of the stencil and pair families (Stencil.cpp, Pairs): their shapes
    // (unzip, pairs of arrays, slide inside zip, take of a pair) appear only
    // after other rules made them, in some runs and not others.
    {"mapOutsidePair", "a map over pairs of arrays: only after other rules"},
    {"mapProjZipUnification", "map(fst/snd) of a zip: only after other rules"},
    {"slideInsideZip", "a zip of two slides of one array: only after other rules"},
    {"slideOutsideZip", "slide of a zip: only after other rules"},
    {"storeUnzipped", "toMem of an array of pairs: only after storeInMemory of a zip"},
    {"takeOutsidePair", "take of a pair of arrays: only after other rules"},
    {"zipUnzipAccessSimplification", "zip(unzip(...)): only after other rules"},
    {"mapOutsideZip", "zip of two maps of one function: only after other rules"},
    {"isAppliedPair", "a pair applied as a function: only after other rules"},
    {"isAppliedUnzip", "unzip applied as a function: only after other rules"},
    {"fstReduction", "fst of a reduction of pairs: only after other rules (0-2 per run)"},
    {"sndReduction", "snd of a reduction of pairs: only after other rules (0-2 per run)"},
    {"hoistToMem", "a toMem inside a map that does not use the map's variable: only after "
                   "storeInMemory there (0-1 per run)"},
    {"storePerWindow", "slide of a toMem: only after storeInMemory before a slide"},
    {"padCstBeforeMap", "padCst of a map of paddings with the same constant: 0-1 per run "
                        "(1 with seeds 11 and 12, 0 with the default seed)"},
    {"storeBeforeViews", "let(toMem(V(e))) with V views of a computed e: only after "
                         "storeInMemory(what, how) or storeArgument of such a value (Shine's "
                         "packB in specs/mm.array-packing.elevate)"},
    {"circularBufferLoadFusion", "circularBuffer of a map (a stage before a slide): "
                                 "0 in the default run"},
};

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
  if (n == "splitJoin2") { // the focus is the array split
    auto k = randomDivisor(focus->type() ? std::optional(focus->type()) : std::nullopt, rng);
    if (!k)
      return std::nullopt;
    return std::vector<rules::RuleArg>{*k};
  }
  if (n == "splitJoin" || n == "splitStrategy" || n == "blockedReduce" || n == "vectorize") {
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
  if (n == "padTile") // any tile sizes: the padding makes every size a multiple
    return std::vector<rules::RuleArg>{rng.range(1, 5), rng.range(1, 5)};
  if (n == "reorder")
    return std::vector<rules::RuleArg>{randomPermutation(rng.range(2, 3), rng)};
  // any sizes: a tail takes what the chunks or the vector part leave
  if (n == "splitReduceSeq" || n == "peelTail")
    return std::vector<rules::RuleArg>{rng.range(1, 5)};
  if (n == "peelReduce" || n == "padMap") // a tail or padding: any sizes
    return std::vector<rules::RuleArg>{rng.range(1, 5)};
  if (n == "slideStrips") // the last strip padded: any sizes; strips of at least 2
    return std::vector<rules::RuleArg>{rng.range(2, 5)};
  // vectorised reductions: any sizes are correct (a scalar tail, rows left over)
  if (n == "vectorReduce")
    return std::vector<rules::RuleArg>{rng.range(1, 4), rng.range(1, 3)};
  if (n == "vectorReduceChunks" || n == "vectorReduceRows")
    return std::vector<rules::RuleArg>{rng.range(1, 4), rng.range(1, 3), rng.range(1, 3)};
  if (n == "mapToGlobal" || n == "mapToWorkGroup" || n == "mapToLocal")
    return std::vector<rules::RuleArg>{rng.range(0, 2)};
  if (n == "padNest") // the padding makes any tile sizes fit
    return std::vector<rules::RuleArg>{rng.range(1, 5), rng.range(1, 5)};
  if (n == "padReduce" || n == "scanBlocked" || n == "scanBlockedPadded" ||
      n == "reduceInWorkGroup")
    return std::vector<rules::RuleArg>{rng.range(1, 5)};
  if (n == "reduceToWorkGroups")
    return std::vector<rules::RuleArg>{rng.range(1, 4), rng.range(1, 4)};
  if (n == "reduceToWorkGroupsBlocked")
    return std::vector<rules::RuleArg>{rng.range(1, 4), rng.range(1, 4), rng.range(1, 4)};
  if (n == "stageTiles")
    return std::vector<rules::RuleArg>{rng.range(1, 4), rng.range(1, 4), rng.range(1, 4)};
  if (n == "reduceToOclSeq" || n == "iterateToOcl" || n == "reduceSeqToOcl" || n == "toMemIn" ||
      n == "circularBuffer") {
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
  rules::RuleContext ctx{probeNames, session.program(), s.typed, r.path.empty(), {}};
  return r.rule->make(r.args)(elevate::nodeAt(s.expr, r.path), ctx).has_value();
}

/// The rules a random step chooses from: the rewrite rules of generator/rules
/// (lowerToC, the lowering stage's rule, ends every sequence).
std::vector<const rules::RuleInfo*> candidateRules() {
  std::vector<const rules::RuleInfo*> v;
  for (const auto& [name, info] : rules::RuleRegistry::instance().all())
    v.push_back(&info);
  return v;
}

/// `rule` at a random position of `paths` where it applies.
std::optional<Rewrite> pickPosition(const rules::RuleInfo& rule, const State& s,
                                    const std::vector<Path>& paths, elevate::Session& session,
                                    Rng& rng) {
  std::vector<Rewrite> found;
  for (const Path& p : paths) {
    auto args = chooseArgs(rule, elevate::nodeAt(s.expr, p), rng);
    if (!args)
      continue;
    Rewrite r{&rule, *args, p};
    if (appliesAt(r, s, session))
      found.push_back(std::move(r));
  }
  if (found.empty())
    return std::nullopt;
  return rng.pick(found);
}

/// A random applicable rule (uniform over the rules that apply somewhere) at a
/// random position where it applies.
std::optional<Rewrite> pickRewrite(const State& s, elevate::Session& session, Rng& rng) {
  std::vector<const rules::RuleInfo*> order = candidateRules();
  rng.shuffle(order);
  std::vector<Path> paths;
  Path root;
  collectPaths(s.expr, root, paths);
  for (const rules::RuleInfo* rule : order)
    if (auto r = pickPosition(*rule, s, paths, session, rng))
      return r;
  return std::nullopt;
}

// ---- lowerToC's contract ----------------------------------------------------------------

/// A primitive that lowerToC must have replaced (LowerToC.h: every remaining
/// choice is made sequentially, C has one address space). `map` may remain:
/// the access analysis keeps a map that only rearranges data as a view
/// (lower::Repair::ViewMap, lower/AccessAnalysis.h).
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
  std::string finding; ///< a file of tests/fuzz-findings/rewrite/ (then no seed)
  std::string text;
  std::vector<Step> steps;
  std::optional<Step> attempt; ///< the step being applied (reported when it throws)
  std::string lowered;

  /// The rules applied, e.g. `vectorize(4) at [1,0]; storeInMemory at []`.
  std::string rules() const {
    std::string s;
    for (const Step& step : steps)
      s += (s.empty() ? "" : "; ") + step.rule + " at " + pathText(step.path);
    return s.empty() ? "(none applied)" : s;
  }

  std::string report(const std::string& what) const {
    std::ostringstream o;
    o << "rewrite fuzz failure: " << what;
    if (finding.empty())
      o << "\n  reproduce: RISEC_FUZZ_SEED=" << seed << " RISEC_FUZZ_ITERATIONS=1";
    else
      o << "\n  finding: " << finding;
    o << "\n  program: " << text << "  rules:";
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

/// One batch oracle's counts (C, or OpenMP).
struct OracleStats {
  long compared = 0; ///< programs whose C ran (at every thread count) and matched
  long batches = 0;
  double compileSeconds = 0, buildSeconds = 0, runSeconds = 0;
};

struct Stats {
  long programs = 0;
  long steps = 0;
  long withoutRewrite = 0; ///< programs where no rule applied anywhere
  /// The coverage tally: rewrite rules applied, over all programs (each of
  /// them is lowered and compiled for C) ...
  std::map<std::string, long> applications;
  /// ... and over the programs compiled for OpenMP, their rewrite rules and
  /// the parallelising rules applied after them (Fuzzer::parallelise).
  std::map<std::string, long> ompApplications;
  /// Per primitive: the generated programs that use it (once per program).
  std::map<std::string, long> primitives;
  std::map<std::string, long> unsupported; ///< per back end: programs it could not run
  OracleStats c, omp;
  long ompPrograms = 0;        ///< programs given to the OpenMP back end
  long ompWithoutParallel = 0; ///< ... where no parallelising rule applied
  /// Per error code: programs that the OpenMP legality check refused (E062x).
  std::map<std::string, long> ompRefused;
  long failures = 0;
  long knownFailures = 0;
  /// Per known bug: how many programs hit it, and the first seed that did.
  std::map<std::string, std::pair<long, std::uint64_t>> known;
};

/// Programs the C back end rejects with a documented "not supported yet"
/// diagnostic (docs/dpia.md, Limitations): they are counted and reported, not
/// compared. A report matches when it contains every one of `all`. Keep this
/// list short and explicit; remove an entry once the limitation is lifted
/// (the test then counts its cases as real failures again). Wrong results
/// never belong here.
struct KnownBug {
  std::vector<const char*> all;
  const char* reason;
};
const std::vector<KnownBug> kKnownBugs = {
    {{"the C back end cannot compile the lowered program",
      "` inside a function that a view applies on access"},
     "C back end limitation (E0699, codegen/c): a computation that must be stored (a `toMem` "
     "that lowerToC or storeInMemory puts there, a `reduceSeqUnroll` that liftReduce puts into "
     "a `generate`) inside a function applied by a view (a map kept as a view, `generate`) is "
     "rejected"},
    {{"the C back end cannot compile the lowered program", "(vec[", "has no memory layout"},
     "C back end limitation (E0699): a temporary array of pairs holding vectors of a width "
     "other than 2, 4, 8 or 16 (a `zip` of `asVector(3)` results stored by toMem) has no "
     "memory layout; those of these widths are arrays of structs with vector fields"},
};

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

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Whether a diagnostic is the OpenMP legality check refusing a parallel
/// mapping (E0620-E0629, docs/errors.md): a fine outcome for a random
/// parallelisation, counted per code.
bool ompLegalityCode(const std::string& code) {
  return code.rfind("E062", 0) == 0;
}

/// The C or OpenMP back end as an oracle, in batches: add() compiles a
/// program to C at once (a compile error is reported with the program);
/// flush() builds the batch's C into one executable (for OpenMP with
/// -fopenmp), runs it on every program's inputs (OpenMP: once with
/// OMP_NUM_THREADS=1 and once with 2) and compares with the expected results.
class CBatchOracle {
public:
  explicit CBatchOracle(Stats& stats, codegen::Target target = codegen::Target::C)
      : stats_(stats), target_(target),
        os_(target == codegen::Target::OpenMP ? stats.omp : stats.c) {}
  ~CBatchOracle() {
    if (!keepDir_ && !dir_.empty())
      std::filesystem::remove_all(dir_);
  }

  std::string add(const Run& run, const rise::Program& program, const rise::TypedDef& lowered,
                  const std::vector<Value>& inputs, const Value& expected);
  std::size_t pending() const { return pending_.size(); }
  /// Runs the pending programs; returns a failure report per failing one.
  std::vector<std::string> flush();

private:
  struct Pending {
    Run run;
    int id;
    rise::Type outputType;
    std::string record;
    std::vector<Value> inputs;
    Value expected;
    std::string source; ///< the generated C
  };
  std::string failure(const Pending& p, const std::string& what) const;
  std::string check(const Pending& p, const std::string& output) const;
  bool openmp() const { return target_ == codegen::Target::OpenMP; }
  /// The environments of the runs: OMP_NUM_THREADS=1 and =2 for OpenMP.
  std::vector<std::string> environments() const {
    if (openmp())
      return {"OMP_NUM_THREADS=1", "OMP_NUM_THREADS=2"};
    return {""};
  }
  std::string name() const { return openmp() ? "OpenMP" : "C"; }

  Stats& stats_;
  codegen::Target target_;
  OracleStats& os_;
  std::filesystem::path dir_;
  std::unique_ptr<testsupport::KernelBatch> batch_;
  std::vector<Pending> pending_;
  long next_ = 0;
  bool keepDir_ = false;
};

std::string CBatchOracle::add(const Run& run, const rise::Program& program,
                              const rise::TypedDef& lowered, const std::vector<Value>& inputs,
                              const Value& expected) {
  if (!batch_) {
    dir_ = std::filesystem::temp_directory_path() /
           ("risec-fuzz-" + std::string(openmp() ? "omp-" : "") + std::to_string(::getpid()) + "-" +
            std::to_string(os_.batches));
    std::filesystem::remove_all(dir_);
    batch_ = std::make_unique<testsupport::KernelBatch>(dir_);
  }
  std::string symbol = (openmp() ? "fuzzomp_" : "fuzz_") + std::to_string(next_++);
  auto start = std::chrono::steady_clock::now();
  codegen::CompileResult c;
  const std::string prefix = openmp() ? "OpenMP: " : "";
  try {
    c = codegen::compileToC(program, lowered, {symbol, "fuzz.rise", "fuzz", "", target_});
  } catch (const CompileError& e) {
    if (openmp() && ompLegalityCode(e.code())) {
      ++stats_.ompRefused[e.code()];
      return "";
    }
    return run.report(prefix + "the C back end cannot compile the lowered program: " + e.what());
  } catch (const std::exception& e) {
    return run.report(prefix + "the C back end cannot compile the lowered program: " + e.what());
  }
  os_.compileSeconds += secondsSince(start);
  if (openmp()) {
    // The program as lowered for OpenMP (mapPar and reducePar kept) must
    // compute the same in the interpreter: a wrong lowering is told apart
    // from wrong C.
    std::string why;
    try {
      if (!rise::interp::valuesClose(rise::interp::evaluate(c.lowered, {}, inputs), expected,
                                     kRelativeTolerance, kAbsoluteTolerance, &why))
        return run.report("OpenMP: the interpreter on the program lowered for OpenMP differs " +
                          why + "\n  lowered for OpenMP: " + printed(c.lowered));
    } catch (const std::exception& e) {
      return run.report(std::string("OpenMP: the program lowered for OpenMP does not evaluate: ") +
                        e.what() + "\n  lowered for OpenMP: " + printed(c.lowered));
    }
  }
  int id = batch_->add(symbol, lowered, 0, c.files);
  const rise::interp::SizeEnv sizes;
  pending_.push_back({run, id, rise::interp::instantiateEntry(lowered, sizes).outputType,
                      testsupport::inputRecord(lowered, {}, sizes, inputs), inputs, expected,
                      c.files.source});
  return "";
}

std::string CBatchOracle::failure(const Pending& p, const std::string& what) const {
  std::string inputs;
  for (std::size_t i = 0; i < p.inputs.size(); ++i)
    inputs += "\n  input " + std::to_string(i) + ": " + valueText(p.inputs[i]);
  return p.run.report(name() + " back end (kernel " + batch_->symbol(p.id) + " in " +
                      dir_.string() + "): " + what + inputs + "\n  generated C:\n" + p.source);
}

std::string CBatchOracle::check(const Pending& p, const std::string& output) const {
  std::vector<std::string> tok = testsupport::tokens(output);
  if (tok.size() < 2 || tok[0] != "rc")
    return failure(p, "no result printed; the driver said:\n" + output.substr(0, 1000));
  if (tok[1] != "0")
    return failure(p, "the kernel returned " + tok[1] + " (all sizes are constants)");
  Value actual;
  std::size_t pos = 2;
  try {
    actual = testsupport::unflatten(p.outputType, tok, pos);
  } catch (const std::exception& e) {
    return failure(p, std::string("cannot read the output: ") + e.what());
  }
  if (pos != tok.size())
    return failure(p, "the output has " + std::to_string(tok.size() - 2) + " words, expected " +
                          std::to_string(pos - 2));
  std::string why;
  if (!rise::interp::valuesClose(actual, p.expected, kRelativeTolerance, kAbsoluteTolerance, &why))
    return failure(p, "result differs " + why + " (the interpreter agrees with the original " +
                          "on the lowered program)\n  expected: " + valueText(p.expected) +
                          "\n  actual:   " + valueText(actual));
  return "";
}

std::vector<std::string> CBatchOracle::flush() {
  std::vector<std::string> failures;
  if (pending_.empty()) {
    batch_.reset();
    return failures;
  }
  ++os_.batches;
  const std::string cc = "gcc",
                    flags = testsupport::defaultCFlags() + (openmp() ? " -fopenmp" : "");
  auto start = std::chrono::steady_clock::now();
  // Build the batch; while it does not build, set aside the kernels that the
  // compiler's messages name (`fuzz_N.c:`): those that do not build alone
  // are failures; when all of them build alone, they clash with each other
  // in one translation unit (e.g. the same struct defined twice) and are
  // reported together, with the seeds that put them into one batch again.
  // Then build the others (a later pass of the compiler may find more).
  std::vector<Pending> runnable = std::move(pending_);
  bool built = false;
  while (!runnable.empty()) {
    std::vector<int> ids;
    for (const Pending& p : runnable)
      ids.push_back(p.id);
    std::string log;
    if (batch_->build(cc, flags, log, ids) == 0) {
      built = true;
      break;
    }
    auto names = [&](const Pending& p) {
      return log.find(batch_->symbol(p.id) + ".c:") != std::string::npos;
    };
    std::vector<Pending> others;
    std::vector<Pending*> alone; // named, and build alone
    bool failedAlone = false;
    for (Pending& p : runnable) {
      std::string one;
      if (!names(p)) {
        others.push_back(std::move(p));
      } else if (batch_->build(cc, flags, one, {p.id}) != 0) {
        failures.push_back(failure(p, "gcc " + flags + " rejects the generated C:\n" + one));
        failedAlone = true;
      } else {
        alone.push_back(&p);
      }
    }
    std::string what = "the batch of C kernels in " + dir_.string() + " does not build";
    if (!failedAlone && alone.empty()) {
      failures.push_back(what + " and its messages name no kernel:\n" + log);
      break;
    }
    if (failedAlone) { // the others named were named along with those (notes)
      for (Pending* p : alone)
        others.push_back(std::move(*p));
    } else {
      std::string clash;
      std::uint64_t first = ~std::uint64_t{0}, last = 0;
      bool seeds = true;
      for (const Pending* p : alone) {
        const Run& r = p->run;
        seeds = seeds && r.finding.empty();
        clash += "\n  " + batch_->symbol(p->id) + " (" +
                 (r.finding.empty() ? "seed " + std::to_string(r.seed) + "): " + r.text +
                                          "    rules: " + r.rules() + "; lowerToC"
                                    : r.finding + ")");
        first = std::min(first, r.seed);
        last = std::max(last, r.seed);
      }
      std::string reproduce;
      if (seeds)
        reproduce = "\n  reproduce: RISEC_FUZZ_SEED=" + std::to_string(first) +
                    " RISEC_FUZZ_ITERATIONS=" + std::to_string(last - first + 1);
      failures.push_back(what + " although each kernel builds alone; these clash in one " +
                         "translation unit:" + clash + reproduce + "\n  gcc said:\n" + log);
    }
    runnable = std::move(others);
  }
  os_.buildSeconds += secondsSince(start);
  start = std::chrono::steady_clock::now();
  if (built) {
    std::vector<std::pair<int, std::string>> records;
    for (const Pending& p : runnable)
      records.push_back({p.id, p.record});
    std::vector<bool> failed(runnable.size(), false);
    for (const std::string& env : environments()) {
      const std::string with = env.empty() ? "" : " with " + env;
      std::vector<std::string> outputs;
      std::string raw;
      int st = batch_->run(records, outputs, raw, env);
      for (std::size_t i = 0; i < runnable.size(); ++i) {
        if (failed[i])
          continue;
        std::string output = outputs[i];
        if (st != 0) {
          // a crash or a read error: run each program alone to find the culprit
          std::vector<std::string> one;
          int st1 = batch_->run({records[i]}, one, raw, env);
          output = one[0];
          if (st1 != 0) {
            failures.push_back(failure(runnable[i], "the driver exited with " +
                                                        std::to_string(st1) + with + ":\n" +
                                                        raw.substr(0, 1000)));
            failed[i] = true;
            continue;
          }
        }
        std::string f = check(runnable[i], output);
        if (!f.empty()) {
          if (!with.empty())
            f.insert(f.find('\n') == std::string::npos ? f.size() : f.find('\n'),
                     " (run" + with + ")");
          failures.push_back(f);
          failed[i] = true;
        }
      }
    }
    for (std::size_t i = 0; i < runnable.size(); ++i)
      os_.compared += failed[i] ? 0 : 1;
  }
  os_.runSeconds += secondsSince(start);
  keepDir_ = keepDir_ || !failures.empty();
  if (!keepDir_)
    std::filesystem::remove_all(dir_);
  pending_.clear();
  batch_.reset();
  return failures;
}

class Fuzzer {
public:
  explicit Fuzzer(Stats& stats, std::uint64_t ompShare)
      : stats_(stats), backends_(backends()), ompShare_(ompShare) {
    if (backendEnabled("c"))
      c_ = std::make_unique<CBatchOracle>(stats);
    if (backendEnabled("openmp") && ompShare_ > 0)
      omp_ = std::make_unique<CBatchOracle>(stats, codegen::Target::OpenMP);
  }

  /// Runs program `seed`; returns the failure report, or "" when it passed
  /// (or its C is pending: see flushC).
  std::string runOne(std::uint64_t seed);
  /// Runs the C of the pending programs when there are `atLeast` of them;
  /// returns their failure reports.
  std::vector<std::string> flushC(std::size_t atLeast) {
    std::vector<std::string> failures;
    for (CBatchOracle* o : {c_.get(), omp_.get()})
      if (o && o->pending() >= atLeast && o->pending() > 0)
        for (std::string& f : o->flush())
          failures.push_back(std::move(f));
    return failures;
  }

private:
  std::string rewriteAndCheck(Run& run, const rise::Program& program, const rise::TypedDef& def,
                              Rng& rng);
  std::string compare(Run& run, const rise::Program& program, const rise::TypedDef& def,
                      const rise::TypedDef& lowered, Rng& rng, std::vector<Value>& inputs,
                      Value& expected);
  std::string parallelise(Run run, const rise::Program& program, const rise::TypedDef& def,
                          elevate::Session& session, State s, const std::vector<Value>& inputs,
                          const Value& expected);
  std::string firstDivergence(const Run& run, const rise::TypedDef& def,
                              const std::vector<Value>& inputs, const Value& expected);

  Stats& stats_;
  std::vector<std::unique_ptr<Backend>> backends_;
  std::unique_ptr<CBatchOracle> c_;
  std::uint64_t ompShare_;            ///< 1 in ompShare_ seeds also goes to OpenMP (0: none)
  std::unique_ptr<CBatchOracle> omp_; ///< --target openmp, run at 1 and 2 threads
};

/// The primitives of `e`, each once.
void collectPrimitives(const rise::Expr& e, std::set<std::string>& out) {
  if (e->kind() == rise::ExprKind::Primitive)
    out.insert(std::string(rise::primName(e->prim())));
  for (int i = 0; i < elevate::childCount(e); ++i)
    collectPrimitives(elevate::childAt(e, i), out);
}

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
  std::set<std::string> prims;
  collectPrimitives(def.expr, prims);
  for (const std::string& p : prims)
    ++stats_.primitives[p];
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
    lowered = lower::lowerToC(program, s.typed);
    run.lowered = printed(lowered);
  } catch (const std::exception& e) {
    return run.report(std::string("lowerToC failed: ") + e.what());
  }
  if (!rise::typeEqual(lowered.type, def.type))
    return run.report("lowerToC changed the type to " + rise::typeToString(lowered.type));
  if (auto p = leftoverChoice(lowered.expr))
    return run.report("lowerToC left `" + std::string(rise::primName(*p)) + "` in the program");
  std::vector<Value> inputs;
  Value expected;
  std::string failure = compare(run, program, def, lowered, rng, inputs, expected);
  if (!failure.empty() || !omp_ || run.seed % ompShare_ != 0)
    return failure;
  return parallelise(run, program, def, session, s, inputs, expected);
}

/// The OpenMP part of a program (1 in ompShare_ seeds): the rewritten program
/// (before lowerToC) gets 1 to 3 parallelising rules at random positions
/// where they apply (`parallel`: map or mapSeq -> mapPar, mostly; `mapToPar`;
/// `reduceToPar`), is compiled with --target openmp (whose lowerToC keeps
/// mapPar and reducePar), and its C runs at 1 and 2 threads. A refusal by the
/// OpenMP legality check (E062x: nested parallel loops, an array reduced in
/// parallel, ...) is fine and counted; anything else must match. The choices
/// come from a stream of their own, so a seed's C part is as it was without
/// OpenMP.
std::string Fuzzer::parallelise(Run run, const rise::Program& program, const rise::TypedDef& def,
                                elevate::Session& session, State s,
                                const std::vector<Value>& inputs, const Value& expected) {
  Rng rng(run.seed ^ 0x0be9a11e15ULL);
  ++stats_.ompPrograms;
  for (const Step& step : run.steps)
    ++stats_.ompApplications[step.rule.substr(0, step.rule.find('('))];
  const auto& registry = rules::RuleRegistry::instance().all();
  const int wanted = static_cast<int>(rng.range(1, 3));
  int applied = 0;
  try {
    for (int i = 0; i < wanted; ++i) {
      std::vector<std::string> names = {"parallel", "parallel", "mapToPar", "reduceToPar"};
      rng.shuffle(names);
      std::vector<Path> paths;
      Path root;
      collectPaths(s.expr, root, paths);
      std::optional<Rewrite> r;
      for (const std::string& n : names)
        if (auto it = registry.find(n); it != registry.end())
          if ((r = pickPosition(it->second, s, paths, session, rng)))
            break;
      if (!r)
        break;
      elevate::StrategyPtr rule = elevate::namedRule(r->rule->name, r->args, {});
      run.attempt = Step{rule->display() + " [openmp]", r->path,
                         rise::printExpr(elevate::nodeAt(s.expr, r->path)), "", s};
      auto next = rule->apply(s, r->path, session);
      if (!next)
        return run.report("OpenMP: `" + rule->display() + "` applied when probed but failed at " +
                          pathText(r->path));
      run.attempt->after = rise::printExpr(elevate::nodeAt(next->expr, r->path));
      run.attempt->state = *next;
      run.steps.push_back(*run.attempt);
      run.attempt.reset();
      ++stats_.ompApplications[r->rule->name];
      ++applied;
      s = *next;
      if (!rise::typeEqual(s.typed.type, def.type))
        return run.report("OpenMP: the type changed to " + rise::typeToString(s.typed.type));
    }
  } catch (const std::exception& e) {
    return run.report(std::string("OpenMP: a parallelising rule broke the program: ") + e.what());
  }
  if (applied == 0)
    ++stats_.ompWithoutParallel;
  run.lowered.clear(); // compileToC lowers for OpenMP itself
  return omp_->add(run, program, s.typed, inputs, expected);
}

std::string Fuzzer::compare(Run& run, const rise::Program& program, const rise::TypedDef& def,
                            const rise::TypedDef& lowered, Rng& rng, std::vector<Value>& inputs,
                            Value& expected) {
  const rise::interp::SizeEnv sizes; // every size is a constant
  try {
    for (const rise::Type& t : rise::interp::instantiateEntry(def, sizes).inputTypes)
      inputs.push_back(rise::interp::randomValue(t, rng.engine()));
    expected = rise::interp::evaluate(def, sizes, inputs);
  } catch (const std::exception& e) {
    return run.report(std::string("generator bug: the original program does not run: ") + e.what());
  }
  for (auto& backend : backends_) {
    if (!backendEnabled("interp"))
      break;
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
  if (c_)
    return c_->add(run, program, lowered, inputs, expected);
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

/// The coverage tally: programs per primitive, applications per rule and
/// target (C: every program; OpenMP: the share compiled for OpenMP, its
/// rewrite rules and the parallelising rules).
std::string tallyText(const Stats& s) {
  std::ostringstream o;
  o << "[rewrite fuzz] programs using each primitive (of " << s.programs << "):\n";
  for (const auto& [name, n] : s.primitives)
    o << "  " << std::left << std::setw(30) << name << std::right << std::setw(7) << n << "\n";
  o << "[rewrite fuzz] applications per rule (C: " << s.programs
    << " programs; OpenMP: " << s.ompPrograms << "):\n  " << std::left << std::setw(30) << "rule"
    << std::right << std::setw(7) << "C" << std::setw(8) << "OpenMP"
    << "\n";
  auto count = [](const std::map<std::string, long>& m, const std::string& k) {
    auto it = m.find(k);
    return it == m.end() ? 0L : it->second;
  };
  for (const auto& [name, info] : rules::RuleRegistry::instance().all()) {
    long c = count(s.applications, name), omp = count(s.ompApplications, name);
    o << "  " << std::left << std::setw(30) << name << std::right << std::setw(7) << c
      << std::setw(8) << omp << (c + omp == 0 ? "   <- never applied" : "") << "\n";
  }
  o << "  " << std::left << std::setw(30) << "lowerToC" << std::right << std::setw(7) << s.programs
    << std::setw(8) << s.ompPrograms << "   (ends every sequence)\n";
  return o.str();
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
  if (s.c.batches > 0)
    std::cout << "[rewrite fuzz] C back end: " << s.c.compared << " programs compared in "
              << s.c.batches << " batches; compileToC " << s.c.compileSeconds << " s, gcc "
              << s.c.buildSeconds << " s, runs " << s.c.runSeconds << " s\n";
  if (s.ompPrograms > 0) {
    std::string refused;
    long nRefused = 0;
    for (const auto& [code, n] : s.ompRefused) {
      refused += (refused.empty() ? "" : ", ") + code + " " + std::to_string(n);
      nRefused += n;
    }
    std::cout << "[rewrite fuzz] OpenMP back end: " << s.ompPrograms << " programs ("
              << s.ompWithoutParallel << " without a parallel map or reduction), refused "
              << nRefused << (refused.empty() ? "" : " (" + refused + ")") << ", " << s.omp.compared
              << " compared at OMP_NUM_THREADS=1 and 2 in " << s.omp.batches
              << " batches; compileToC " << s.omp.compileSeconds << " s, gcc " << s.omp.buildSeconds
              << " s, runs " << s.omp.runSeconds << " s\n";
  }
  const std::string tally = tallyText(s);
  std::cout << tally;
  if (const char* file = std::getenv("RISEC_FUZZ_TALLY"); file && *file)
    std::ofstream(file) << tally;
}

TEST(RewriteFuzz, RandomRuleSequencesPreserveTheMeaning) {
  const std::uint64_t seed = envNumber("RISEC_FUZZ_SEED", kDefaultSeed);
  const long iterations = static_cast<long>(envNumber("RISEC_FUZZ_ITERATIONS", kDefaultIterations));
  const std::uint64_t ompShare = envNumber("RISEC_FUZZ_OMP_SHARE", kDefaultOmpShare);
  Stats stats;
  Fuzzer fuzzer(stats, ompShare);
  auto start = std::chrono::steady_clock::now();
  int reported = 0;
  auto handle = [&](const std::string& failure, std::uint64_t programSeed) {
    if (failure.empty())
      return;
    if (auto at = failure.find("RISEC_FUZZ_SEED="); at != std::string::npos)
      programSeed = std::strtoull(failure.c_str() + at + 16, nullptr, 10);
    if (const KnownBug* b = knownBug(failure)) {
      ++stats.knownFailures;
      if (iterations == 1) // a seed re-run alone: show what the known bug looks like
        std::cout << "[rewrite fuzz] known bug:\n" << failure << "\n";
      auto [it, first] = stats.known.try_emplace(b->reason, 0, programSeed);
      ++it->second.first;
      return;
    }
    ++stats.failures;
    if (reported++ < kMaxReportedFailures)
      ADD_FAILURE() << failure;
  };
  for (long i = 0; i < iterations; ++i) {
    handle(fuzzer.runOne(seed + static_cast<std::uint64_t>(i)), seed + i);
    for (const std::string& f : fuzzer.flushC(i + 1 == iterations ? 1 : kBatchSize))
      handle(f, seed + i);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  printStats(stats, seed, seconds);
  EXPECT_EQ(stats.failures, 0) << "see the failures above (at most " << kMaxReportedFailures
                               << " are printed)";
  EXPECT_EQ(stats.withoutRewrite * 10 < stats.programs, true)
      << "too many programs without an applicable rule: the generator lost its variety"; // The
                                                                                         // coverage
                                                                                         // tally of
                                                                                         // the
                                                                                         // default
                                                                                         // run
                                                                                         // (what
                                                                                         // the
                                                                                         // CTest
                                                                                         // runs):
                                                                                         // every
  // primitive the generator claims and every rule not excluded is reached.
  if (seed == kDefaultSeed && iterations == kDefaultIterations && ompShare == kDefaultOmpShare) {
    for (const char* p : kClaimedPrimitives)
      EXPECT_GT(stats.primitives[p], 0) << "no generated program uses `" << p << "`";
    for (const auto& [name, info] : rules::RuleRegistry::instance().all()) {
      const long n = stats.applications[name] + stats.ompApplications[name];
      EXPECT_TRUE(kUnreachedRules.count(name) > 0 || n > 0)
          << "the rule `" << name << "` was never applied: extend the generator "
          << "(tests/support/RandomPrograms.cpp) or chooseArgs, or exclude it with a reason";
    }
    for (const char* r : {"parallel", "reduceToPar"})
      EXPECT_GT(stats.ompApplications[r], 0) << "OpenMP programs without `" << r << "`";
    EXPECT_GT(stats.omp.compared, 0) << "no OpenMP program ran";
  }
}

/// The fuzzer's findings (tests/fuzz-findings/rewrite/*.rise, docs/fuzzing.md)
/// stay fixed. Each file holds one or more defs and a strategy in its
/// `// strategy:` lines; every def is rewritten by the strategy and lowered,
/// must keep its meaning in the interpreter, and its C is built with every
/// other def's (of all files) into one translation unit, as the fuzzer
/// builds its batches, run and compared with the original def's result.
TEST(RewriteFuzz, FindingsStayFixed) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(RISEC_TEST_DATA) / "fuzz-findings" / "rewrite";
  Stats stats;
  CBatchOracle c(stats), omp(stats, codegen::Target::OpenMP);
  int kernels = 0, ompKernels = 0;
  const std::vector<std::string> files = risec::test::filesWithExtension(dir, ".rise");
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const std::string text = risec::test::readFile(dir / file);
    std::string strategyText;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("// strategy:", 0) == 0)
        strategyText += line.substr(12) + "\n";
    ASSERT_FALSE(strategyText.empty()) << "no `// strategy:` line";
    // `// target: openmp`: the defs are compiled for OpenMP too (1 and 2 threads)
    const bool openmp = text.find("\n// target: openmp\n") != std::string::npos;
    // `// expect: E0710`: the fix is that the rule refuses the program (it
    // rewrote it wrongly before); the strategy must fail with that code
    const std::size_t expectAt = text.find("\n// expect: ");
    const std::string expectCode =
        expectAt == std::string::npos ? "" : text.substr(expectAt + 12, 5);
    const rise::Program program = rise::parseProgram(rise::makeSourceFile(file, text));
    const elevate::StrategyPtr strategy =
        elevate::loadStrategy(rise::makeSourceFile(file + " (strategy)", strategyText));
    for (const rise::Def& d : program.defs) {
      SCOPED_TRACE(d.name);
      const rise::TypedDef def = rise::inferDef(program, d.name);
      if (!expectCode.empty()) {
        try {
          elevate::rewriteDef(program, def, *strategy);
          ADD_FAILURE() << "the strategy applied; expected " << expectCode;
        } catch (const CompileError& e) {
          EXPECT_EQ(e.code(), expectCode) << e.message();
        }
        continue;
      }
      const rise::TypedDef rewritten = elevate::rewriteDef(program, def, *strategy);
      const rise::Program rewrittenProgram = elevate::rewrittenProgram(program, rewritten);
      const rise::TypedDef lowered = lower::lowerToC(rewrittenProgram, rewritten);
      ::Run run;
      run.finding = "tests/fuzz-findings/rewrite/" + file + ", def " + d.name;
      run.text = text;
      run.lowered = printed(lowered);
      Rng rng(1);
      std::vector<Value> inputs;
      for (const rise::Type& t : rise::interp::instantiateEntry(def, {}).inputTypes)
        inputs.push_back(rise::interp::randomValue(t, rng.engine()));
      const Value expected = rise::interp::evaluate(def, {}, inputs);
      std::string why;
      EXPECT_TRUE(rise::interp::valuesClose(rise::interp::evaluate(lowered, {}, inputs), expected,
                                            kRelativeTolerance, kAbsoluteTolerance, &why))
          << "the interpreter on the lowered program: " << why;
      std::string failure = c.add(run, rewrittenProgram, lowered, inputs, expected);
      EXPECT_EQ(failure, "");
      ++kernels;
      if (openmp) {
        EXPECT_EQ(omp.add(run, rewrittenProgram, rewritten, inputs, expected), "");
        ++ompKernels;
      }
    }
  }
  for (const std::string& failure : c.flush())
    ADD_FAILURE() << failure;
  for (const std::string& failure : omp.flush())
    ADD_FAILURE() << failure;
  EXPECT_EQ(stats.c.compared, kernels) << "every kernel's C ran and matched";
  EXPECT_EQ(stats.omp.compared, ompKernels) << "every OpenMP kernel ran and matched";
  EXPECT_GE(ompKernels, 1) << "the OpenMP findings in " << dir;
  EXPECT_GE(kernels, 2) << "the findings in " << dir;
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
