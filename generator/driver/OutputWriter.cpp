#include "driver/OutputWriter.h"

#include "support/Diagnostic.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace risec::driver {

namespace fs = std::filesystem;

namespace {

void requireDirectory(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw CompileError("E0612", {}, "the output directory `" + dir.string() + "` does not exist");
}

void writeFile(const fs::path& path, const std::string& text) {
  std::ofstream os(path, std::ios::binary);
  os << text;
  os.close();
  if (!os)
    throw CompileError("E0612", {}, "cannot write `" + path.string() + "`");
}

bool hasContents(const fs::path& path, const std::string& text) {
  std::ifstream is(path, std::ios::binary);
  if (!is)
    return false;
  std::ostringstream ss;
  ss << is.rdbuf();
  return ss.str() == text;
}

} // namespace

void writeAtomically(const std::string& dirName, const std::vector<codegen::OutputFile>& files) {
  fs::path dir(dirName);
  requireDirectory(dir);
  std::vector<std::pair<fs::path, fs::path>> moves;
  std::error_code ec;
  auto cleanup = [&] {
    for (const auto& m : moves)
      fs::remove(m.first, ec);
  };
  try {
    for (const auto& [name, text] : files) {
      fs::path tmp = dir / ("." + name + ".tmp" + std::to_string(::getpid()));
      moves.push_back({tmp, dir / name});
      writeFile(tmp, text);
    }
  } catch (const CompileError&) {
    cleanup();
    throw;
  }
  for (const auto& [tmp, final] : moves) {
    fs::rename(tmp, final, ec);
    if (ec) {
      cleanup();
      throw CompileError("E0612", {}, "cannot write `" + final.string() + "`: " + ec.message());
    }
  }
}

std::vector<std::string> writeChanged(const std::string& dir,
                                      const std::vector<codegen::OutputFile>& files) {
  requireDirectory(dir);
  std::vector<codegen::OutputFile> changed;
  std::vector<std::string> names;
  for (const codegen::OutputFile& f : files)
    if (!hasContents(fs::path(dir) / f.name, f.contents)) {
      changed.push_back(f);
      names.push_back(f.name);
    }
  writeAtomically(dir, changed);
  return names;
}

void replaceDirectory(const std::string& dirName, const std::vector<codegen::OutputFile>& files) {
  fs::path dir = fs::path(dirName).lexically_normal();
  if (dir.filename().empty())
    dir = dir.parent_path();
  fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  requireDirectory(parent);
  std::string pid = std::to_string(::getpid());
  fs::path staging = parent / ("." + dir.filename().string() + ".new" + pid);
  fs::path old = parent / ("." + dir.filename().string() + ".old" + pid);
  std::error_code ec;
  fs::remove_all(staging, ec);
  try {
    if (!fs::create_directory(staging, ec))
      throw CompileError("E0612", {},
                         "cannot create `" + staging.string() + "` next to the output directory");
    for (const auto& [name, text] : files)
      writeFile(staging / name, text);
  } catch (const CompileError&) {
    fs::remove_all(staging, ec);
    throw;
  }
  bool existed = fs::exists(dir, ec);
  if (existed) {
    fs::rename(dir, old, ec);
    if (ec) {
      fs::remove_all(staging, ec);
      throw CompileError("E0612", {}, "cannot replace `" + dir.string() + "`: " + ec.message());
    }
  }
  fs::rename(staging, dir, ec);
  if (ec) {
    std::string why = ec.message();
    if (existed)
      fs::rename(old, dir, ec);
    fs::remove_all(staging, ec);
    throw CompileError("E0612", {}, "cannot replace `" + dir.string() + "`: " + why);
  }
  fs::remove_all(old, ec);
}

} // namespace risec::driver
