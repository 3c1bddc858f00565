#include "driver/SizesOption.h"

#include "support/Diagnostic.h"

namespace risec::driver {

std::map<std::string, std::int64_t>
parseSizesOption(const std::string& text, const std::string& code, const std::string& example) {
  std::map<std::string, std::int64_t> sizes;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t comma = text.find(',', pos);
    std::string item =
        text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    std::size_t eq = item.find('=');
    std::string name = item.substr(0, eq);
    std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
    if (name.empty() || !digits || value.size() > 15)
      throw CompileError(code, {},
                         "bad --sizes item `" + item +
                             "`; write NAME=VALUE pairs separated by commas, e.g. " + example);
    if (sizes.count(name))
      throw CompileError(code, {}, "size `" + name + "` is given twice in --sizes");
    sizes[name] = std::stoll(value);
    if (comma == std::string::npos)
      break;
    pos = comma + 1;
  }
  return sizes;
}

std::string formatSizes(const std::map<std::string, std::int64_t>& sizes) {
  std::string t;
  for (const auto& [name, value] : sizes)
    t += (t.empty() ? "" : ",") + name + "=" + std::to_string(value);
  return t.empty() ? "(no sizes)" : t;
}

} // namespace risec::driver
