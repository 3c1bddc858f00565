// The surface text of a strategy's parse tree (StrategyAst.h: surfaceText).
#include "elevate/StrategyAst.h"

namespace risec::elevate {

namespace {

/// Whether `n` needs parentheses as an operand of an infix operator of
/// precedence `outer` (`@` binds tighter than `<+`, which binds tighter than
/// `;` and `;;`).
int precedence(const SNode& n) {
  switch (n.kind) {
  case SNode::Kind::Seq:
  case SNode::Kind::DSeq:
    return 1;
  case SNode::Kind::Choice:
    return 2;
  case SNode::Kind::At:
    return 3;
  default:
    return 4;
  }
}

std::string operand(const SNode& n, int outer) {
  std::string t = surfaceText(n);
  return precedence(n) < outer ? "(" + t + ")" : t;
}

} // namespace

std::string surfaceText(const SNode& n) {
  switch (n.kind) {
  case SNode::Kind::Int:
    return std::to_string(n.value);
  case SNode::Kind::List: {
    std::string t = "[";
    for (std::size_t i = 0; i < n.items.size(); ++i)
      t += (i ? ", " : "") + std::to_string(n.items[i]);
    return t + "]";
  }
  case SNode::Kind::Call: {
    std::string t = n.name;
    if (!n.hasParens)
      return t;
    t += "(";
    for (std::size_t i = 0; i < n.args.size(); ++i)
      t += (i ? ", " : "") + surfaceText(*n.args[i]);
    return t + ")";
  }
  case SNode::Kind::Seq:
    return operand(*n.args[0], 1) + " ; " + operand(*n.args[1], 2);
  case SNode::Kind::DSeq:
    return operand(*n.args[0], 1) + " ;; " + operand(*n.args[1], 2);
  case SNode::Kind::Choice:
    return operand(*n.args[0], 2) + " <+ " + operand(*n.args[1], 3);
  case SNode::Kind::At:
    return operand(*n.args[0], 3) + " @ " + operand(*n.args[1], 4);
  }
  return "?";
}

const SourceLocation& startOf(const SNode& n) {
  bool infix = n.kind == SNode::Kind::Seq || n.kind == SNode::Kind::DSeq ||
               n.kind == SNode::Kind::Choice || n.kind == SNode::Kind::At;
  return infix ? startOf(*n.args[0]) : n.loc;
}

} // namespace risec::elevate
