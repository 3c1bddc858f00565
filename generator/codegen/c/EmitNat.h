// Nat expressions as C expressions. Index expressions keep the order a person
// writes (`i + m*j`, via rise::natToString); powers with a constant exponent
// become products, min/max and other powers call small helpers that the
// back end emits when used.
#pragma once

#include "codegen/c/CAst.h"
#include "rise/nat/Nat.h"

#include <functional>
#include <set>
#include <string>

namespace risec::codegen::c {

struct NatPrinter {
  /// The C spelling of a variable (size parameter, loop index, opaque run-time index).
  std::function<std::string(const rise::NatVarInfo&)> name;
  /// Helpers used so far (`risec_min`, `risec_max`, `risec_pow`).
  std::set<std::string>* helpers = nullptr;

  /// An int expression; parenthesised unless atomic, so it may be an operand.
  CExpr expr(const rise::Nat& n) const;
  /// The same without outer parentheses (array subscripts, conditions).
  CExpr bare(const rise::Nat& n) const;
  /// A conservative upper bound evaluated in double (never overflows): used
  /// to check that array sizes fit the index type.
  CExpr upperBound(const rise::Nat& n) const;

private:
  /// `n` as an operand of `parent` (its first, or a later one), in
  /// parentheses only where C's precedence and associativity need them.
  CExpr operand(const rise::Nat& n, COp parent, bool first) const;
};

} // namespace risec::codegen::c
