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

/// The node as it is written (normalised spacing): `splitJoin(4) @
/// outermost(isReduce)`, for diagnostics that name a step.
std::string surfaceText(const SNode& n);
/// Where the text of `n` begins (an infix node's `loc` is its operator's).
const SourceLocation& startOf(const SNode& n);

struct SDef {
  std::string name;
  std::vector<std::string> params;
  SNodePtr body;
  SourceLocation loc;
};

/// An integer condition of a `require` declaration.
struct SExpr;
using SExprPtr = std::shared_ptr<const SExpr>;

struct SExpr {
  enum class Kind {
    Int,    ///< a literal
    Name,   ///< a parameter, a machine fact or a size of the entry
    Binary, ///< lhs op rhs
  } kind;
  SourceLocation loc;
  std::int64_t value = 0; ///< Int
  std::string name;       ///< Name; Binary: the operator (+ - * / % == != < <= > >= &&)
  SExprPtr lhs, rhs;      ///< Binary
};

/// `param NAME = DEFAULT [in [V, ...]]`: an integer the strategy is written
/// over, bound per variant and ISA level by the spec (docs/strategies.md,
/// "Parameters").
struct SParam {
  std::string name;
  std::int64_t defaultValue = 0;
  std::vector<std::int64_t> candidates; ///< the `in` list; empty: none given
  SourceLocation loc;
};

/// `require COND`: a condition on the parameters that every binding must meet.
struct SRequire {
  SExprPtr cond;
  SourceLocation loc;
};

struct StrategyFileAst {
  std::vector<SParam> params;
  std::vector<SRequire> requirements;
  std::vector<SDef> defs;
  SNodePtr main;
};

} // namespace risec::elevate
