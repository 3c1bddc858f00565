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

} // namespace risec::driver
