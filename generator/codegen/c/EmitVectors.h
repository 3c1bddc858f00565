// Vector types (vec[s, w]) in the C, OpenMP and OpenCL back ends
// (docs/dpia.md, "Vectors"): how a vector value, a lane, a broadcast, a load
// from and a store to scalar memory are spelled.
//
// C and OpenMP use the GCC/Clang vector extensions:
//
//   typedef float risec_f32x4 __attribute__((vector_size(16)));
//   typedef float risec_f32x4u __attribute__((vector_size(16), aligned(4), may_alias));
//
// `risec_f32x4` is the type of values and variables; `risec_f32x4u` is only
// used to load and store through a pointer to the scalar element, which the
// ABI does not align beyond the element (`*(const risec_f32x4u*)&xs[4 * i]`).
// Only power-of-two widths from 2 lanes and non-bool elements have such a
// type; other vectors stay arrays of lanes computed lane by lane.
//
// OpenCL C 1.2 uses its native types (`float4`), `vload4`/`vstore4` (which
// need only element alignment), `(float4)(x)` broadcasts and `.s0` lanes. It
// has vectors of 2, 3, 4, 8 and 16 lanes of non-bool scalars; other vectors
// are rejected before lowering (codegen/opencl/VectorTypes.h, E0660).
#pragma once

#include "codegen/c/CAst.h"
#include "dpia/View.h"
#include "rise/ast/Primitive.h"
#include "rise/types/Type.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace risec::codegen::c {

/// The C operator that the row of scalar primitive `p` names
/// (rise::PrimTraits::cOperator): the prefix one for a unary primitive.
COp primOperator(rise::Prim p, bool prefix);

class VectorTypes {
public:
  explicit VectorTypes(bool opencl) : opencl_(opencl) {}

  /// Whether values of type `t` (a vec type) are native vectors; otherwise
  /// they are arrays of lanes computed lane by lane.
  bool native(const rise::Type& t) const;
  /// The value type: `risec_f32x4` (declared by `declarations`) or `float4`.
  CType type(const rise::Type& t);
  /// Every lane `x`: `risec_f32x4_splat(x)` (a macro of the file, see
  /// splatCode) or `(float4)(x)`.
  CExpr broadcast(const rise::Type& t, const CExpr& x);
  /// A vector from its lanes: `(risec_f32x4){a, b, c, d}` or `(float4)(a, b, c, d)`.
  CExpr fromLanes(const rise::Type& t, const std::vector<CExpr>& lanes);
  /// `v` as exactly the value type: loads (and arithmetic on them) have the
  /// unaligned type, which gcc does not mix with another vector type in
  /// `c ? a : b`, so C converts them (`__builtin_convertvector(*(const
  /// risec_f32x4u*)&xs[i], risec_f32x4)`, a no-op; gcc >= 9 and clang).
  CExpr exactly(const rise::Type& t, const CExpr& v);
  /// Lane `k` of a vector variable: `v[2]` or `v.s2`.
  CExpr lane(const CExpr& v, std::int64_t k) const;
  /// The vector starting at `base` (an element of scalar memory `array`).
  CExpr load(const rise::Type& t, const CExpr& array, const CExpr& base);
  /// Stores `value` to the `w` scalars starting at `array[base]`.
  CStmt store(const rise::Type& t, const CExpr& array, const CExpr& base, const CExpr& value);
  /// The C operator of an element-wise primitive on vectors of `t`
  /// (`add` -> `+`, `mod` of integers -> `%`, `neg` -> `-`; its row's
  /// `vectorOperator`, rise/ast/Primitive.h); nullopt if it must be computed
  /// otherwise.
  std::optional<COp> elementWise(rise::Prim prim, const rise::Type& t) const;
  /// OpenCL: the vector built-in for `prim` on `t` (`sqrt`, `min`, `fmod` of
  /// floats; its row's `openclBuiltin`); nullopt for lane by lane.
  std::optional<std::string> builtin(rise::Prim prim, const rise::Type& t) const;
  /// C: the vector of signed integer lanes that comparing two vectors of `t`
  /// yields (`risec_i32x8` for `risec_f32x8`; -1 where the lane compares true).
  rise::Type maskType(const rise::Type& t) const;
  bool opencl() const { return opencl_; }
  /// C: the typedefs of the vector types used, in first-use order, but for
  /// the value types in `declared` (names the header already declares).
  std::string declarations(const std::set<std::string>& declared = {}) const;
  /// C: the value type's name and its typedef (`typedef float risec_f32x4
  /// __attribute__((vector_size(16)));`) of each vector type used.
  std::vector<std::pair<std::string, std::string>> valueTypedefs() const;
  bool used() const { return !used_.empty(); }
  /// C: the names of the splat macros (`risec_f32x4_splat`) of the vector
  /// types used; splatCode(name) defines one.
  std::vector<std::string> splatNames() const;
  std::string splatCode(const std::string& splat) const;

private:
  bool opencl_;
  std::vector<rise::Type> used_; ///< C: one typedef pair each
  std::string name(const rise::Type& t) const;
  /// C: the load/store type `risec_f32x4u` (element-aligned, may_alias).
  CType unaligned(const rise::Type& t, bool isConst);
  void use(const rise::Type& t);
};

/// Where a chain of views ends: one memory of the emitter (a C variable or
/// an array of scalars), with the rest of the access path still to apply.
struct VectorMemory {
  std::string name;
  rise::Type type;
  bool variable = false;      ///< a C variable (a vector variable for vec types)
  rise::Nat offset = nullptr; ///< the first element of this memory's slice (null: 0)
};

/// Vector values and assignments of imperative DPIA (the "vector
/// expressions" of the C emitter). A lane is a path index, so a whole
/// vector is read or written by pushing a symbolic "all lanes" index: the
/// views map it like any lane index, and where the path reaches memory the
/// flat index is checked to be `base + lane` for every lane (one load or
/// store at `base`); otherwise the vector is gathered or scattered lane by
/// lane through the emitter's scalar code.
class VectorLowering {
public:
  /// What the lowering needs from the emitter.
  struct Emitter {
    /// The scalar read of `p` at `path` (a lane index included).
    std::function<CExpr(const dpia::Phrase&, dpia::Path&)> read;
    /// The scalar lvalue of acceptor `a` at `path`.
    std::function<CExpr(const dpia::Phrase&, dpia::Path&)> write;
    /// Follows the views of `p` with `path` to the memory it reaches, if it
    /// reaches one without computing.
    std::function<std::optional<VectorMemory>(const dpia::Phrase&, dpia::Path&)> memory;
    /// An index Nat as a C expression.
    std::function<CExpr(const rise::Nat&)> index;
    /// A fresh C name for a temporary.
    std::function<std::string(const std::string&)> fresh;
  };

  VectorLowering(VectorTypes& types, Emitter emitter)
      : types_(types), emitter_(std::move(emitter)) {}

  /// The value of the vector phrase `p` (of the native vector type `t`) at
  /// `path`: operators, broadcasts, built-ins, loads, else its lanes. Where
  /// `pre` is given, the value may need statements before it (C's `max` and
  /// `min` declare their operands and the comparison's mask there).
  CExpr value(const dpia::Phrase& p, const dpia::Path& path, const rise::Type& t,
              std::vector<CStmt>* pre = nullptr);
  /// `lhs = rhs` for a native vector type `t`: one assignment or store, or a
  /// vector temporary stored lane by lane.
  void assign(const dpia::Phrase& lhs, const dpia::Phrase& rhs, const rise::Type& t,
              const dpia::Path& path, std::vector<CStmt>& out);

private:
  VectorTypes& types_;
  Emitter emitter_;

  struct Place {
    CExpr variable, array, base; ///< the variable, or the first scalar array[base]
    /// Reads only: where the lanes are contiguous only while their clamps
    /// (padClamp's min(n - 1, j + lane)) do not bite, what makes them so;
    /// null where they always are.
    CExpr unclamped;
    /// Reads only (C and OpenMP): every lane is the element array[base].
    bool same = false;
  };
  /// Where the whole vector at `path` (ending with `lanes`) lives in `m`;
  /// `read`: a read, which may be contiguous only under a condition.
  std::optional<Place> place(const VectorMemory& m, dpia::Path& path, const rise::Type& t,
                             const rise::Nat& lanes, bool read = false) const;
  /// The whole vector that `p` reads at `at` (ending with `lanes`) where no
  /// lane computes: a load (the lanes one by one where a clamp bites), a
  /// broadcast where every lane reads one element, or, through a padding
  /// whose guard is the same in every lane, `c ? a : b` of two such
  /// vectors; nullopt where it is not one.
  struct Whole {
    CExpr value; ///< the vector, or null where
    CExpr lane;  ///< every lane is this one scalar
  };
  std::optional<Whole> whole(dpia::Phrase p, dpia::Path at, const rise::Type& t,
                             const rise::Nat& lanes);
  CExpr vector(const Whole& w, const rise::Type& t);
  CExpr fromLanes(const dpia::Phrase& p, const dpia::Path& path, const rise::Type& t);
  /// C's `max` or `min` of two vectors: `a > b` gives a mask of integer
  /// lanes, which selects a where it is set and b elsewhere, as the scalar
  /// `a > b ? a : b` does in every lane (NaN included).
  CExpr minMax(rise::Prim prim, const dpia::Phrase& p, const dpia::Path& path, const rise::Type& t,
               std::vector<CStmt>& pre);
};

} // namespace risec::codegen::c
