// The types a foreign function may take and return, shared by the
// interpreter (rise/interp/Foreign.h) and the back ends (codegen/c/EmitForeign.cpp):
// scalars, vectors that are native in every target and pairs of these.
#pragma once

#include "rise/ast/Expr.h"

namespace risec::rise {

/// Whether a foreign function may take or return values of type `t`: a
/// scalar, a vector `vec[s, w]` of a non-bool, non-natType scalar with w in
/// {2, 4, 8, 16} (a native vector of every target), or a pair of such types.
bool foreignTypeSupported(const Type& t);

/// Rejects a foreign declaration whose parameter or result type is not
/// supported (E0422, at the declaration); the interpreter and the back ends
/// call it before they use the declaration.
void checkForeignSignature(const ForeignDecl& decl);

} // namespace risec::rise
