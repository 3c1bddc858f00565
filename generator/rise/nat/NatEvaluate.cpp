// Evaluation with concrete variable values, floor division/modulo. Anything
// undefined (unbound variable, division by zero, negative exponent) or not
// representable (int64 overflow) yields nullopt rather than a wrong number.
#include "rise/nat/NatInternal.h"

#include <algorithm>

namespace risec::rise {

using namespace detail;

namespace {

using Lookup = std::function<std::optional<std::int64_t>(const NatVarInfo&)>;

// Overflow is kept apart from "undefined" so that a product with a zero
// factor is 0 even if another factor is too large for int64: simplification
// may legitimately turn (x*y)^27 into x^27*y^27.
struct Value {
  enum State { Ok, Overflow, Undefined } state = Ok;
  std::int64_t v = 0;
};

Value ok(std::int64_t v) {
  return {Value::Ok, v};
}
Value fromChecked(std::optional<std::int64_t> r) {
  return r ? ok(*r) : Value{Value::Overflow};
}

Value evaluate(const Nat& n, const Lookup& lookup);

Value evalSum(const std::vector<Nat>& ops, const Lookup& lookup) {
  Value acc = ok(0);
  for (const auto& op : ops) {
    Value v = evaluate(op, lookup);
    if (v.state == Value::Undefined) {
      return v;
    }
    if (acc.state == Value::Ok) {
      acc = v.state == Value::Ok ? fromChecked(checkedAdd(acc.v, v.v)) : v;
    }
  }
  return acc;
}

Value evalProd(const std::vector<Nat>& ops, const Lookup& lookup) {
  Value acc = ok(1);
  bool zero = false;
  for (const auto& op : ops) {
    Value v = evaluate(op, lookup);
    if (v.state == Value::Undefined) {
      return v;
    }
    zero = zero || (v.state == Value::Ok && v.v == 0);
    if (acc.state == Value::Ok) {
      acc = v.state == Value::Ok ? fromChecked(checkedMul(acc.v, v.v)) : v;
    }
  }
  return zero ? ok(0) : acc;
}

Value evalBinary(NatKind kind, std::int64_t a, std::int64_t b) {
  switch (kind) {
  case NatKind::Div:
    return b == 0 ? Value{Value::Undefined} : fromChecked(floorDiv(a, b));
  case NatKind::Mod:
    return b == 0 ? Value{Value::Undefined} : fromChecked(floorMod(a, b));
  case NatKind::Pow:
    return b < 0 ? Value{Value::Undefined} : fromChecked(checkedPow(a, b));
  case NatKind::Min:
    return ok(std::min(a, b));
  case NatKind::Max:
    return ok(std::max(a, b));
  default:
    return {Value::Undefined};
  }
}

Value evaluate(const Nat& n, const Lookup& lookup) {
  switch (n->kind()) {
  case NatKind::Const:
    return ok(n->value());
  case NatKind::Var: {
    auto v = lookup(n->var());
    return v ? ok(*v) : Value{Value::Undefined};
  }
  case NatKind::Sum:
    return evalSum(n->operands(), lookup);
  case NatKind::Prod:
    return evalProd(n->operands(), lookup);
  default: {
    Value a = evaluate(n->lhs(), lookup);
    Value b = evaluate(n->rhs(), lookup);
    if (a.state == Value::Undefined || b.state == Value::Undefined) {
      return {Value::Undefined};
    }
    if (a.state == Value::Overflow || b.state == Value::Overflow) {
      return {Value::Overflow};
    }
    return evalBinary(n->kind(), a.v, b.v);
  }
  }
}

} // namespace

std::optional<std::int64_t> natEvaluate(const Nat& n, const Lookup& lookup) {
  Value v = evaluate(n, lookup);
  if (v.state != Value::Ok) {
    return std::nullopt;
  }
  return v.v;
}

} // namespace risec::rise
