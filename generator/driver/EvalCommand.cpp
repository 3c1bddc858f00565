#include "driver/Commands.h"

#include "driver/SizesOption.h"
#include "driver/SourceLoader.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <iostream>
#include <iterator>
#include <ostream>
#include <random>

namespace risec::driver {

using namespace risec::rise;

namespace {

std::string readInputs(const std::string& path) {
  if (path == "-")
    return std::string(std::istreambuf_iterator<char>(std::cin), {});
  return loadSource(path)->text;
}

} // namespace

int runEval(const EvalOptions& opts, std::ostream& out) {
  Program program = parseProgram(loadSource(opts.file));
  std::string entry = resolveEntry(program, opts.entry, opts.file);
  TypedDef def = inferDef(program, entry);
  interp::SizeEnv sizes = parseSizesOption(opts.sizes, "E0503", "n=4,m=3");
  interp::EntryInterface iface = interp::instantiateEntry(def, sizes);

  std::vector<interp::Value> inputs;
  if (opts.randomSeed >= 0) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(opts.randomSeed));
    for (const Type& t : iface.inputTypes)
      inputs.push_back(interp::randomValue(t, rng));
  } else {
    if (opts.inputs.empty() && !iface.inputTypes.empty())
      throw CompileError("E0504", {},
                         "`" + entry + "` takes " + std::to_string(iface.inputTypes.size()) +
                             " argument(s); pass them with --inputs FILE.json (a JSON list) or "
                             "use --random SEED");
    std::string text = opts.inputs.empty() ? "[]" : readInputs(opts.inputs);
    inputs = interp::parseInputList(def, sizes, text, "--inputs");
  }
  out << interp::valueToJson(interp::evaluate(def, sizes, inputs)) << "\n";
  return 0;
}

} // namespace risec::driver
