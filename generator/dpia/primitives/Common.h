// Helpers shared by the primitive family files.
#pragma once

#include "dpia/Imperative.h"
#include "dpia/Primitive.h"
#include "dpia/Translate.h"
#include "dpia/View.h"
#include "support/Diagnostic.h"

namespace risec::dpia::prims {

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
