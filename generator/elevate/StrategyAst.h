// The parse tree of a strategy file, before names are resolved.
#pragma once

#include "support/SourceLocation.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace risec::elevate {

struct SNode;
using SNodePtr = std::shared_ptr<const SNode>;

struct SNode {
  enum class Kind {
    Call,   ///< NAME or NAME(args)
    Int,    ///< an integer argument
    List,   ///< [INT, ...]
    Seq,    ///< a ; b
    DSeq,   ///< a ;; b
    Choice, ///< a <+ b
    At,     ///< a @ traversal (traversal: a Call)
  } kind;
  SourceLocation loc;
  std::string name;                ///< Call
  std::vector<SNodePtr> args;      ///< Call arguments; Seq/DSeq/Choice/At: {a, b}
  std::int64_t value = 0;          ///< Int
  std::vector<std::int64_t> items; ///< List
  bool hasParens = false;          ///< Call written with `(...)`
};

struct SDef {
  std::string name;
  std::vector<std::string> params;
  SNodePtr body;
  SourceLocation loc;
};

struct StrategyFileAst {
  std::vector<SDef> defs;
  SNodePtr main;
};

} // namespace risec::elevate
