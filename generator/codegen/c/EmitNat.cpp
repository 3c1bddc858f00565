#include "codegen/c/EmitNat.h"

#include "support/Diagnostic.h"

#include <algorithm>
#include <vector>

namespace risec::codegen::c {

using rise::Nat;
using rise::NatKind;

namespace {

bool needsStructural(const Nat& n) {
  switch (n->kind()) {
  case NatKind::Pow:
  case NatKind::Min:
  case NatKind::Max:
    return true;
  case NatKind::Const:
  case NatKind::Var:
    return false;
  default:
    for (const Nat& o : n->operands())
      if (needsStructural(o))
        return true;
    return false;
  }
}

bool atomic(const std::string& s) {
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

/// The operators of a rendered Nat (rise::natToString) outside its
/// parentheses: what decides whether it needs parentheses as an operand.
struct RenderedOps {
  bool addOrSub = false; ///< `a + b`, `a - b`, or a leading `-`
  bool divOrMod = false; ///< `a / b`, `a % b`
};

RenderedOps renderedOps(const std::string& s) {
  RenderedOps t;
  t.addOrSub = !s.empty() && s[0] == '-';
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(')
      ++depth;
    else if (c == ')')
      --depth;
    else if (depth == 0 && i > 0) { // natToString writes `n - 1` but `k/16`
      t.addOrSub |= c == '+' || c == '-';
      t.divOrMod |= c == '/' || c == '%';
    }
  }
  return t;
}

/// A term of a sum that is negative as written: a negative constant, or a
/// product whose constant factor is negative. Its negation, else null.
Nat negatedTerm(const Nat& t) {
  if (t->isConst() && t->value() < 0)
    return rise::natConst(-t->value());
  if (t->kind() == NatKind::Prod && t->operands()[0]->isConst() && t->operands()[0]->value() < 0)
    return rise::natMul(rise::natConst(-1), t);
  return nullptr;
}

} // namespace

CExpr NatPrinter::operand(const Nat& n, COp parent, bool first) const {
  CExpr e = bare(n);
  if (e->kind() != ExprNode::Kind::Literal || atomic(e->text()))
    return e;
  // C's precedence and left associativity: `a - b + c` and `a / b * c` read
  // as written; a sum as a later operand, or inside a product or a
  // division, keeps its parentheses, as does a division inside a product
  // unless it comes first.
  RenderedOps t = renderedOps(e->text());
  bool wrap = true;
  switch (parent) {
  case COp::Add:
  case COp::Sub:
    wrap = t.addOrSub && !first;
    break;
  case COp::Mul:
    wrap = t.addOrSub || (t.divOrMod && !first);
    break;
  case COp::Div:
  case COp::Mod:
    wrap = t.addOrSub || !first;
    break;
  default:
    break;
  }
  return wrap ? literal("(" + e->text() + ")") : e;
}

CExpr NatPrinter::bare(const Nat& n) const {
  if (!needsStructural(n)) {
    Nat renamed = rise::natMapVars(n, [&](const rise::NatVarInfo& v) -> Nat {
      auto info = std::make_shared<rise::NatVarInfo>(v);
      info->name = name(v);
      return rise::natVarRef(info);
    });
    return literal(rise::natToString(renamed));
  }
  // structural form: operators in normal-form order (a sum's constant
  // last), a sum's negative terms subtracted (`k - w`, not `k + (-w)`) after
  // a first term that is not negative, operands in parentheses only where C
  // needs them (operand())
  switch (n->kind()) {
  case NatKind::Sum: {
    std::vector<Nat> terms = n->operands();
    // the constant last, as rise::natToString writes it (`k + w * j + 2`)
    std::stable_partition(terms.begin(), terms.end(), [](const Nat& t) { return !t->isConst(); });
    auto lead = std::find_if(terms.begin(), terms.end(),
                             [](const Nat& t) { return negatedTerm(t) == nullptr; });
    if (lead != terms.end())
      std::rotate(terms.begin(), lead, lead + 1);
    CExpr e = operand(terms[0], COp::Add, true);
    for (std::size_t i = 1; i < terms.size(); ++i) {
      Nat negated = negatedTerm(terms[i]);
      e = negated ? binary(COp::Sub, e, operand(negated, COp::Sub, false))
                  : binary(COp::Add, e, operand(terms[i], COp::Add, false));
    }
    return e;
  }
  case NatKind::Prod: {
    CExpr e = operand(n->operands()[0], COp::Mul, true);
    for (std::size_t i = 1; i < n->operands().size(); ++i)
      e = binary(COp::Mul, e, operand(n->operands()[i], COp::Mul, false));
    return e;
  }
  case NatKind::Div:
    return binary(COp::Div, operand(n->lhs(), COp::Div, true), operand(n->rhs(), COp::Div, false));
  case NatKind::Mod:
    return binary(COp::Mod, operand(n->lhs(), COp::Mod, true), operand(n->rhs(), COp::Mod, false));
  case NatKind::Pow:
    if (n->rhs()->isConst() && n->rhs()->value() >= 0 && n->rhs()->value() <= 8) {
      if (n->rhs()->value() == 0)
        return intLit(1);
      CExpr e = operand(n->lhs(), COp::Mul, true);
      for (std::int64_t i = 1; i < n->rhs()->value(); ++i)
        e = binary(COp::Mul, e, operand(n->lhs(), COp::Mul, false));
      return e;
    }
    helpers->insert("risec_pow");
    return call("risec_pow", {bare(n->lhs()), bare(n->rhs())});
  case NatKind::Min:
    helpers->insert("risec_min");
    return call("risec_min", {bare(n->lhs()), bare(n->rhs())});
  case NatKind::Max:
    helpers->insert("risec_max");
    return call("risec_max", {bare(n->lhs()), bare(n->rhs())});
  default:
    return literal("0");
  }
}

CExpr NatPrinter::expr(const Nat& n) const {
  CExpr e = bare(n);
  if (e->kind() == ExprNode::Kind::Literal && !atomic(e->text()))
    return literal("(" + e->text() + ")");
  return e;
}

CExpr NatPrinter::upperBound(const Nat& n) const {
  switch (n->kind()) {
  case NatKind::Const:
    return literal(std::to_string(n->value()) + ".0");
  case NatKind::Var:
    return cast(namedType("double"), ident(name(n->var())));
  case NatKind::Sum: { // negative terms only make it smaller
    CExpr e;
    for (const Nat& t : n->operands()) {
      bool negative = (t->isConst() && t->value() < 0) ||
                      (t->kind() == NatKind::Prod && t->operands()[0]->isConst() &&
                       t->operands()[0]->value() < 0);
      if (!negative)
        e = e ? binary(COp::Add, e, upperBound(t)) : upperBound(t);
    }
    return e ? e : literal("0.0");
  }
  case NatKind::Prod: {
    CExpr e = upperBound(n->operands()[0]);
    for (std::size_t i = 1; i < n->operands().size(); ++i)
      e = binary(COp::Mul, e, upperBound(n->operands()[i]));
    return e;
  }
  case NatKind::Div: // a / b over the reals bounds floor(a / b)
    return binary(COp::Div, upperBound(n->lhs()), upperBound(n->rhs()));
  case NatKind::Mod: // a % b < b
    return upperBound(n->rhs());
  case NatKind::Pow:
    if (n->rhs()->isConst() && n->rhs()->value() >= 0 && n->rhs()->value() <= 8) {
      CExpr e = literal("1.0");
      for (std::int64_t i = 0; i < n->rhs()->value(); ++i)
        e = binary(COp::Mul, e, upperBound(n->lhs()));
      return e;
    }
    throw CompileError("E0699", {},
                       "the size `" + rise::natToString(n) +
                           "` (a power with a symbolic exponent) is not supported by the C back "
                           "end yet");
  case NatKind::Min: // min(a, b) <= a
    return upperBound(n->lhs());
  case NatKind::Max: // max(a, b) <= a + b for naturals
    return binary(COp::Add, upperBound(n->lhs()), upperBound(n->rhs()));
  }
  return literal("0.0");
}

} // namespace risec::codegen::c
