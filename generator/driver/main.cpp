// risec: the command-line driver. Exit codes: 0 success, 1 user error,
// 2 internal error (a bug in risec).
#include "codegen/Compile.h"
#include "driver/Commands.h"
#include "driver/CompileCommand.h"
#include "driver/GenerateCommand.h"
#include "driver/RewriteCommand.h"
#include "driver/TuneCommand.h"
#include "driver/VerifyCommand.h"
#include "support/Diagnostic.h"
#include "support/PassTimer.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <sstream>

namespace {

int run(int argc, char** argv) {
  using namespace risec::driver;
  CLI::App app{"risec: an ahead-of-time compiler for the RISE language", "risec"};
  app.set_version_flag("--version", std::string("risec ") + RISEC_VERSION);
  app.require_subcommand(1);
  app.add_flag("--time-passes", risec::timePassesEnabled(),
               "print the time of each pipeline stage to stderr");

  CheckOptions check;
  CLI::App* checkCmd = app.add_subcommand("check", "parse and type-check; print each def's type");
  checkCmd->add_option("file", check.file, "the .rise file")->required();
  checkCmd->add_option("--dump", check.dump, "print a stage's result instead: parse | infer")
      ->check(CLI::IsMember({"parse", "infer"}));

  EvalOptions eval;
  CLI::App* evalCmd =
      app.add_subcommand("eval", "evaluate a def with the reference interpreter (JSON in/out)");
  evalCmd->add_option("file", eval.file, "the .rise file")->required();
  evalCmd->add_option("--entry", eval.entry, "the def to evaluate (default: the last one)");
  evalCmd->add_option("--sizes", eval.sizes, "values of the size parameters, e.g. n=4,m=3");
  evalCmd->add_option("--inputs", eval.inputs,
                      "JSON file holding the list of arguments, or - for standard input");
  evalCmd->add_option("--random", eval.randomSeed,
                      "evaluate on random inputs from this seed instead of --inputs");

  RewriteOptions rewrite;
  CLI::App* rewriteCmd =
      app.add_subcommand("rewrite", "apply a strategy file; print the rewritten RISE");
  rewriteCmd->add_option("file", rewrite.file, "the .rise file")->required();
  rewriteCmd->add_option("--strategy", rewrite.strategy, "the .elevate strategy file")->required();
  rewriteCmd->add_option("--entry", rewrite.entry, "the def to rewrite (default: the last one)");
  rewriteCmd->add_flag("--trace", rewrite.trace, "print each successful step to stderr");
  rewriteCmd->add_option("--target", rewrite.target,
                         "c | openmp | opencl: the back end `lowerToC` lowers for (default c)");

  CompileOptions compile;
  CLI::App* compileCmd = app.add_subcommand("compile", "compile a def to C");
  compileCmd->add_option("file", compile.file, "the .rise file")->required();
  compileCmd->add_option("--target", compile.target, "c | openmp | opencl");
  compileCmd->add_option("--strategy", compile.strategy,
                         "the .elevate strategy file (default: lowerToC)");
  compileCmd->add_option("--entry", compile.entry, "the def to compile (default: the last one)");
  compileCmd->add_option("--name", compile.name, "the C function name (default: the entry)");
  compileCmd->add_option("-o", compile.outDir, "the output directory");
  compileCmd->add_option("--launch", compile.launch,
                         "opencl: the NDRange of the host wrappers, e.g. 'global=[n],local=[32]'");
  std::string dumpHelp = "print a stage instead:";
  for (const std::string& stage : risec::codegen::dumpStages())
    dumpHelp += (dumpHelp.back() == ':' ? " " : " | ") + stage;
  compileCmd->add_option("--dump", compile.dump, dumpHelp)
      ->check(CLI::IsMember(risec::codegen::dumpStages()));

  GenerateOptions generate;
  CLI::App* generateCmd = app.add_subcommand(
      "generate", "the whole kernel library of some specs: sources, headers, manifest");
  generateCmd->add_option("specs", generate.specs, "the kernel specs (.yaml)");
  generateCmd->add_option("-o", generate.outDir, "the output directory (replaced as a whole)");
  generateCmd->add_option("--name", generate.name,
                          "the library name: umbrella header NAME.h, manifest NAME.json "
                          "(default: kernels)");
  generateCmd
      ->add_option("--jobs,-j", generate.jobs,
                   "variants compiled in parallel (default: one per hardware thread)")
      ->check(CLI::PositiveNumber);
  generateCmd->add_option("--targets", generate.targets,
                          "keep only variants of these targets, e.g. c,openmp");
  generateCmd->add_option("--isas", generate.isas,
                          "x86-64 levels and/or native, e.g. x86-64-v3,x86-64-v4: each c and "
                          "openmp variant without `isas:` in its spec gets one function per "
                          "level (plus the x86-64 fallback) behind a run-time dispatcher");
  generateCmd->add_flag("--update", generate.update,
                        "write into DIR only the files that changed (for build systems)");
  generateCmd->add_option("--part", generate.part,
                          "write only the kernels' files (kernels) or the umbrella header and "
                          "manifest (index); implies --update");
  generateCmd->add_option("--depfile", generate.depfile,
                          "also write a Makefile depfile listing the input files");
  generateCmd->add_option("--depfile-target", generate.depfileTarget,
                          "the target of the depfile's rule (default: DIR/NAME.json)");
  generateCmd->add_flag("--print-dependencies", generate.printDependencies,
                        "print the spec, program and strategy files, one per line; write "
                        "nothing");

  TuneOptions tune;
  CLI::App* tuneCmd = app.add_subcommand(
      "tune", "search a variant's strategy parameters for the fastest correct binding");
  tuneCmd->add_option("spec", tune.spec, "the kernel spec (.yaml)")->required();
  tuneCmd->add_option("--variant", tune.variant, "the variant's symbol")->required();
  tuneCmd->add_option("--isa", tune.isa, "the x86-64 level (default: the best the CPU runs)");
  tuneCmd->add_option("--budget", tune.budget, "time budget, e.g. 90s or 10m (default: 10m)");
  tuneCmd->add_option("--sizes", tune.sizes, "bench sizes, e.g. m=512,n=512,k=512");
  tuneCmd->add_flag("--no-write", tune.noWrite, "write the log only, not the spec");

  VerifyOptions verify;
  CLI::App* verifyCmd = app.add_subcommand(
      "verify", "check a spec's c and openmp variants against the interpreter with a C compiler");
  verifyCmd->add_option("spec", verify.spec, "the kernel spec (.yaml)")->required();
  verifyCmd->add_option("--variant", verify.variant,
                        "one variant's symbol (default: every c and openmp variant)");
  verifyCmd->add_option("--isas", verify.isas,
                        "the ISA levels the library was generated with (as generate --isas)");
  verifyCmd->add_option("--cc", verify.cc, "the C compiler (default: $CC, else cc)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 1;
  }

  // Output is buffered so that a failing command prints nothing on stdout.
  std::ostringstream out;
  int status = 0;
  if (*checkCmd)
    status = runCheck(check, out);
  else if (*evalCmd)
    status = runEval(eval, out);
  else if (*rewriteCmd)
    status = runRewrite(rewrite, out, std::cerr);
  else if (*compileCmd)
    status = runCompile(compile, out);
  else if (*generateCmd)
    status = runGenerate(generate, out);
  else if (*tuneCmd)
    status = runTune(tune, out);
  else if (*verifyCmd)
    status = runVerify(verify, out);
  std::cout << out.str();
  return status;
}

} // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const risec::CompileError& e) {
    risec::printDiagnostic(std::cerr, e);
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "risec: internal error: " << e.what()
              << "\nThis is a bug in risec; please report it with the input that caused it.\n";
    return 2;
  }
}
