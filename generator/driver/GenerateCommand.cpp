#include "driver/GenerateCommand.h"

#include "codegen/host/Launch.h"
#include "driver/GeneratedLibrary.h"
#include "driver/IsaDispatch.h"
#include "driver/IsaRequest.h"
#include "driver/KernelCompiler.h"
#include "driver/LibraryHeaders.h"
#include "driver/Manifest.h"
#include "driver/OutputWriter.h"
#include "driver/SpecLoader.h"
#include "support/Diagnostic.h"
#include "support/PassTimer.h"
#include "support/Text.h"
#include "tooling/Formatter.h"
#include "tooling/Verifier.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <thread>

#ifndef RISEC_VERSION
#define RISEC_VERSION "unknown"
#endif

namespace risec::driver {

namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& p) {
  std::ifstream is(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(is), std::istreambuf_iterator<char>());
}

std::set<Target> parseTargets(const std::string& list) {
  std::set<Target> targets;
  if (list.empty())
    return {Target::C, Target::OpenMP, Target::OpenCL};
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    std::string t = list.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::optional<Target> parsed = codegen::parseTarget(t);
    if (!parsed)
      throw CompileError("E0823", {},
                         "--targets names `" + t +
                             "`, which is not a target; list some of c, openmp and opencl, "
                             "separated by commas (e.g. --targets c,openmp)");
    targets.insert(*parsed);
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return targets;
}

/// `path` relative to `base`, both taken as absolute: deterministic whatever
/// the working directory or the form of the arguments.
std::string relativeTo(const std::string& path, const fs::path& base) {
  // A spec named without a folder (`risec generate k.yaml`) has the empty
  // parent path, which fs::absolute rejects: it is the current folder.
  const fs::path folder = base.empty() ? fs::path(".") : base;
  return fs::absolute(path)
      .lexically_normal()
      .lexically_relative(fs::absolute(folder).lexically_normal())
      .generic_string();
}

/// Specs sorted by kernel name; two specs of one kernel are an error.
std::vector<KernelSpec> loadSpecs(const std::vector<std::string>& paths) {
  std::vector<KernelSpec> specs;
  for (const std::string& p : paths)
    specs.push_back(loadSpec(p));
  std::stable_sort(specs.begin(), specs.end(), [](const KernelSpec& a, const KernelSpec& b) {
    return std::tie(a.kernel, a.path) < std::tie(b.kernel, b.path);
  });
  for (std::size_t k = 1; k < specs.size(); ++k)
    if (specs[k].kernel == specs[k - 1].kernel)
      throw CompileError("E0820", specs[k].loc,
                         "the kernel `" + specs[k].kernel + "` is also defined by `" +
                             specs[k - 1].path +
                             "`; kernel names must be unique in a library: rename one of them")
          .note(specs[k - 1].loc, "the other definition");
  std::map<std::string, const VariantSpec*> symbols;
  for (const KernelSpec& s : specs)
    for (const VariantSpec& v : s.variants) {
      auto [it, fresh] = symbols.emplace(v.symbol, &v);
      if (!fresh)
        throw CompileError("E0821", v.loc,
                           "the symbol `" + v.symbol +
                               "` is also used by a variant of another kernel; give one of "
                               "them a different `symbol:`")
            .note(it->second->loc, "the other variant");
    }
  return specs;
}

struct Job {
  std::size_t kernel, variant;
  /// -1: the variant as its symbol; else the index in its `isas:` of the
  /// level compiled as SYMBOL_<isaSuffix(level)> (driver/IsaDispatch.h).
  int isa = -1;
};

/// The order in which the jobs start (their results stay in job order): the
/// first variant of every kernel before any second one, so that threads
/// rarely compile two variants of one kernel at once (the variants share the
/// formatting of their long statements, tooling/Formatter.h), and in each
/// round the kernels with the largest programs first, so that the longest
/// job does not start last.
std::vector<std::size_t> startOrder(const std::vector<KernelSpec>& specs,
                                    const std::vector<Job>& work) {
  std::vector<std::size_t> round(work.size()), size(specs.size(), 0);
  for (std::size_t k = 0; k < work.size(); ++k)
    round[k] = k > 0 && work[k - 1].kernel == work[k].kernel ? round[k - 1] + 1 : 0;
  for (std::size_t s = 0; s < specs.size(); ++s) {
    std::error_code ec;
    std::uintmax_t bytes = fs::file_size(specs[s].sourcePath, ec);
    size[s] = ec ? 0 : static_cast<std::size_t>(bytes);
  }
  std::vector<std::size_t> order(work.size());
  for (std::size_t k = 0; k < work.size(); ++k)
    order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::make_pair(round[a], size[work[b].kernel]) <
           std::make_pair(round[b], size[work[a].kernel]);
  });
  return order;
}

/// Compiles every job, `jobs` at a time; the results are in job order, so
/// they do not depend on the scheduling. The first failing job (in order)
/// rethrows its error.
std::vector<codegen::CompileResult> compileAll(const std::vector<KernelSpec>& specs,
                                               const std::vector<Job>& work, int jobs) {
  std::vector<std::optional<codegen::CompileResult>> results(work.size());
  std::vector<std::exception_ptr> errors(work.size());
  const std::vector<std::size_t> order = startOrder(specs, work);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t n = next++; n < work.size(); n = next++) {
      const std::size_t k = order[n];
      const KernelSpec& spec = specs[work[k].kernel];
      const VariantSpec& v = spec.variants[work[k].variant];
      const std::string level = work[k].isa < 0 ? "" : v.isas[work[k].isa];
      const std::string symbol = level.empty() ? v.symbol : v.symbol + "_" + isaSuffix(level);
      try { // nothing may escape a worker thread
        fs::path folder = fs::path(spec.path).parent_path();
        codegen::c::COptions copts{symbol, relativeTo(spec.sourcePath, folder), RISEC_VERSION,
                                   v.strategyPath.empty() ? "" : relativeTo(v.strategyPath, folder),
                                   v.target};
        if (v.launch) // the spec's `launch:`, else the default rule (codegen/host/Launch.h)
          copts.launch = codegen::host::Launch{v.launch->global, v.launch->local};
        results[k] = compileWithStrategy(spec.program, spec.typedEntry, v.strategyPath, copts,
                                         v.strategyBindings(level));
      } catch (CompileError& e) {
        if (!level.empty())
          e.note(v.loc, "while compiling `" + symbol + "`, the function of the ISA level " + level +
                            " of this variant");
        errors[k] = std::current_exception();
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> threads;
  tooling::registerSignalHandlers();
  for (int t = 1; t < std::min<int>(jobs, static_cast<int>(work.size())); ++t)
    threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads)
    t.join();
  std::vector<codegen::CompileResult> out;
  for (std::size_t k = 0; k < work.size(); ++k) {
    if (errors[k])
      std::rethrow_exception(errors[k]);
    out.push_back(std::move(*results[k]));
  }
  return out;
}

/// Every file name is produced once: a symbol equal to a kernel name, or a
/// kernel named like the library, would overwrite another file.
void checkFileNames(const GeneratedLibrary& lib) {
  std::map<std::string, std::pair<std::string, SourceLocation>> producers;
  auto add = [&](const std::string& file, const std::string& what, const SourceLocation& loc) {
    auto [it, fresh] = producers.emplace(file, std::make_pair(what, loc));
    if (!fresh)
      throw CompileError("E0822", loc,
                         "the file `" + file + "` of " + what + " would overwrite the one of " +
                             it->second.first +
                             "; rename the kernel, set another `symbol:`, or pick another "
                             "--name")
          .note(it->second.second, "the other file comes from here");
  };
  add(lib.name + ".h", "the umbrella header (--name " + lib.name + ")", {});
  add(lib.name + ".json", "the manifest (--name " + lib.name + ")", {});
  for (const GeneratedKernel& k : lib.kernels) {
    add(k.headerName(), "the kernel `" + k.spec->kernel + "`", k.spec->loc);
    for (const GeneratedVariant& v : k.variants)
      for (const codegen::OutputFile& f : v.files)
        add(f.name, "the variant `" + v.abi().symbol + "`", v.spec->loc);
  }
}

std::vector<std::string> dependencies(const std::vector<KernelSpec>& specs,
                                      const std::set<Target>& targets) {
  std::set<std::string> deps;
  for (const KernelSpec& s : specs) {
    deps.insert(s.path);
    deps.insert(s.sourcePath);
    for (const VariantSpec& v : s.variants)
      if (targets.count(v.target) && !v.strategyPath.empty())
        deps.insert(v.strategyPath);
  }
  return {deps.begin(), deps.end()};
}

std::string makeEscaped(const std::string& path) {
  std::string s;
  for (char c : path) {
    if (c == ' ' || c == '#')
      s += '\\';
    if (c == '$')
      s += '$';
    s += c;
  }
  return s;
}

void writeDepfile(const GenerateOptions& opts, const std::vector<std::string>& deps) {
  std::string target = opts.depfileTarget.empty()
                           ? (fs::absolute(opts.outDir) / (opts.name + ".json")).string()
                           : opts.depfileTarget;
  std::string text = makeEscaped(target) + ":";
  for (const std::string& d : deps)
    text += " \\\n  " + makeEscaped(fs::absolute(d).lexically_normal().string());
  std::ofstream os(opts.depfile, std::ios::binary);
  os << text << "\n";
  os.close();
  if (!os)
    throw CompileError("E0612", {}, "cannot write the depfile `" + opts.depfile + "`");
}

GeneratedLibrary assemble(const std::vector<KernelSpec>& specs, const std::vector<Job>& work,
                          std::vector<codegen::CompileResult> results, const std::string& name) {
  GeneratedLibrary lib;
  lib.name = name;
  for (std::size_t j = 0; j < work.size(); ++j) {
    const KernelSpec& spec = specs[work[j].kernel];
    if (lib.kernels.empty() || lib.kernels.back().spec != &spec) {
      GeneratedKernel k;
      k.spec = &spec;
      k.specName = fs::path(spec.path).filename().string();
      k.sourceName = relativeTo(spec.sourcePath, fs::path(spec.path).parent_path());
      lib.kernels.push_back(std::move(k));
    }
    if (work[j].isa >= 0) { // follows its variant's job
      const std::string& level = spec.variants[work[j].variant].isas[work[j].isa];
      lib.kernels.back().variants.back().isaFunctions.push_back({level, std::move(results[j])});
      continue;
    }
    GeneratedVariant v;
    v.spec = &spec.variants[work[j].variant];
    if (!v.spec->strategyPath.empty())
      v.strategyName = relativeTo(v.spec->strategyPath, fs::path(spec.path).parent_path());
    v.result = std::move(results[j]);
    lib.kernels.back().variants.push_back(std::move(v));
  }
  for (GeneratedKernel& k : lib.kernels)
    std::sort(k.variants.begin(), k.variants.end(),
              [](const GeneratedVariant& a, const GeneratedVariant& b) {
                return a.abi().symbol < b.abi().symbol;
              });
  for (GeneratedKernel& k : lib.kernels)
    for (GeneratedVariant& v : k.variants)
      setVariantFiles(v, k.specName, RISEC_VERSION);
  return lib;
}

/// The kernel and umbrella headers are formatted like every emitted file
/// (a spec's `doc:` can be any length).
std::string formatHeader(const std::string& text, const std::string& name) {
  return tooling::formatSource(text, tooling::SourceLanguage::C11, name);
}

std::vector<codegen::OutputFile> libraryFiles(const GeneratedLibrary& lib,
                                              const std::string& part) {
  std::vector<codegen::OutputFile> files;
  if (part != "index")
    for (const GeneratedKernel& k : lib.kernels) {
      for (const GeneratedVariant& v : k.variants)
        files.insert(files.end(), v.files.begin(), v.files.end());
      files.push_back(
          {k.headerName(), formatHeader(kernelHeader(k, RISEC_VERSION), k.headerName())});
    }
  if (part != "kernels") {
    files.push_back(
        {lib.name + ".h", formatHeader(umbrellaHeader(lib, RISEC_VERSION), lib.name + ".h")});
    files.push_back({lib.name + ".json", manifestJson(lib, RISEC_VERSION)});
  }
  std::sort(
      files.begin(), files.end(),
      [](const codegen::OutputFile& a, const codegen::OutputFile& b) { return a.name < b.name; });
  return files;
}

/// `generate` replaces DIR as a whole, so DIR must be new, empty, or the
/// output of an earlier generation (NAME.json by risec, no subfolders): a
/// mistyped -o must not delete a user's folder.
void checkReplaceable(const std::string& dirName, const std::string& name) {
  fs::path dir(dirName);
  std::error_code ec;
  if (!fs::exists(dir, ec) || fs::is_empty(dir, ec))
    return;
  bool earlier =
      fs::is_directory(dir, ec) &&
      readText(dir / (name + ".json")).find("\"generator\": \"risec ") != std::string::npos;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_directory(ec))
      earlier = false;
  if (!earlier)
    throw CompileError("E0826", {},
                       "`" + dirName +
                           "` is not empty and is not the output of an earlier `risec "
                           "generate --name " +
                           name +
                           "`; generate replaces its output directory "
                           "as a whole, so choose a new or empty directory");
}

} // namespace

int runGenerate(const GenerateOptions& opts, std::ostream& out) {
  if (opts.specs.empty())
    throw CompileError("E0825", {}, "no kernel specs; pass one or more SPEC.yaml files");
  if (!isCIdentifier(opts.name))
    throw CompileError("E0824", {},
                       "the library name `" + opts.name +
                           "` is not a C identifier; choose --name with letters, digits and "
                           "`_`, not starting with a digit");
  if (opts.part != "all" && opts.part != "kernels" && opts.part != "index")
    throw CompileError("E0824", {},
                       "--part must be all, kernels or index, not `" + opts.part + "`");
  std::set<Target> targets = parseTargets(opts.targets);
  std::vector<std::string> requestedIsas = resolveIsaRequest(opts.isas);
  std::vector<KernelSpec> specs = loadSpecs(opts.specs);
  for (const std::string& w : applyIsaRequest(specs, requestedIsas))
    std::cerr << w << "\n";
  std::vector<std::string> deps = dependencies(specs, targets);
  if (opts.printDependencies) {
    for (const std::string& d : deps)
      out << d << "\n";
    return 0;
  }
  if (opts.outDir.empty())
    throw CompileError("E0612", {}, "no output directory; pass -o DIR");

  std::vector<Job> work;
  for (std::size_t k = 0; k < specs.size(); ++k)
    for (std::size_t v = 0; v < specs[k].variants.size(); ++v)
      if (targets.count(specs[k].variants[v].target)) {
        work.push_back({k, v, -1});
        for (std::size_t i = 0; i < specs[k].variants[v].isas.size(); ++i)
          work.push_back({k, v, static_cast<int>(i)});
      }
  if (work.empty())
    throw CompileError("E0825", {},
                       "no variant of the given specs has one of the targets `" + opts.targets +
                           "`; widen --targets or add such variants");

  int jobs = opts.jobs > 0 ? opts.jobs : static_cast<int>(std::thread::hardware_concurrency());
  GeneratedLibrary lib =
      assemble(specs, work, compileAll(specs, work, std::max(1, jobs)), opts.name);
  checkFileNames(lib);
  std::vector<codegen::OutputFile> files = libraryFiles(lib, opts.part);
  if (opts.update || opts.part != "all") {
    std::error_code ec;
    fs::create_directories(opts.outDir, ec);
    timed("write", [&] { writeChanged(opts.outDir, files); });
  } else {
    checkReplaceable(opts.outDir, opts.name);
    timed("write", [&] { replaceDirectory(opts.outDir, files); });
  }
  if (!opts.depfile.empty())
    writeDepfile(opts, deps);
  return 0;
}

} // namespace risec::driver
