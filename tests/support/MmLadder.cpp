#include "MmLadder.h"

#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"
#include "rise/parse/Parser.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace risec::testsupport {

namespace {

std::string readRepoFile(const std::string& relative) {
  std::ifstream in(std::filesystem::path(RISEC_TEST_DATA) / ".." / relative, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

const std::vector<std::string>& mmLadderSteps() {
  static const std::vector<std::string> steps = {
      "baseline",      "blocking",     "vectorisation", "loop-permutation",
      "array-packing", "cache-blocks", "parallel"};
  return steps;
}

std::string mmLadderSymbol(const std::string& step) {
  std::string s = "mm_" + step;
  for (char& c : s)
    if (c == '-')
      c = '_';
  return s;
}

std::string mmLadderTarget(const std::string& step) {
  const std::string suffix = "parallel";
  bool parallel = step.size() >= suffix.size() &&
                  step.compare(step.size() - suffix.size(), suffix.size(), suffix) == 0;
  return parallel ? "openmp" : "c";
}

MmLadderKernel compileMmLadderStep(const std::string& step) {
  const std::string source = "specs/mm.rise", strategyFile = "specs/mm." + step + ".elevate";
  rise::Program program = rise::parseProgram(rise::makeSourceFile(source, readRepoFile(source)));
  rise::TypedDef def = rise::inferDef(program, program.defs.back().name);
  elevate::StrategyPtr strategy =
      elevate::loadStrategy(rise::makeSourceFile(strategyFile, readRepoFile(strategyFile)));
  MmLadderKernel k;
  k.original = def;
  k.rewritten = elevate::rewriteDef(program, def, *strategy, {});
  k.program = elevate::rewrittenProgram(program, k.rewritten);
  k.compiled = codegen::compileToC(k.program, k.rewritten,
                                   {mmLadderSymbol(step), source, "golden", strategyFile,
                                    *codegen::parseTarget(mmLadderTarget(step))});
  return k;
}

} // namespace risec::testsupport
