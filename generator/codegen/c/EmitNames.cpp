#include "codegen/c/EmitNames.h"

#include <cctype>

namespace risec::codegen::c {

NameTable::NameTable() {
  for (const char* k :
       {"auto",    "break",  "case",          "char",   "const",    "continue", "default",
        "do",      "double", "else",          "enum",   "extern",   "float",    "for",
        "goto",    "if",     "inline",        "int",    "long",     "register", "restrict",
        "return",  "short",  "signed",        "sizeof", "static",   "struct",   "switch",
        "typedef", "union",  "unsigned",      "void",   "volatile", "while",    "bool",
        "true",    "false",  "NULL",          "main",   "malloc",   "free",     "size_t",
        "INT_MAX", "_Bool",  "_Static_assert"})
    used_.insert(k);
}

std::string NameTable::fresh(const std::string& hint) {
  std::string base;
  for (char c : hint)
    base += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0])))
    base = "v" + base;
  if (base.rfind("risec_", 0) == 0)
    base = "v_" + base;
  std::string name = base;
  for (int k = 2; used_.count(name); ++k)
    name = base + "_" + std::to_string(k);
  used_.insert(name);
  return name;
}

} // namespace risec::codegen::c
