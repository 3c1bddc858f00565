#include "driver/VerifyCommand.h"

#include "driver/IsaRequest.h"
#include "driver/KernelCompiler.h"
#include "driver/SizesOption.h"
#include "driver/SpecLoader.h"
#include "support/Diagnostic.h"
#include "tune/Measure.h"

#include <algorithm>
#include <filesystem>
#include <ostream>

#include <unistd.h>

namespace risec::driver {

namespace fs = std::filesystem;

namespace {

/// Whether the sizes satisfy the preconditions of `def` (the kernel's, after
/// its strategy).
bool satisfies(const rise::TypedDef& def, const std::map<std::string, std::int64_t>& sizes) {
  try {
    rise::interp::instantiateEntry(def, sizes);
    return true;
  } catch (const CompileError&) {
    return false;
  }
}

/// A scratch folder removed on every exit path.
struct ScratchDir {
  fs::path dir;
  explicit ScratchDir(const std::string& name)
      : dir(fs::temp_directory_path() /
            ("risec-verify-" + std::to_string(::getpid()) + "-" + name)) {
    fs::remove_all(dir);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

/// Checks one function of `v` (`level` empty: the variant's only function)
/// at every check size of `spec`; returns the number of sizes checked.
/// `march`: compile with -march=LEVEL (an x86-64 host).
int verifyFunction(const KernelSpec& spec, const VariantSpec& v, const std::string& level,
                   bool march, const std::string& cc, const fs::path& work, std::ostream& out) {
  const std::string name = level.empty() ? v.symbol : v.symbol + "_" + isaSuffix(level);
  const std::string what = "`" + name + "`" + (level.empty() ? "" : " (" + level + ")");
  tune::BuildSettings settings;
  settings.cc = cc;
  settings.flags = v.cflags;
  if (!level.empty() && march)
    settings.flags.push_back("-march=" + level);
  if (v.target == Target::OpenMP)
    settings.flags.push_back("-fopenmp");

  codegen::c::COptions copts{name, spec.sourcePath, RISEC_VERSION, v.strategyPath, v.target};
  codegen::CompileResult r = compileWithStrategy(spec.program, spec.typedEntry, v.strategyPath,
                                                 copts, v.strategyBindings(level));
  std::unique_ptr<tune::LoadedKernel> kernel;
  try {
    kernel = std::make_unique<tune::LoadedKernel>(work / name, r.files, settings);
  } catch (const tune::BuildFailure& e) {
    throw CompileError("E0841", v.loc,
                       "the C compiler `" + cc + "` failed on the generated code of " + what +
                           ":\n" + e.what());
  }
  int checked = 0;
  for (const CheckSizes& c : spec.checks) {
    ++checked;
    if (!satisfies(r.lowered, c.sizes)) {
      // The strategy's own preconditions (tile sizes) do not hold: the
      // kernel must refuse the sizes with 1 (docs/dpia.md, the C ABI).
      std::vector<tune::Buffer> inputs, outputs;
      kernel->makeBuffers(c.sizes, inputs, outputs);
      int rc = kernel->call(c.sizes, inputs, outputs);
      if (rc != 1)
        throw CompileError("E0840", c.loc,
                           what + " returned " + std::to_string(rc) + " at " +
                               formatSizes(c.sizes) +
                               ", which violate its preconditions; it must return 1 there");
      out << "ok " << name << " refuses " << formatSizes(c.sizes) << " (its preconditions)\n";
      continue;
    }
    tune::CheckOutcome o = tune::checkAgainstInterpreter(*kernel, spec.typedEntry, {c.sizes});
    if (o.status == tune::CheckOutcome::Status::Wrong)
      throw CompileError("E0840", v.loc,
                         what + " differs from the reference interpreter at " +
                             formatSizes(c.sizes) + ": " + o.detail +
                             "; the library computes a wrong result on this machine with `" + cc +
                             "`: please report it with the spec and the compiler's version");
    if (o.status == tune::CheckOutcome::Status::NotRun)
      throw CompileError("E0840", c.loc,
                         what + " did not run at " + formatSizes(c.sizes) + ": " + o.detail);
    out << "ok " << name << " at " << formatSizes(c.sizes) << "\n";
  }
  return checked;
}

} // namespace

int runVerify(const VerifyOptions& opts, std::ostream& out) {
  std::vector<KernelSpec> specs;
  specs.push_back(loadSpec(opts.spec));
  for (const std::string& w : applyIsaRequest(specs, resolveIsaRequest(opts.isas)))
    out << "note: " << w << "\n";
  const KernelSpec& spec = specs.front();
  const std::string cc = opts.cc.empty() ? tune::defaultCompiler() : opts.cc;

  std::vector<const VariantSpec*> variants;
  std::string symbols;
  for (const VariantSpec& v : spec.variants) {
    symbols += (symbols.empty() ? "" : ", ") + v.symbol;
    if (opts.variant.empty() || v.symbol == opts.variant)
      variants.push_back(&v);
  }
  if (variants.empty())
    throw CompileError("E0842", spec.loc,
                       "the spec has no variant `" + opts.variant + "`; its variants are " +
                           symbols);
  if (spec.checks.empty())
    throw CompileError("E0842", spec.loc,
                       "the spec has no `check:` sizes to verify its variants at; add e.g. "
                       "`check: [{n: 7}, {n: 1000}]`");

  const std::string native = nativeIsaLevel();
  ScratchDir scratch(spec.kernel);
  int functions = 0, runs = 0;
  for (const VariantSpec* v : variants) {
    if (v->target == Target::OpenCL) {
      out << "skip " << v->symbol
          << ": opencl variants need an OpenCL device; risec's own tests run them on PoCL\n";
      continue;
    }
    std::vector<std::string> levels = v->isas;
    if (levels.empty())
      levels.push_back("");
    // Not on x86-64: the library compiles the levels without -march and the
    // dispatcher calls the baseline only (docs/usage.md, "ISA variants").
    if (native.empty())
      levels.resize(1);
    for (const std::string& level : levels) {
      if (!level.empty() && !native.empty() && isaLevelIndex(level) > isaLevelIndex(native)) {
        out << "skip " << v->symbol << "_" << isaSuffix(level) << ": this CPU does not run "
            << level << "\n";
        continue;
      }
      runs += verifyFunction(spec, *v, level, !native.empty(), cc, scratch.dir, out);
      ++functions;
    }
  }
  out << "verified " << functions << " function" << (functions == 1 ? "" : "s") << " of `"
      << spec.kernel << "` at " << runs << " check size" << (runs == 1 ? "" : "s")
      << " against the reference interpreter\n";
  return 0;
}

} // namespace risec::driver
