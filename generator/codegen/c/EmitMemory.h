// The C back end's memory model (private to codegen/c/Emit*.cpp and the
// hoisting stage, codegen/HoistTemporaries.h): where the value of a DPIA
// identifier lives, which temporaries are C arrays or variables declared in
// place and which ones are allocated with malloc (EmitC.h, "Memory policy").
#pragma once

#include "codegen/c/CAst.h"
#include "rise/nat/Nat.h"
#include "rise/types/Type.h"
#include "support/SourceLocation.h"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace risec::dpia {
struct Path;
} // namespace risec::dpia

namespace risec::codegen::c {

/// Where the value of a DPIA identifier lives.
struct Memory {
  std::string name;
  rise::Type type;
  bool variable = false;     ///< a plain C variable (non-array); else a pointer/array
  std::vector<Memory> parts; ///< a pair holding arrays: one memory per component
  /// with parts: the array dimensions the components share (0 for a pair; 1
  /// for `n.(m.f32, f32)`, stored as `n.m.f32` and `n.f32`)
  std::size_t sharedDims = 0;
  rise::Nat offset = nullptr;  ///< OpenCL: the start of this copy's slice (null: 0)
  std::uint64_t privateId = 0; ///< OpenCL: the private temporary (its `new`), or 0
  /// OpenCL: a private array distributed over the work-items (`type` is then
  /// its part in one work-item): index i of array dimension k is at
  /// i / divisors[k] (codegen/opencl/PrivateMemory.h)
  std::vector<std::int64_t> divisors = {};
};

/// The memory of a value of type `t` named after `base` (split pairs get
/// `base_fst`, `base_snd`); `name` picks unique names.
Memory makeMemory(const std::string& base, const rise::Type& t,
                  const std::function<std::string(const std::string&)>& name);

/// The leaves of a memory (itself, or its components' leaves, in order).
void leaves(const Memory& m, std::vector<const Memory*>& out);

/// The component of a split memory (one with parts) that `path` selects:
/// its first `m.sharedDims` indices stay in `path` for the component, the
/// pair step after them is removed. Null when `path` stops before that step.
const Memory* selectPart(const Memory& m, dpia::Path& path);

/// `t` with array dimension k (outermost first) holding ceil(n / divisors[k])
/// elements.
rise::Type distributedType(const rise::Type& t, const std::vector<std::int64_t>& divisors,
                           std::size_t k = 0);

/// Whether `t` is or contains an array or a vector.
bool holdsArray(const rise::Type& t);

/// A pair holding arrays has no flat layout: it is stored as one memory per
/// component ("struct of arrays"), e.g. the parameters `output_fst, output_snd`.
/// So is an array of pairs holding arrays (a temporary of type
/// `n.(m.f32, f32)` is the memories `tmp_fst: n.m.f32` and `tmp_snd: n.f32`;
/// entry parameters of such types are refused, CheckProgram.h).
bool splitPair(const rise::Type& t);

/// The types of the two components of a split memory of type `t`
/// (splitPair), each under the array dimensions they share.
std::pair<rise::Type, rise::Type> splitComponents(const rise::Type& t);

/// Whether a temporary of type `t` is declared in place (a C array or
/// variable of a constant size of at most kStackLimitBytes) rather than
/// allocated with malloc.
bool isStack(const rise::Type& t);

/// A temporary of type `t` (its `new` at `loc`) needs a memory layout: E0699.
void checkTemporaryLayout(const rise::Type& t, const SourceLocation& loc);

/// `(void)x;` for every parameter the body never mentions (e.g. a size that
/// only appears in the types), so that -Wunused-parameter stays quiet.
void voidUnusedParameters(const std::vector<Param>& params, std::vector<CStmt>& body);

} // namespace risec::codegen::c
