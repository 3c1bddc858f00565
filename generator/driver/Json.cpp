#include "driver/Json.h"

#include <cstdio>

namespace risec::driver {

std::string jsonQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  return out + "\"";
}

std::string Json::print() const {
  std::string out;
  print(out, 0);
  return out + "\n";
}

void Json::print(std::string& out, int indent) const {
  std::string pad(indent + 2, ' ');
  switch (kind_) {
  case Kind::Null:
    out += "null";
    return;
  case Kind::Bool:
    out += bool_ ? "true" : "false";
    return;
  case Kind::Int:
    out += std::to_string(int_);
    return;
  case Kind::String:
    out += jsonQuote(string_);
    return;
  case Kind::Array:
    if (array_.empty()) {
      out += "[]";
      return;
    }
    out += "[\n";
    for (std::size_t k = 0; k < array_.size(); ++k) {
      out += pad;
      array_[k].print(out, indent + 2);
      out += k + 1 < array_.size() ? ",\n" : "\n";
    }
    out += std::string(indent, ' ') + "]";
    return;
  case Kind::Object:
    if (object_.empty()) {
      out += "{}";
      return;
    }
    out += "{\n";
    std::size_t k = 0;
    for (const auto& [key, value] : object_) {
      out += pad + jsonQuote(key) + ": ";
      value.print(out, indent + 2);
      out += ++k < object_.size() ? ",\n" : "\n";
    }
    out += std::string(indent, ' ') + "}";
    return;
  }
}

} // namespace risec::driver
