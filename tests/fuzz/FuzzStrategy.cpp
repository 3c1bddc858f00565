// libFuzzer harness of the strategy language (docs/fuzzing.md, "libFuzzer
// harnesses"). The input is a strategy file (.elevate): it is loaded (parse,
// names, arities, parameters at their defaults, requirements) and applied to
// the entry (last def) of a corpus program with elevate::rewriteDef.
//
// The program: specs/mm.rise, unless the input's first line is
//   // program: PATH
// with PATH one of the programs loaded at start-up (specs/*.rise and
// tests/rise/*.rise that type-check, and tests/rise/errors/strategy_*.rise),
// e.g. `// program: specs/dot.rise`. The line is a comment, so the whole
// input stays a strategy file; tests/fuzz/run puts it in front of the seeds
// it collects. Anything but a rewritten def or a CompileError with a code and
// a location aborts (FuzzSupport.h).
#include "FuzzSupport.h"

#include "elevate/Rewriter.h"
#include "elevate/StrategyFile.h"
#include "rise/infer/EqualUnderPreconditions.h"
#include "rise/infer/Infer.h"
#include "rise/parse/Parser.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

using namespace risec;
using namespace risec::rise;
namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultProgram = "specs/mm.rise";

struct RewriteTarget {
  Program program;
  TypedDef entry;
};

std::map<std::string, RewriteTarget>& targets() {
  static std::map<std::string, RewriteTarget> t;
  return t;
}

void load(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::string key = fs::relative(file, fuzz::sourceDir()).string();
  try {
    RewriteTarget t;
    t.program = parseProgram(makeSourceFile(key, text.str()));
    if (t.program.defs.empty())
      return;
    t.entry = inferDef(t.program, t.program.defs.back().name);
    targets()[key] = std::move(t);
  } catch (const CompileError&) {
    // not a program to rewrite (the diagnostics corpus)
  }
}

void loadFolder(const fs::path& dir, const std::string& prefix) {
  for (const auto& f : fs::directory_iterator(dir))
    if (f.path().extension() == ".rise" && f.path().filename().string().rfind(prefix, 0) == 0)
      load(f.path());
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fs::path root = fuzz::sourceDir();
  loadFolder(root / "specs", "");
  loadFolder(root / "tests" / "rise", "");
  loadFolder(root / "tests" / "rise" / "errors", "strategy_");
  if (!targets().count(kDefaultProgram)) {
    std::fprintf(stderr, "risec_fuzz_strategy: cannot load %s\n", kDefaultProgram);
    std::exit(1);
  }
  std::fprintf(stderr, "risec_fuzz_strategy: %zu programs to rewrite\n", targets().size());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  const RewriteTarget* target = &targets().at(kDefaultProgram);
  const std::string marker = "// program: ";
  if (text.rfind(marker, 0) == 0) {
    std::string name = text.substr(marker.size(), text.find('\n') - marker.size());
    while (!name.empty() && (name.back() == ' ' || name.back() == '\r'))
      name.pop_back();
    if (auto it = targets().find(name); it != targets().end())
      target = &it->second;
  }
  elevate::StrategyPtr strategy;
  if (!fuzz::resultOrDiagnostic("load strategy", [&] {
        strategy = elevate::loadStrategy(makeSourceFile("input.elevate", text));
      }))
    return 0;
  fuzz::resultOrDiagnostic("rewrite", [&] {
    TypedDef rewritten = elevate::rewriteDef(target->program, target->entry, *strategy);
    if (!typeEqualUnder(rewritten.type, target->entry.type, rewritten.preconditions))
      fuzz::finding("the rewrite changed the type of `" + target->entry.name + "` from " +
                    typeToString(target->entry.type) + " to " + typeToString(rewritten.type));
  });
  return 0;
}
