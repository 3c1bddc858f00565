#include "FuzzPrograms.h"

#include "FuzzSupport.h"
#include "rise/parse/Parser.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace risec::fuzz {

namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultProgram = "specs/mm.rise";

std::map<std::string, RewriteTarget>& programs() {
  static std::map<std::string, RewriteTarget> p;
  return p;
}

void load(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::string key = fs::relative(file, sourceDir()).string();
  try {
    RewriteTarget t;
    t.program = rise::parseProgram(rise::makeSourceFile(key, text.str()));
    if (t.program.defs.empty())
      return;
    t.entry = rise::inferDef(t.program, t.program.defs.back().name);
    programs()[key] = std::move(t);
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

void loadPrograms(const char* harness) {
  if (!programs().empty())
    return;
  fs::path root = sourceDir();
  loadFolder(root / "specs", "");
  loadFolder(root / "tests" / "rise", "");
  loadFolder(root / "tests" / "rise" / "errors", "strategy_");
  if (!programs().count(kDefaultProgram)) {
    std::fprintf(stderr, "%s: cannot load %s\n", harness, kDefaultProgram);
    std::exit(1);
  }
  std::fprintf(stderr, "%s: %zu programs to rewrite\n", harness, programs().size());
}

std::string headerValue(const std::string& input, const std::string& key) {
  const std::string marker = "// " + key + ": ";
  std::size_t at = 0;
  while (input.compare(at, 2, "//") == 0) {
    std::size_t end = input.find('\n', at);
    std::string line = input.substr(at, end == std::string::npos ? end : end - at);
    if (line.rfind(marker, 0) == 0) {
      std::string value = line.substr(marker.size());
      while (!value.empty() && (value.back() == ' ' || value.back() == '\r'))
        value.pop_back();
      return value;
    }
    if (end == std::string::npos)
      break;
    at = end + 1;
  }
  return "";
}

const RewriteTarget& programFor(const std::string& input) {
  auto it = programs().find(headerValue(input, "program"));
  return it != programs().end() ? it->second : programs().at(kDefaultProgram);
}

} // namespace risec::fuzz
