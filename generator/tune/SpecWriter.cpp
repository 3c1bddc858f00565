#include "tune/SpecWriter.h"

#include "support/Diagnostic.h"

#include <yaml-cpp/yaml.h>

namespace risec::tune {

std::string flowMapping(const TunedParams& params) {
  std::string s;
  for (const auto& [name, value] : params)
    s += (s.empty() ? "" : ", ") + name + ": " + std::to_string(value);
  return "{" + s + "}";
}

namespace {

[[noreturn]] void refuse(const SourceLocation& at, const std::string& why,
                         const std::string& paste) {
  throw CompileError("E0835", at,
                     "cannot write the tuned values into the spec safely (" + why +
                         "); edit it by hand: " + paste + " (or run again with --no-write)");
}

/// The end (one past) of the node that starts at `pos`: a flow collection
/// up to its matching bracket, a quoted scalar up to its closing quote, a
/// plain scalar of `scalar`'s length. npos when the text does not match.
std::size_t nodeEnd(const std::string& text, std::size_t pos, const std::string& scalar) {
  if (pos >= text.size())
    return std::string::npos;
  char c = text[pos];
  if (c == '{' || c == '[') {
    int depth = 0;
    char quote = 0;
    for (std::size_t k = pos; k < text.size(); ++k) {
      char d = text[k];
      if (quote) {
        if (d == quote)
          quote = 0;
        continue;
      }
      if (d == '\'' || d == '"')
        quote = d;
      else if (d == '#' && k > 0 && (text[k - 1] == ' ' || text[k - 1] == '\n'))
        return std::string::npos; // a comment inside: do not touch
      else if (d == '{' || d == '[')
        ++depth;
      else if (d == '}' || d == ']') {
        if (--depth == 0)
          return k + 1;
      }
    }
    return std::string::npos;
  }
  if (c == '\'' || c == '"') {
    std::size_t close = text.find(c, pos + 1);
    if (close == std::string::npos || text.substr(pos + 1, close - pos - 1) != scalar)
      return std::string::npos;
    return close + 1;
  }
  if (text.compare(pos, scalar.size(), scalar) != 0)
    return std::string::npos;
  return pos + scalar.size();
}

std::string replaced(const std::string& text, std::size_t begin, std::size_t end,
                     const std::string& with) {
  return text.substr(0, begin) + with + text.substr(end);
}

} // namespace

std::string writeTunedParams(const std::string& text, std::size_t variantIndex,
                             const std::string& level, const TunedParams& params,
                             const SourceLocation& at) {
  const std::string values = flowMapping(params);
  const std::string pasteIsa = "`{isa: " + level + ", params: " + values + "}`";
  const std::string pasteParams = "`params: " + values + "`";
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    refuse(at, "the spec no longer parses: " + e.msg, level.empty() ? pasteParams : pasteIsa);
  }
  YAML::Node variants = root["variants"];
  if (!variants.IsSequence() || variantIndex >= variants.size())
    refuse(at, "the spec's variants changed", level.empty() ? pasteParams : pasteIsa);
  YAML::Node v = variants[variantIndex];
  const std::size_t vpos = static_cast<std::size_t>(v.Mark().pos);
  if (!v.IsMap() || vpos >= text.size() || text[vpos] == '{')
    refuse(at, "the variant is not a block mapping", level.empty() ? pasteParams : pasteIsa);

  if (!level.empty()) {
    YAML::Node isas = v["isas"];
    if (!isas || !isas.IsSequence())
      refuse(at, "the variant has no `isas:` list of its own",
             "add " + pasteIsa + " to the variant's `isas:`");
    for (const YAML::Node& item : isas) {
      std::string name;
      if (item.IsScalar())
        name = item.Scalar();
      else if (item.IsMap() && item["isa"] && item["isa"].IsScalar())
        name = item["isa"].Scalar();
      if (name != level)
        continue;
      std::size_t b = static_cast<std::size_t>(item.Mark().pos);
      if (item.IsMap() && (b >= text.size() || text[b] != '{'))
        refuse(at, "the `isas:` entry of " + level + " is a block mapping",
               "replace it with " + pasteIsa);
      std::size_t e = nodeEnd(text, b, item.IsScalar() ? name : "");
      if (e == std::string::npos)
        refuse(at, "the `isas:` entry of " + level + " has a layout risec does not edit",
               "replace it with " + pasteIsa);
      return replaced(text, b, e, "{isa: " + level + ", params: " + values + "}");
    }
    refuse(at, "the variant's `isas:` does not list " + level, "add " + pasteIsa);
  }

  if (YAML::Node p = v["params"]) {
    std::size_t b = static_cast<std::size_t>(p.Mark().pos);
    std::size_t e = p.IsMap() ? nodeEnd(text, b, "") : std::string::npos;
    if (e == std::string::npos || text[b] != '{')
      refuse(at, "the variant's `params:` is not a one-line flow mapping",
             "replace it with " + pasteParams);
    return replaced(text, b, e, values);
  }
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!it->first.IsScalar() || it->first.Scalar() != "strategy" || !it->second.IsScalar())
      continue;
    std::size_t b = static_cast<std::size_t>(it->second.Mark().pos);
    std::size_t e = nodeEnd(text, b, it->second.Scalar());
    std::size_t eol = e == std::string::npos ? e : text.find('\n', e);
    if (eol == std::string::npos)
      break;
    std::string indent(static_cast<std::size_t>(it->first.Mark().column), ' ');
    return text.substr(0, eol + 1) + indent + "params: " + values + "\n" + text.substr(eol + 1);
  }
  refuse(at, "no one-line `strategy:` to add `params:` after", "add " + pasteParams);
}

} // namespace risec::tune
