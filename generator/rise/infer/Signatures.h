// The type of every primitive (docs/language.md, "Primitives"; the papers'
// typing rules).
// Signatures are written in RISE type syntax, extended with implicit binders
// `{n: Nat}` (inferred at each use) and the refined data kinds `Scalar`,
// `Numeric` and `Float` that restrict what a type variable may stand for.
//
// The order of binders in a signature is the order of the DepApp arguments of
// an elaborated primitive: every dependent parameter, implicit or explicit,
// appears as one DepApp, followed by the value arguments as Apps.
#pragma once

#include "rise/ast/Primitive.h"
#include "rise/types/Type.h"

#include <string_view>

namespace risec::rise {

/// The signature text, e.g. "{n: Nat} -> {s: Data} -> {t: Data} -> (s -> t) -> n.s -> n.t".
std::string_view signatureText(Prim p);

/// The parsed signature. Each call returns the same shared type; instantiate
/// it with fresh variables before unifying (see Infer.cpp).
const Type& signature(Prim p);

/// Whether the primitive takes an address space argument (its signature
/// starts with `(a: AddrSpace) ->`: oclToMem, oclReduceSeq, oclIterate,
/// circularBuffer, rotateValues).
bool takesAddrSpace(Prim p);

/// Number of dependent (type-level) parameters and of value parameters.
int depArity(Prim p);
int valueArity(Prim p);

/// How the primitive uses its value arguments and what its result is: its
/// row's `uses(...)`, or, for a scalar operator or math function whose row
/// names none, every argument read and the result read. `defined` is false
/// only for a primitive that has neither (no DPIA definition).
PrimAccess primAccess(Prim p);

} // namespace risec::rise
