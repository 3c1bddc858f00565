// Helpers shared by the primitive family files.
#pragma once

#include "dpia/Imperative.h"
#include "dpia/Primitive.h"
#include "dpia/Translate.h"
#include "dpia/View.h"
#include "support/Diagnostic.h"

namespace risec::dpia::prims {

inline ArgAccess rd() {
  return {ArgAccess::Kind::Rd};
}
inline ArgAccess wr() {
  return {ArgAccess::Kind::Wr};
}
inline ArgAccess poly() {
  return {ArgAccess::Kind::Poly};
}
inline ArgAccess fun(int arity, Access body) {
  ArgAccess a{ArgAccess::Kind::Fun};
  a.arity = arity;
  a.body = body;
  return a;
}
inline ResultAccess fixed(Access a) {
  return {ResultAccess::Kind::Fixed, a, 0};
}
inline ResultAccess polyResult() {
  return {ResultAccess::Kind::Poly, Access::Rd, 0};
}

/// `f(x)` with beta reduction (f: a DPIA function phrase).
inline Phrase call(const Phrase& f, const Phrase& x) {
  return betaApply(f, x);
}
inline Phrase call(const Phrase& f, const Phrase& x, const Phrase& y) {
  return betaApply(betaApply(f, x), y);
}

/// The element type of an array data type.
inline const rise::Type& elemOf(const rise::Type& t) {
  if (t->kind() != rise::TypeKind::Array)
    throw InternalError("DPIA: expected an array type, found " + rise::typeToString(t));
  return t->elem();
}

} // namespace risec::dpia::prims
