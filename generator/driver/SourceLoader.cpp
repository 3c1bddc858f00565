#include "driver/SourceLoader.h"

#include "support/Diagnostic.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace risec::driver {

std::shared_ptr<const SourceFile> loadSource(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw CompileError("E0501", {},
                       "cannot read `" + path + "`: " + std::strerror(errno) +
                           "; check the path (it is relative to the current directory)");
  std::ostringstream text;
  text << in.rdbuf();
  return std::make_shared<const SourceFile>(SourceFile{path, text.str()});
}

std::string resolveEntry(const rise::Program& program, const std::string& entry,
                         const std::string& file) {
  if (program.defs.empty())
    throw CompileError("E0502", {}, file + " has no def");
  if (entry.empty())
    return program.defs.back().name;
  if (program.findDef(entry))
    return entry;
  std::string names;
  for (const rise::Def& d : program.defs)
    names += (names.empty() ? "" : ", ") + d.name;
  throw CompileError("E0502", {},
                     "no def named `" + entry + "` in " + file + "; its defs are: " + names);
}

} // namespace risec::driver
