// The emitter of the C back end (private to codegen/c/Emit*.cpp): the state
// of one kernel's emission and its methods, one file per concern:
//   EmitPrologue.cpp       the ABI prologue: parameters, KernelAbi, checks,
//                          heap temporaries (stage 7)
//   EmitExpressions.cpp    phrases read and acceptors written through views
//   EmitForeign.cpp        foreign functions: calls, pair results, definitions
//   EmitCommands.cpp       commands as C statements, names (stage 9)
//   EmitGuards.cpp         guarded writes (take in acceptor position): the
//                          loops they bound, the guards those bounds prove
//   EmitOpenMPLoops.cpp    OpenMP work-sharing loops, per-thread slices,
//                          reductions combined explicitly
//   EmitOpenCLKernel.cpp   grid-stride loops, local and global temporaries,
//                          the kernel file and its header (stage 12, OpenCL)
//   EmitFiles.cpp          SYMBOL.c and SYMBOL.h (stage 12)
//   EmitC.cpp              the stages' entry points (EmitC.h), the emitter's
//                          construction
// The memory model is codegen/c/EmitMemory.h, vectors codegen/c/EmitVectors.h.
#pragma once

#include "codegen/c/EmitC.h"
#include "codegen/c/EmitMemory.h"
#include "codegen/c/EmitNames.h"
#include "codegen/c/EmitNat.h"
#include "codegen/c/EmitTypes.h"
#include "codegen/c/EmitVectors.h"
#include "codegen/opencl/GridLoop.h"
#include "codegen/opencl/Kernel.h"
#include "codegen/opencl/PrivateMemory.h"
#include "dpia/View.h"
#include "rise/ast/ForeignTypes.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace risec::codegen::c {

// The DPIA and Nat names every emitter file uses (a private header: only
// the emitter's files include it).
using dpia::Path;
using dpia::PathElem;
using dpia::Phrase;
using dpia::PhraseKind;
using rise::Nat;

class Emitter {
public:
  /// `layouts`: OpenCL, the layout of each private array by the order in
  /// which the kernel declares them (from a first emission: distributed()).
  explicit Emitter(const COptions& opts, std::vector<opencl::PrivateLayout> layouts = {});
  Emitter(const Emitter&) = delete; // the hooks of vectorLowering_ hold `this`
  Emitter& operator=(const Emitter&) = delete;

  // ---- the stages (EmitC.h) ----------------------------------------------------

  /// Stage 7 (EmitPrologue.cpp).
  void prologue(const dpia::Program& p, const std::vector<dpia::HoistedAllocation>& temporaries);
  /// OpenCL, after prologue(): the local and global temporaries.
  const std::map<std::uint64_t, opencl::SharedTemporary>& shared() const { return shared_; }
  /// Stage 9 (EmitCommands.cpp). OpenCL: when distributed() is not empty
  /// afterwards, the statements are to be emitted again by a new emitter.
  std::vector<CStmt> statements(const dpia::Phrase& command);
  /// OpenCL, after statements(): the private arrays to distribute over the
  /// work-items, by declaration order (empty when none is), for another
  /// emission.
  const std::vector<opencl::PrivateLayout>& distributed() const { return distributed_; }
  /// Stage 10: the temporaries the prologue declares on the stack (arrays
  /// and scalars, not the heap's pointers), and their removal once no
  /// statement reads them.
  std::set<std::string> stackTemporaries() const;
  void dropStackTemporaries(const std::set<std::string>& names);
  /// Stage 12 (EmitFiles.cpp, EmitOpenCLKernel.cpp).
  CFiles files(std::vector<CStmt> statements);

private:
  bool opencl() const { return opts_.target == Target::OpenCL; }

  // ---- the ABI prologue (EmitPrologue.cpp) ------------------------------------

  /// Records the parameter for the memory leaf `m` in the ABI description.
  void abiParam(AbiParam::Role role, const Memory& m, const std::string& riseName);
  /// The checks of the sizes and the preconditions, into checks_.
  void sizeChecks(const std::vector<std::string>& sizeNames,
                  const std::vector<const Memory*>& outLeaves,
                  const std::vector<const Memory*>& heapLeaves);
  /// The heap temporaries allocated once, after the checks, into checks_.
  void allocateHeap(const std::vector<const Memory*>& heapLeaves,
                    const std::set<std::string>& perThread);

  // ---- expressions (EmitExpressions.cpp) --------------------------------------

  dpia::Path newPath();
  rise::Nat indexOf(const dpia::Phrase& i);
  Memory& memoryOf(const dpia::Phrase& p);
  /// The element of memory `m` selected by `path`, read or (`write`) written.
  CExpr access(const Memory& m, dpia::Path& path, bool write);
  /// Lane `lane` of the vector `v` (`what` in messages): `v[2]` or `v.s2`;
  /// C and OpenMP also select one at run time (`v[j]`, a GCC vector
  /// subscript), OpenCL C only by a constant.
  CExpr laneOf(const CExpr& v, const rise::Nat& lane, const std::string& what);
  /// `i][k` for the element `x[i][k]` (messages).
  std::string spelledIndices(const std::vector<rise::Nat>& indices);
  /// The C (or OpenCL C) function of math primitive `p` on operands of `t`
  /// (its row in rise/ast/Primitive.h).
  std::string mathFn(rise::Prim p, const rise::Type& t);
  CExpr exp(const dpia::Phrase& p, dpia::Path& path);
  CExpr prim(const dpia::Phrase& p, dpia::Path& path);
  CExpr arrayLiteral(const dpia::Phrase& p, dpia::Path& path);
  CExpr acc(const dpia::Phrase& a, dpia::Path& path);
  /// Whether a write through acceptor `a` may be discarded (it passes a
  /// discardTailAcc): such writes are guarded, one scalar at a time.
  static bool discardsWrites(dpia::Phrase a);
  /// The C type of a value of type `t`: a native vector type or the element.
  CType valueType(const rise::Type& t);
  /// VectorLowering's view of this emitter (EmitVectors.h).
  VectorLowering::Emitter vectorHooks();
  /// Follows the views of `p` with `path` to the memory (a leaf of a split
  /// pair) it reaches, if it reaches one without computing.
  std::optional<VectorMemory> vectorMemory(dpia::Phrase p, dpia::Path& path);

  // ---- foreign functions (EmitForeign.cpp; rise/ast/ForeignTypes.h) -----------

  /// The C type of a foreign parameter or result: a scalar, the native vector
  /// type, or a struct with the fields `fst` and `snd`.
  CType foreignType(const rise::Type& t);
  /// The whole value of `p` at `path`, of type `t`, as one C expression (a
  /// foreign function's argument): a scalar, a vector, a struct variable, or
  /// a compound literal of the components.
  CExpr wholeValue(const dpia::Phrase& p, const dpia::Path& path, const rise::Type& t);
  /// `f(args)` with every argument passed whole, followed by the selection
  /// of `path` (`f(a, b).snd`, a lane `f(a, b)[1]`, or nothing).
  CExpr foreignCall(const dpia::Phrase& p, dpia::Path& path);
  /// `lhs = f(args)` for a foreign function returning a pair: one call, into
  /// the struct variable itself or into a temporary whose components are
  /// then assigned.
  void assignForeignPair(const dpia::Phrase& lhs, const dpia::Phrase& rhs, const rise::Type& t,
                         std::vector<CStmt>& out);
  /// The definition of `f` (a static inline function).
  std::string foreignCode(const rise::ForeignDecl& f);

  // ---- commands (EmitCommands.cpp) --------------------------------------------

  /// `at` followed by the step `inner` (which becomes the innermost step).
  static dpia::Path within(const dpia::Path& at, dpia::PathElem inner);
  void assignment(const dpia::Phrase& lhs, const dpia::Phrase& rhs, const rise::Type& t,
                  const dpia::Path& at, std::vector<CStmt>& out);
  /// A private `new` of a pair holding arrays (OpenCL; the C back end hoists
  /// them): declared in place as one memory per component, each checked as a
  /// private temporary of its own.
  void privatePair(const dpia::Phrase& c, std::vector<CStmt>& out);
  /// `new`: a C variable or array declared in place (OpenCL: a private
  /// temporary, distributed over the work-items when layouts_ says so).
  void newVariable(const dpia::Phrase& c, std::vector<CStmt>& out);
  /// Emits the command `c`; a CompileError without a location raised below
  /// it gets the location of the innermost command that has one.
  void comm(const dpia::Phrase& c, std::vector<CStmt>& out);
  void command(const dpia::Phrase& c, std::vector<CStmt>& out); ///< comm's work
  /// A sequential loop: omitted when it runs no iteration; bounded by the
  /// guards of its writes when they leave its last iterations without one
  /// (EmitGuards.cpp).
  void sequentialLoop(const dpia::Phrase& c, std::vector<CStmt>& out);
  /// A name for a temporary: not a loop index name either.
  std::string fresh(const std::string& hint);
  /// Loop indices are named i, j, k, l by nesting depth (reused by sibling
  /// loops, as a person writes them), avoiding every other name.
  std::string loopName();

  // ---- guarded writes (EmitGuards.cpp) ----------------------------------------

  /// A sequential loop being emitted and what its body writes (the guards of
  /// discarded writes, assignment): iterations from `needed` on write nothing.
  struct LoopWrites {
    rise::Nat index;               ///< the loop's index variable
    rise::Nat count;               ///< its trip count
    std::set<std::uint64_t> fixed; ///< the variables constant during the loop
    bool unguarded = false;        ///< a write that no guard bounds
    rise::Nat needed;              ///< [0, needed) holds every write (null: none yet)
    /// A guard `index < bound` that holds in iterations [0, end) and fails
    /// from `end` on, `condition` its C expression in an `if`.
    struct Guard {
      CExpr condition;
      rise::Nat end;
    };
    std::vector<Guard> exact;
    /// the variables declared in its body: writes to them last one iteration
    std::set<std::string> locals;
  };
  /// Records a write to the variable `target` (empty: unknown) with these
  /// guards (none: unguarded) and their C conditions (`conditions[i]` tests
  /// `guards[i]`) in every loop around that `target` is not local to.
  void noteWrite(const std::vector<dpia::Path::Bound>& guards,
                 const std::vector<CExpr>& conditions = {}, const std::string& target = "");
  /// The first iteration of `loop` from which guard `g` is false, if known;
  /// `exact`: the guard holds in every iteration before it.
  struct GuardEnd {
    rise::Nat end;
    bool exact;
  };
  static std::optional<GuardEnd> guardEnd(const LoopWrites& loop, const dpia::Path::Bound& g);
  /// The end of `loop` that its writes need (its count when they need every
  /// iteration); removes from `body` the guard conditions that it makes true.
  CExpr boundedEnd(const LoopWrites& loop, std::vector<CStmt>& body);
  /// `body` with its clamped subscripts simplified again now that `loop`
  /// stops at `end` instead of its count: a clamp that cannot bite in
  /// [0, end), `risec_min(m - 1, k + 32 * i)` for k < risec_min(32, m - 32 *
  /// i), is decided by the Nat prover and goes (docs/dpia.md, "Guards").
  void resimplifySubscripts(const LoopWrites& loop, const rise::Nat& end, std::vector<CStmt>& body);

  // ---- OpenMP (EmitOpenMPLoops.cpp; dpia/Parallel.h) --------------------------

  /// A parallel loop (dpia::isParallelLoop): an `omp parallel for` loop, a
  /// reduction (a clause, or combineLoop); OpenCL: gridStrideLoop.
  void parallelLoop(const dpia::Phrase& c, std::vector<CStmt>& out);
  /// At the top of a parallel loop's body: each heap temporary hoisted from
  /// it is this thread's slice of the per-thread allocation, declared inside
  /// the loop (so private to the iteration).
  std::vector<CStmt> privateSlices(std::uint64_t loop);
  bool collapsible(const std::string& index, std::vector<CStmt>& body, std::size_t slices);
  void restoreSlices(std::uint64_t loop);
  /// reducePar with an operator OpenMP has no clause for: chunks reduced in
  /// parallel, combined in chunk order.
  void combineLoop(const dpia::Phrase& c, std::vector<CStmt>& out);

  // ---- OpenCL (EmitOpenCLKernel.cpp; codegen/opencl) --------------------------

  /// mapGlobal/mapWorkGroup/mapLocal(d) as a grid-stride loop.
  void gridStrideLoop(const dpia::Phrase& c, std::vector<CStmt>& out);
  /// Remembers a grid loop whose trip count depends on the sizes only, for
  /// the default launch configuration (codegen/host/Launch.h).
  void recordGridLoop(const dpia::Phrase& c, const opencl::GridLoop& g);
  /// Places the hoisted local and global temporaries: local arrays at kernel
  /// scope, global ones as trailing parameters; describes them in shared_.
  void placeTemporaries(const std::vector<dpia::HoistedAllocation>& heap);
  /// After statements(): the private arrays each work-item needs only its
  /// own elements of, with the local sizes known at compile time; sets
  /// distributed_ on a first emission.
  void distributePrivateArrays();
  /// The kernel (SYMBOL.cl, in `source`), the header with the host-side
  /// check function `int SYMBOL_check(sizes...)` running checks_, and the
  /// host wrappers.
  CFiles openclFiles(std::vector<CStmt> statements);

  // ---- the files (EmitFiles.cpp) ----------------------------------------------

  /// The pair structs and vector typedefs of the header, each guarded
  /// (several kernels' headers may be included together).
  void guardedStructs(TranslationUnit& h);
  std::string helperCode(const std::string& h);
  /// The helpers (helpers_) that `body` calls.
  std::set<std::string> calledHelpers(const std::vector<CStmt>& body) const;
  /// SYMBOL.c and SYMBOL.h.
  CFiles cFiles(std::vector<CStmt> statements);

  // ---- state ------------------------------------------------------------------

  const COptions opts_;
  TypeMapper types_;
  VectorTypes vectors_;
  VectorLowering vectorLowering_;
  NameTable names_;
  NatPrinter nats_;
  std::set<std::string> helpers_;
  std::map<std::uint64_t, std::string> natNames_;
  /// The subscripts with a min or max (a clamp) in them, by their C node:
  /// the node (kept alive) and the Nat it prints (resimplifySubscripts).
  std::map<const ExprNode*, std::pair<CExpr, rise::Nat>> clampedSubscripts_;
  std::map<std::uint64_t, Memory> memory_;
  bool math_ = false;
  bool openmp_ = false; ///< <omp.h> needed
  /// heap temporaries private to the iterations of a parallel loop, by the
  /// id of its index: allocated once per thread, each thread uses its slice
  std::multimap<std::uint64_t, std::uint64_t> privateHeap_;
  std::map<std::uint64_t, std::vector<std::string>>
      sharedNames_;                    ///< OpenMP: leaf names outside the slices
  std::string threadsName_;            ///< the variable holding omp_get_max_threads()
  std::vector<CStmt> localDecls_;      ///< OpenCL: `local T name[N];` at kernel scope
  std::vector<std::string> loops_;     ///< loop indices in scope, outermost first
  std::vector<LoopWrites> loopWrites_; ///< the sequential loops being emitted, outermost first
  /// the indices of the sequential and OpenMP loops around, outermost first
  std::vector<std::uint64_t> loopIndices_;
  std::set<std::uint64_t> sizeIds_; ///< the size parameters
  host::GridLoops gridLoops_;       ///< OpenCL: for the launch configuration
  /// OpenCL: the grid loops (for the launch) and the dimensions of each
  /// phase (opencl/Kernel.h), the last one being emitted
  struct PhaseLoops {
    host::GridLoops loops;
    std::set<int> dims;
  };
  std::vector<PhaseLoops> phaseGridLoops_ = std::vector<PhaseLoops>(1);
  std::vector<opencl::GridLoopRef> gridStack_; ///< OpenCL: the grid loops around, outermost first
  std::set<int> usedDims_;                     ///< OpenCL: the dimensions of all grid loops
  opencl::PrivateMemoryCheck privateMemory_;   ///< OpenCL: rule 1 on every private temporary
  std::vector<opencl::PrivateLayout> layouts_; ///< OpenCL: given, by declaration order
  std::vector<std::uint64_t> privateOrder_;    ///< OpenCL: the private `new`s, as declared
  std::vector<opencl::PrivateLayout> distributed_; ///< OpenCL: found (first emission)
  bool reqdWorkGroupSize_ = false;  ///< OpenCL: the kernel needs its layouts' local sizes
  std::set<std::string> loopNames_; ///< every name used for a loop index
  std::map<std::uint64_t, opencl::SharedTemporary> shared_; ///< OpenCL: local and global
  KernelAbi abi_;
  dpia::Program program_;               ///< the program (prologue())
  std::vector<Param> params_;           ///< the function's parameters, in ABI order
  std::vector<CStmt> checks_;           ///< the checks and the heap allocations
  std::vector<std::string> heapNames_;  ///< the heap temporaries, in allocation order
  bool heapTemporaries_ = false;        ///< any temporary hoisted to the heap (<stdlib.h>)
  std::set<std::string> headerStructs_; ///< the structs the header declares
  std::set<std::string> headerVectors_; ///< the vector typedefs the header declares
};

} // namespace risec::codegen::c
