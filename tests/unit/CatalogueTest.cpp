// The kernel catalogue (specs/*.yaml, docs/catalogue.md), data-driven: the
// folder is globbed when the test starts, so a new spec is tested without
// editing this file. One test per (spec, variant):
//   - the spec loads (driver::loadSpec validates it and its check sizes);
//   - the variant compiles exactly as `risec compile` does (SpecVariant.h),
//     including Clang's verification of the output;
//   - every variant is built with gcc -O2 -Werror (OpenMP with -fopenmp, run
//     with OMP_NUM_THREADS=2) and run on random inputs at every `check` size; the
//     result must match the reference interpreter on the spec's (high-level)
//     entry. Where the variant's strategy adds a precondition (tile sizes) that
//     a check size violates, the kernel must return 1 and leave its output
//     untouched instead; every variant must run at least one check size.
//   - then at awkward sizes derived from the spec (awkwardSizes): each size
//     in turn set to 0, 1, 2, the primes 7, 31, 127, 257 and the multiples
//     of the usual tiles plus or minus one (33, 63, 65, 95, 97, 129; under
//     the sanitizers only 0, 1, 2, 7, 33, 65), the
//     others kept at a small check size, wherever the spec's entry accepts
//     the sizes. A C or OpenMP variant must accept every such size (its
//     strategy may add no precondition: remainders are peeled or padded); an
//     OpenCL variant may refuse one with 1 (the manifest lists why).
//   - a variant with `isas:` is one test per level, built with -march=LEVEL as
//     that level's file is in the library, and skipped where the CPU running
//     the test does not support the level (docs/usage.md, "ISA variants").
//   - OpenCL variants are built from their host wrappers (SYMBOL_host.c, the
//     C ABI, the spec's `launch:`) with the same driver and run the same way,
//     on PoCL, in the driver's process (CKernelRunner.h).
#include "CKernelRunner.h"
#include "SpecVariant.h"

#include "driver/SpecLoader.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace risec;
using namespace risec::testsupport;
namespace fs = std::filesystem;
namespace interp = risec::rise::interp;

namespace {

constexpr double kRelativeTolerance = 1e-4;
constexpr double kAbsoluteTolerance = 1e-4;

fs::path specsDir() {
  return fs::path(RISEC_TEST_DATA) / ".." / "specs";
}

/// One test: a variant of a spec, or (variant -1) a spec that fails to load.
/// A variant with `isas:` is one test per level, compiled with -march=LEVEL
/// and run where the CPU supports it (skipped elsewhere).
struct Case {
  std::string spec; ///< file name in specs/
  int variant = -1;
  std::string name; ///< the variant's symbol (and level), or the spec's file stem
  std::string isa;  ///< the ISA level; empty: the variant has no `isas:`
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.spec << " " << c.name;
}

std::vector<Case> cases() {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(specsDir(), ec))
    if (e.is_regular_file() && e.path().extension() == ".yaml")
      files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<Case> v;
  for (const fs::path& f : files) {
    try {
      driver::KernelSpec spec = driver::loadSpec(f.string());
      for (std::size_t i = 0; i < spec.variants.size(); ++i) {
        const driver::VariantSpec& var = spec.variants[i];
        if (var.isas.empty())
          v.push_back({f.filename().string(), static_cast<int>(i), var.symbol, ""});
        for (const std::string& isa : var.isas)
          v.push_back({f.filename().string(), static_cast<int>(i),
                       var.symbol + "_" + driver::isaSuffix(isa), isa});
      }
    } catch (const std::exception&) {
      v.push_back({f.filename().string(), -1, f.stem().string(), ""}); // fails in the test
    }
  }
  return v;
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string s = info.param.name;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return s;
}

std::string sizesText(const interp::SizeEnv& s) {
  std::string t;
  for (const auto& [name, value] : s)
    t += (t.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return t.empty() ? std::string("-") : t;
}

/// Whether the sizes satisfy the preconditions of `def`.
bool satisfies(const rise::TypedDef& def, const interp::SizeEnv& s) {
  try {
    interp::instantiateEntry(def, s);
    return true;
  } catch (const CompileError&) {
    return false;
  }
}

/// The values an awkward size takes: empty, tiny, primes, and one more or
/// less than the multiples of 32 and 64 that tiles, strips and vectors use.
/// Under the sanitizers (the CI's second build) the interpreter and the
/// kernels run 10-50x slower, so that build keeps the values that reach every
/// kind of tail (empty, one, below one vector, one past a tile of 32 and of
/// 64) and leaves out the large ones, which only repeat those tails.
#ifdef RISEC_E2E_SANITIZE
constexpr std::int64_t kAwkwardValues[] = {0, 1, 2, 7, 33, 65};
#else
constexpr std::int64_t kAwkwardValues[] = {0, 1, 2, 7, 31, 33, 63, 65, 95, 97, 127, 129, 257};
#endif

/// The sizes of `spec` that the sweep varies one size at a time: the first
/// check size with every size at least 2 (else the last check size), each
/// size in turn set to each awkward value; sizes the spec's entry refuses
/// and the check sizes themselves are left out.
std::vector<interp::SizeEnv> awkwardSizes(const driver::KernelSpec& spec) {
  const interp::SizeEnv* base = &spec.checks.back().sizes;
  for (const driver::CheckSizes& c : spec.checks)
    if (std::all_of(c.sizes.begin(), c.sizes.end(),
                    [](const auto& kv) { return kv.second >= 2; })) {
      base = &c.sizes;
      break;
    }
  std::vector<interp::SizeEnv> out;
  auto known = [&](const interp::SizeEnv& s) {
    return std::find(out.begin(), out.end(), s) != out.end() ||
           std::any_of(spec.checks.begin(), spec.checks.end(),
                       [&](const driver::CheckSizes& c) { return c.sizes == s; });
  };
  for (const auto& [name, value] : *base) {
    (void)value;
    for (std::int64_t v : kAwkwardValues) {
      interp::SizeEnv s = *base;
      s[name] = v;
      if (!known(s) && satisfies(spec.typedEntry, s))
        out.push_back(s);
    }
  }
  return out;
}

class Catalogue : public ::testing::TestWithParam<Case> {};

TEST_P(Catalogue, MatchesTheInterpreter) {
  const Case& c = GetParam();
  const std::string path = (specsDir() / c.spec).lexically_normal().string();
  driver::KernelSpec spec;
  try {
    spec = driver::loadSpec(path);
  } catch (const CompileError& e) {
    FAIL() << c.spec << " does not load: " << e.code() << " " << e.message();
  }
  ASSERT_GE(c.variant, 0) << c.spec << " does not load";
  const driver::VariantSpec& variant = spec.variants.at(c.variant);
  ASSERT_FALSE(spec.checks.empty()) << c.spec << " has no `check` sizes";
  if (!c.isa.empty() && !cpuSupportsIsa(c.isa))
    GTEST_SKIP() << "this CPU does not support " << c.isa;

  CompiledVariant k;
  try {
    k = compileVariant(spec, variant, c.isa);
  } catch (const CompileError& e) {
    FAIL() << variant.symbol << " does not compile: " << e.code() << " " << e.message();
  } catch (const std::exception& e) {
    FAIL() << variant.symbol << ": internal error: " << e.what();
  }
  const bool openmp = variant.target == driver::Target::OpenMP;
  const rise::TypedDef& def = k.rewritten;
  std::vector<std::string> sizeNames = interp::sizeParameters(def);
  fs::path dir =
      fs::temp_directory_path() / ("risec-catalogue-" + std::to_string(::getpid()) + "-" + c.name);
  std::string flags = defaultCFlags();
  flags.replace(flags.find("-O1"), 3, "-O2");
  if (!c.isa.empty()) // the flag of the level's file in the library (driver/IsaDispatch.h)
    flags += " -march=" + c.isa;
  if (openmp)
    flags += " -fopenmp";
  std::string log;
  ASSERT_EQ(buildKernel(dir, variant.symbol, k.compiled.files,
                        driverSource(variant.symbol, def, sizeNames.size()), "gcc", flags, log),
            0)
      << "gcc " << flags << " failed on " << variant.symbol << ":\n"
      << log;
  std::string exe = (dir / "gcc").string();
  if (openmp)
    ::setenv("OMP_NUM_THREADS", "2", 1);
  if (variant.target == driver::Target::OpenCL) // the binary cache stays in the test's folder
    ::setenv("RISEC_CL_CACHE_DIR", (dir / "cl-cache").c_str(), 1);

  std::vector<interp::SizeEnv> all;
  for (const driver::CheckSizes& check : spec.checks)
    all.push_back(check.sizes);
  const std::size_t checkCount = all.size();
  for (interp::SizeEnv& s : awkwardSizes(spec))
    all.push_back(std::move(s));
  const bool mayRefuse = variant.target == driver::Target::OpenCL;
  int ran = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const interp::SizeEnv& sizes = all[i];
    SCOPED_TRACE(variant.symbol + " at " + sizesText(sizes) +
                 (i < checkCount ? " (a check size)" : " (an awkward size)"));
    std::string out;
    if (!satisfies(def, sizes)) {
      EXPECT_TRUE(mayRefuse || !satisfies(spec.typedEntry, sizes))
          << "the strategy adds a precondition that these sizes violate; a C or OpenMP "
             "variant must take every size its entry takes";
      // the strategy's own preconditions (e.g. tile sizes) do not hold
      std::ostringstream in;
      for (const std::string& n : sizeNames)
        in << sizes.at(n) << "\n";
      writeDummyInputsAndOutputs(def, in);
      ASSERT_EQ(runDriver(dir, exe, in.str(), out), 0) << out;
      EXPECT_EQ(out, "rc 1\nuntouched 1\n") << "expected the precondition error";
      continue;
    }
    interp::EntryInterface iface = interp::instantiateEntry(spec.typedEntry, sizes);
    std::mt19937_64 rng(std::hash<std::string>{}(variant.symbol + sizesText(sizes)));
    std::vector<interp::Value> inputs;
    for (const rise::Type& t : iface.inputTypes)
      inputs.push_back(interp::randomValue(t, rng));
    interp::Value expected = interp::evaluate(spec.typedEntry, sizes, inputs);
    ASSERT_EQ(runDriver(dir, exe, inputRecord(def, sizeNames, sizes, inputs), out), 0)
        << out.substr(0, 2000);
    std::vector<std::string> tok = tokens(out);
    ASSERT_GE(tok.size(), 2u) << out.substr(0, 2000);
    ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << out.substr(0, 2000);
    std::size_t pos = 2;
    interp::Value actual = unflatten(iface.outputType, tok, pos);
    EXPECT_EQ(pos, tok.size()) << "the kernel printed more than its output";
    std::string why;
    EXPECT_TRUE(interp::valuesClose(actual, expected, kRelativeTolerance, kAbsoluteTolerance, &why))
        << why;
    ++ran;
  }
  RecordProperty("sizes_run", ran); // in --gtest_output=xml
  EXPECT_GT(ran, 0) << "no check size of " << c.spec << " satisfies the preconditions of "
                    << variant.symbol;
  if (!HasFailure())
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Specs, Catalogue, ::testing::ValuesIn(cases()), caseName);

TEST(Catalogue, HasAtLeastSeventeenKernels) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(specsDir()))
    n += e.path().extension() == ".yaml";
  EXPECT_GE(n, 17u);
}

} // namespace
