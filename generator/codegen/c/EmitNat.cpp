#include "codegen/c/EmitNat.h"

#include "support/Diagnostic.h"

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

} // namespace

CExpr NatPrinter::bare(const Nat& n) const {
  if (!needsStructural(n)) {
    Nat renamed = rise::natMapVars(n, [&](const rise::NatVarInfo& v) -> Nat {
      auto info = std::make_shared<rise::NatVarInfo>(v);
      info->name = name(v);
      return rise::natVarRef(info);
    });
    return literal(rise::natToString(renamed));
  }
  // structural form: operators in normal-form order
  auto sub = [&](const Nat& x) { return expr(x); };
  switch (n->kind()) {
  case NatKind::Sum: {
    CExpr e = sub(n->operands()[0]);
    for (std::size_t i = 1; i < n->operands().size(); ++i)
      e = binary(COp::Add, e, sub(n->operands()[i]));
    return e;
  }
  case NatKind::Prod: {
    CExpr e = sub(n->operands()[0]);
    for (std::size_t i = 1; i < n->operands().size(); ++i)
      e = binary(COp::Mul, e, sub(n->operands()[i]));
    return e;
  }
  case NatKind::Div:
    return binary(COp::Div, sub(n->lhs()), sub(n->rhs()));
  case NatKind::Mod:
    return binary(COp::Mod, sub(n->lhs()), sub(n->rhs()));
  case NatKind::Pow:
    if (n->rhs()->isConst() && n->rhs()->value() >= 0 && n->rhs()->value() <= 8) {
      if (n->rhs()->value() == 0)
        return intLit(1);
      CExpr e = sub(n->lhs());
      for (std::int64_t i = 1; i < n->rhs()->value(); ++i)
        e = binary(COp::Mul, e, sub(n->lhs()));
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
