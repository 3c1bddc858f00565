#include "TestFiles.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace risec::test {

namespace fs = std::filesystem;

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string trim(std::string s) {
  auto notSpace = [](unsigned char c) { return !std::isspace(c); };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), notSpace));
  s.erase(std::find_if(s.rbegin(), s.rend(), notSpace).base(), s.end());
  return s;
}

std::vector<std::string> filesWithExtension(const fs::path& dir, const std::string& ext) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_regular_file() && entry.path().extension() == ext)
      files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string testNameOfFile(const std::string& path) {
  std::string name = fs::path(path).stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

} // namespace risec::test
