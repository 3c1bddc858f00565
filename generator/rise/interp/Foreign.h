// Foreign functions (`foreign NAME(a: f32, b: f32): f32 = "return a * b;"`).
//
// The body is C, so the interpreter runs it for real: on first use the
// function is written to a C file together with a wrapper
//     void risec_foreign_call(const void* const* args, void* result)
// compiled with the system C compiler ($CC if set, else `cc`; flags
// `-std=c11 -O1 -shared -fPIC ... -lm`) in a private temporary directory and
// loaded with dlopen. The temporary files are removed at once; the loaded
// library is cached for the rest of the process (keyed by the generated C
// text, so equal declarations share one library).
//
// Parameters and results are scalars, vectors and pairs of them
// (rise::foreignTypeSupported; anything else is E0422 at the declaration).
// In C, bool is `bool` (stdbool.h), iN/uN are intN_t/uintN_t, f32 is float,
// f64 is double and natType is int64_t; vec[f32, 4] is the GCC vector type
// `risec_f32x4` (vector_size(16)) and a pair (A, B) is `struct pair_A_B`
// with the fields `fst` and `snd` (e.g. `struct pair_f32_pair_i32_i32`,
// `struct pair_f32x4_f32x4`), as in the code of the C back end. The wrapper
// passes every argument and result as its scalars, one 8-byte slot each, and
// rebuilds the vectors and structs in C.
#pragma once

#include "rise/ast/Expr.h"
#include "rise/interp/Value.h"

#include <vector>

namespace risec::rise::interp {

/// Calls a foreign function. A body that does not compile is error E0420 at
/// the declaration, with the C compiler's first error line; a library that
/// cannot be loaded is E0421.
Value callForeign(const ForeignDecl& decl, const std::vector<Value>& args);

/// The complete C translation unit compiled for `decl` (for tests and error
/// reports).
std::string foreignSource(const ForeignDecl& decl);

} // namespace risec::rise::interp
