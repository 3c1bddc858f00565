// The closed set of RISE primitives, scalar operators and built-in math
// functions (docs/language.md, "Primitives"), each declared once, in one row
// of RISEC_PRIMITIVES: its name, family, type, and the plain facts that the
// stages read from `primInfo` (printer form, sizes, memory behaviour, C and
// OpenCL spellings, vectorisation). What a stage still writes as code (the
// interpreter's meaning, the DPIA definition of a data primitive) is checked
// by the compiler or by PrimitiveTableTest; docs/architecture.md, "Adding a
// primitive", is the checklist.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace risec::rise {

/// How a primitive uses one value argument: DPIA's read/write annotation
/// (docs/dpia.md, "3. RISE -> functional DPIA"). The lowering's access
/// analysis (lower/AccessAnalysis.h) reads it to find where a `toMem` or a
/// copy is needed; the DPIA translation checks against the same facts
/// (dpia::accessFromTable gives them to the primitive's DPIA definition).
struct ArgUse {
  enum Kind : std::uint8_t {
    Read,  ///< must be readable (Exp[dt, Rd])
    Write, ///< must be written (Exp[dt, Wr])
    View,  ///< any access, the same for every View argument and the result
    Fun,   ///< a function: parameters read, its body as `writesBody`/`anyBody`
  } kind = Read;
  bool writesBody = false; ///< Fun: its body must be written (Wr), else read
  bool anyBody = false;    ///< Fun: its body may have either access (let)
  bool depNat = false;     ///< Fun: a depFun over one Nat first (iterate)
  std::uint8_t arity = 1;  ///< Fun: number of value parameters
};

/// Builders of ArgUse for the rows of RISEC_PRIMITIVES.
namespace use {
inline constexpr ArgUse rd{ArgUse::Read}, wr{ArgUse::Write}, view{ArgUse::View};
/// A function of `arity` parameters whose body is read (a view applies it on access).
constexpr ArgUse fnRd(std::uint8_t arity) {
  return {ArgUse::Fun, false, false, false, arity};
}
/// A function of `arity` parameters whose body is written (a loop's body).
constexpr ArgUse fnWr(std::uint8_t arity) {
  return {ArgUse::Fun, true, false, false, arity};
}
/// A function of one parameter whose body may have either access (let).
constexpr ArgUse fnAny() {
  return {ArgUse::Fun, false, true, false, 1};
}
/// `(l: Nat) -> ` a function of one parameter whose body is written (iterate).
constexpr ArgUse depFnWr() {
  return {ArgUse::Fun, true, false, true, 1};
}
} // namespace use

/// The access of a primitive's result and of its arguments (ArgUse): what
/// DPIA's annotated type of it says. Scalar operators and built-in math
/// functions read every argument and give a value read (`Rd`) without a row
/// saying so; `defined` is false for the other primitives that have no DPIA
/// definition (map-like high-level choices lowering makes: reduce, ...).
struct PrimAccess {
  enum class Result : std::uint8_t {
    Read,    ///< Exp[dt, Rd]
    Written, ///< Exp[dt, Wr]
    View,    ///< that of the View arguments
    FunBody, ///< that of the body of the function argument `funArg` (let)
  };
  bool defined = false;
  ArgUse args[4] = {};
  std::uint8_t count = 0; ///< the value arguments: the primitive's value arity
  Result result = Result::Read;
  std::uint8_t funArg = 0;   ///< FunBody: the argument
  bool writableView = false; ///< a written View is allowed (zip yes, slide no)
};

/// Facts about a primitive besides its name, family and type. Built in a
/// row of RISEC_PRIMITIVES as `Traits{}.before(1).layout()`; every fact not
/// named is false or empty.
struct PrimTraits {
private:
  // Defined before the setters that call it: clang parses the inline bodies
  // in order, and evaluating the table (Primitive.cpp) at compile time needs
  // this template's body already parsed.
  template <class T, class V> constexpr PrimTraits with(T PrimTraits::*field, V v) const {
    PrimTraits t = *this;
    t.*field = v;
    return t;
  }

public:
  /// Printer: `xs |> p(a)` instead of `p(a)(xs)`; the number of written
  /// arguments before the data (-1: always printed as a call).
  int argumentsBeforeData = -1;
  /// Its size arguments must be at least 1 (E0313, or a precondition).
  bool positiveSizes = false;
  /// It writes its result into memory: reductions, scans, iterate, toMem,
  /// the buffers (dpia/FromRise.cpp).
  bool storesIntoMemory = false;
  /// It stores its argument into memory of an address space it names
  /// (toGlobal, toLocal, toPrivate; oclToMem takes the space).
  bool storesIntoSpace = false;
  /// A unary view that is a bijection on the elements, so that a value
  /// written through it reaches every element of the memory behind once.
  bool layoutView = false;
  /// map and its implementations; reduce and its implementations.
  bool mapLike = false, reduceLike = false;
  /// Infix syntax (`+` for add) and its C precedence (higher binds tighter):
  /// || 1, && 2, == != 3, < <= > >= 4, + - 5, * / % 6.
  std::string_view infix;
  int infixPrecedence = 0;
  /// The C operator of a scalar operator (unary or binary): used for every
  /// operand type, except floats when `cMathF32`/`cMathF64` are given.
  std::string_view cOperator;
  /// The <math.h> function for f32 and for f64 operands.
  std::string_view cMathF32, cMathF64;
  /// OpenCL C's built-in, overloaded for scalars and vectors: spells the
  /// math function in OpenCL kernels, and computes whole vectors.
  std::string_view openclBuiltin;
  /// `cOperator` applies to whole vectors (GCC vector extension, OpenCL C);
  /// otherwise vectors are computed by `openclBuiltin` or lane by lane.
  bool vectorOperator = false;
  /// rules/VectorLift.cpp may apply it to vectors instead of scalars.
  bool liftableToVector = false;
  /// DPIA's read/write annotation (PrimAccess): `uses(use::fnWr(1), use::rd)`,
  /// then `givesWritten()`, `givesBodyOf(i)` or `writable()`.
  PrimAccess access;

  constexpr PrimTraits before(int n) const { return with(&PrimTraits::argumentsBeforeData, n); }
  constexpr PrimTraits positive() const { return with(&PrimTraits::positiveSizes, true); }
  constexpr PrimTraits stores() const { return with(&PrimTraits::storesIntoMemory, true); }
  constexpr PrimTraits layout() const { return with(&PrimTraits::layoutView, true); }
  constexpr PrimTraits mapping() const { return with(&PrimTraits::mapLike, true); }
  constexpr PrimTraits reducing() const { return with(&PrimTraits::reduceLike, true); }
  constexpr PrimTraits op(std::string_view c) const { return with(&PrimTraits::cOperator, c); }
  constexpr PrimTraits infixOp(std::string_view s, int precedence) const {
    PrimTraits t = with(&PrimTraits::infix, s).with(&PrimTraits::cOperator, s);
    t.infixPrecedence = precedence;
    return t;
  }
  constexpr PrimTraits math(std::string_view f32, std::string_view f64,
                            std::string_view opencl) const {
    PrimTraits t = with(&PrimTraits::cMathF32, f32).with(&PrimTraits::cMathF64, f64);
    return t.with(&PrimTraits::openclBuiltin, opencl);
  }
  constexpr PrimTraits opencl(std::string_view f) const {
    return with(&PrimTraits::openclBuiltin, f);
  }
  constexpr PrimTraits vectorOp() const { return with(&PrimTraits::vectorOperator, true); }
  constexpr PrimTraits liftable() const { return with(&PrimTraits::liftableToVector, true); }
  constexpr PrimTraits intoSpace() const { return with(&PrimTraits::storesIntoSpace, true); }
  /// The value arguments' uses; the result is read, or a view when an
  /// argument is a view.
  template <class... A> constexpr PrimTraits uses(A... args) const {
    static_assert(sizeof...(A) <= 4, "PrimAccess holds four arguments");
    PrimTraits t = *this;
    t.access = PrimAccess{};
    t.access.defined = true;
    ArgUse list[] = {ArgUse{}, args...}; // the first: an empty pack compiles
    for (std::size_t i = 0; i < sizeof...(A); ++i) {
      t.access.args[i] = list[i + 1];
      if (list[i + 1].kind == ArgUse::View)
        t.access.result = PrimAccess::Result::View;
    }
    t.access.count = static_cast<std::uint8_t>(sizeof...(A));
    return t;
  }
  /// The result is written (Exp[dt, Wr]): a loop's or a scan's.
  constexpr PrimTraits givesWritten() const {
    PrimTraits t = *this;
    t.access.result = PrimAccess::Result::Written;
    return t;
  }
  /// The result has the access of the body of the function argument `i` (let).
  constexpr PrimTraits givesBodyOf(std::uint8_t i) const {
    PrimTraits t = *this;
    t.access.result = PrimAccess::Result::FunBody;
    t.access.funArg = i;
    return t;
  }
  /// A written version of the view is allowed (zip, split, ...; not slide).
  constexpr PrimTraits writable() const {
    PrimTraits t = *this;
    t.access.writableView = true;
    return t;
  }
};
using Traits = PrimTraits;

// Signatures shared by several rows.
#define RISEC_SIG_MAP "{n: Nat} -> {s: Data} -> {t: Data} -> (s -> t) -> n.s -> n.t"
#define RISEC_SIG_OCL_MAP "(d: Nat) -> " RISEC_SIG_MAP
#define RISEC_SIG_REDUCE "{n: Nat} -> {t: Data} -> (t -> t -> t) -> t -> n.t -> t"
#define RISEC_SIG_REDUCE_SEQ "{n: Nat} -> {s: Data} -> {t: Data} -> (t -> s -> t) -> t -> n.s -> t"
#define RISEC_SIG_TO_MEM "{t: Data} -> t -> t"
#define RISEC_SIG_AS_VECTOR "(k: Nat) -> {m: Nat} -> {s: Scalar} -> (m*k).s -> m.vec[s, k]"
#define RISEC_SIG_NUMERIC2 "{t: Numeric} -> t -> t -> t"
#define RISEC_SIG_COMPARE "{t: Scalar} -> t -> t -> bool"
#define RISEC_SIG_FLOAT1 "{t: Float} -> t -> t"
#define RISEC_SIG_FLOAT2 "{t: Float} -> t -> t -> t"

// X(Id, "name", Family, "signature", traits): the enum, the name that
// inference resolves and the printer writes, the family, the type in RISE
// type syntax (rise/infer/Signatures.h), and its PrimTraits.
// clang-format off
#define RISEC_PRIMITIVES(X) \
  /* high level */ \
  X(Map, "map", HighLevel, RISEC_SIG_MAP, \
    Traits{}.mapping().before(1).uses(use::fnRd(1), use::rd)) \
  X(Reduce, "reduce", HighLevel, RISEC_SIG_REDUCE, Traits{}.reducing().stores().before(2)) \
  X(Scan, "scan", HighLevel, "{n: Nat} -> {t: Data} -> (t -> t -> t) -> t -> n.t -> n.t", \
    Traits{}.stores().before(2)) \
  X(Zip, "zip", HighLevel, "{n: Nat} -> {s: Data} -> {t: Data} -> n.s -> n.t -> n.(s, t)", \
    Traits{}.uses(use::view, use::view).writable()) \
  X(Unzip, "unzip", HighLevel, "{n: Nat} -> {s: Data} -> {t: Data} -> n.(s, t) -> (n.s, n.t)", \
    Traits{}.layout().before(0).uses(use::view).writable()) \
  X(Split, "split", HighLevel, "(k: Nat) -> {m: Nat} -> {t: Data} -> (m*k).t -> m.k.t", \
    Traits{}.positive().layout().before(1).uses(use::view).writable()) \
  X(Join, "join", HighLevel, "{n: Nat} -> {m: Nat} -> {t: Data} -> n.m.t -> (n*m).t", \
    Traits{}.layout().before(0).uses(use::view).writable()) \
  X(Transpose, "transpose", HighLevel, "{n: Nat} -> {m: Nat} -> {t: Data} -> n.m.t -> m.n.t", \
    Traits{}.layout().before(0).uses(use::view).writable()) \
  X(Slide, "slide", HighLevel, \
    "(sz: Nat) -> (sp: Nat) -> {n: Nat} -> {t: Data} -> (sp*n + sz).t -> (n + 1).sz.t", \
    Traits{}.positive().before(2).uses(use::rd)) \
  X(PadCst, "padCst", HighLevel, \
    "(l: Nat) -> (r: Nat) -> {n: Nat} -> {t: Data} -> t -> n.t -> (l + n + r).t", \
    Traits{}.before(3).uses(use::rd, use::rd)) \
  X(PadClamp, "padClamp", HighLevel, \
    "(l: Nat) -> (r: Nat) -> {n: Nat} -> {t: Data} -> n.t -> (l + n + r).t", Traits{}.before(2) \
    .uses(use::rd)) \
  X(PadEmpty, "padEmpty", HighLevel, "(r: Nat) -> {n: Nat} -> {t: Data} -> n.t -> (n + r).t", \
    Traits{}.before(1).uses(use::wr).givesWritten()) \
  X(Generate, "generate", HighLevel, "{n: Nat} -> {t: Data} -> (idx[n] -> t) -> n.t", \
    Traits{}.uses(use::fnRd(1))) \
  X(Idx, "idx", HighLevel, "{n: Nat} -> {t: Data} -> idx[n] -> n.t -> t", \
    Traits{}.uses(use::rd, use::rd)) \
  X(Take, "take", HighLevel, "(k: Nat) -> {m: Nat} -> {t: Data} -> (k + m).t -> k.t", \
    Traits{}.before(1).uses(use::view).writable()) \
  X(Drop, "drop", HighLevel, "(k: Nat) -> {m: Nat} -> {t: Data} -> (k + m).t -> m.t", \
    Traits{}.before(1).uses(use::rd)) \
  X(Concat, "concat", HighLevel, "{n: Nat} -> {m: Nat} -> {t: Data} -> n.t -> m.t -> (n + m).t", \
    Traits{}.uses(use::view, use::view).writable()) \
  X(Fst, "fst", HighLevel, "{s: Data} -> {t: Data} -> (s, t) -> s", Traits{}.uses(use::rd)) \
  X(Snd, "snd", HighLevel, "{s: Data} -> {t: Data} -> (s, t) -> t", Traits{}.uses(use::rd)) \
  X(MakePair, "makePair", HighLevel, "{s: Data} -> {t: Data} -> s -> t -> (s, t)", \
    Traits{}.uses(use::view, use::view).writable()) \
  X(MapFst, "mapFst", HighLevel, \
    "{s: Data} -> {t: Data} -> {u: Data} -> (s -> u) -> (s, t) -> (u, t)", Traits{}.before(1) \
    .uses(use::fnRd(1), use::rd)) \
  X(MapSnd, "mapSnd", HighLevel, \
    "{s: Data} -> {t: Data} -> {u: Data} -> (t -> u) -> (s, t) -> (s, u)", Traits{}.before(1) \
    .uses(use::fnRd(1), use::rd)) \
  X(Iterate, "iterate", HighLevel, \
    "(k: Nat) -> {n: Nat} -> {m: Nat} -> {t: Data} -> ((l: Nat) -> (l*n).t -> l.t) -> " \
    "(m*n^k).t -> m.t", Traits{}.stores().before(2).uses(use::depFnWr(), use::rd).givesWritten()) \
  X(Let, "let", HighLevel, "{s: Data} -> {t: Data} -> s -> (s -> t) -> t", \
    Traits{}.uses(use::rd, use::fnAny()).givesBodyOf(1)) \
  X(ToMem, "toMem", HighLevel, RISEC_SIG_TO_MEM, Traits{}.stores().before(0).uses(use::wr)) \
  X(Cast, "cast", HighLevel, "(t: Scalar) -> {s: Scalar} -> s -> t", Traits{}.uses(use::rd)) \
  X(AsVector, "asVector", HighLevel, RISEC_SIG_AS_VECTOR, \
    Traits{}.positive().layout().before(1).uses(use::view).writable()) \
  X(AsScalar, "asScalar", HighLevel, \
    "{m: Nat} -> {k: Nat} -> {s: Scalar} -> m.vec[s, k] -> (m*k).s", Traits{}.layout().before(0) \
    .uses(use::view).writable()) \
  X(AsVectorAligned, "asVectorAligned", HighLevel, RISEC_SIG_AS_VECTOR, \
    Traits{}.positive().layout().before(1).uses(use::view).writable()) \
  X(ReorderWithStride, "reorderWithStride", HighLevel, \
    "(s: Nat) -> {m: Nat} -> {t: Data} -> (m*s).t -> (m*s).t", Traits{}.positive().before(1) \
    .uses(use::rd)) \
  X(NatValue, "natValue", HighLevel, "(n: Nat) -> natType", Traits{}.uses()) \
  X(VectorFromScalar, "vectorFromScalar", HighLevel, "{k: Nat} -> {s: Scalar} -> s -> vec[s, k]", \
    Traits{}.uses(use::rd)) \
  X(IndexAsNat, "indexAsNat", HighLevel, "{n: Nat} -> idx[n] -> natType", Traits{}.uses(use::rd)) \
  X(NatAsIndex, "natAsIndex", HighLevel, "(n: Nat) -> natType -> idx[n]", Traits{}.uses(use::rd)) \
  /* low level: C */ \
  X(MapSeq, "mapSeq", SequentialC, RISEC_SIG_MAP, \
    Traits{}.mapping().before(1).uses(use::fnWr(1), use::rd).givesWritten()) \
  X(MapSeqUnroll, "mapSeqUnroll", SequentialC, RISEC_SIG_MAP, \
    Traits{}.mapping().before(1).uses(use::fnWr(1), use::rd).givesWritten()) \
  X(ReduceSeq, "reduceSeq", SequentialC, RISEC_SIG_REDUCE_SEQ, \
    Traits{}.reducing().stores().before(2).uses(use::fnWr(2), use::wr, use::rd)) \
  X(ReduceSeqUnroll, "reduceSeqUnroll", SequentialC, RISEC_SIG_REDUCE_SEQ, \
    Traits{}.reducing().stores().before(2).uses(use::fnWr(2), use::wr, use::rd)) \
  X(ScanSeq, "scanSeq", SequentialC, \
    "{n: Nat} -> {s: Data} -> {t: Data} -> (t -> s -> t) -> t -> n.s -> n.t", \
    Traits{}.stores().before(2).uses(use::fnWr(2), use::wr, use::rd).givesWritten()) \
  X(IterateStream, "iterateStream", SequentialC, RISEC_SIG_MAP, Traits{}.before(1)) \
  /* low level: OpenMP */ \
  X(MapPar, "mapPar", OpenMP, RISEC_SIG_MAP, \
    Traits{}.mapping().before(1).uses(use::fnWr(1), use::rd).givesWritten()) \
  X(ReducePar, "reducePar", OpenMP, RISEC_SIG_REDUCE, \
    Traits{}.reducing().stores().before(2).uses(use::fnWr(2), use::wr, use::rd)) \
  /* low level: OpenCL */ \
  X(MapGlobal, "mapGlobal", OpenCL, RISEC_SIG_OCL_MAP, \
    Traits{}.mapping().before(2).uses(use::fnWr(1), use::rd).givesWritten()) \
  X(MapWorkGroup, "mapWorkGroup", OpenCL, RISEC_SIG_OCL_MAP, \
    Traits{}.mapping().before(2).uses(use::fnWr(1), use::rd).givesWritten()) \
  X(MapLocal, "mapLocal", OpenCL, RISEC_SIG_OCL_MAP, \
    Traits{}.mapping().before(2).uses(use::fnWr(1), use::rd).givesWritten()) \
  X(OclReduceSeq, "oclReduceSeq", OpenCL, "(a: AddrSpace) -> " RISEC_SIG_REDUCE_SEQ, \
    Traits{}.reducing().stores().before(3).uses(use::fnWr(2), use::wr, use::rd)) \
  X(OclToMem, "oclToMem", OpenCL, "(a: AddrSpace) -> " RISEC_SIG_TO_MEM, \
    Traits{}.stores().intoSpace().before(1).uses(use::wr)) \
  X(OclIterate, "oclIterate", OpenCL, \
    "(a: AddrSpace) -> (k: Nat) -> {n: Nat} -> {m: Nat} -> {t: Data} -> " \
    "((l: Nat) -> (l*n).t -> l.t) -> (m*n^k).t -> m.t", Traits{}.stores().before(3) \
    .uses(use::depFnWr(), use::rd).givesWritten()) \
  X(ToGlobal, "toGlobal", OpenCL, RISEC_SIG_TO_MEM, \
    Traits{}.stores().intoSpace().before(0).uses(use::wr)) \
  X(ToLocal, "toLocal", OpenCL, RISEC_SIG_TO_MEM, \
    Traits{}.stores().intoSpace().before(0).uses(use::wr)) \
  X(ToPrivate, "toPrivate", OpenCL, RISEC_SIG_TO_MEM, \
    Traits{}.stores().intoSpace().before(0).uses(use::wr)) \
  /* stretch */ \
  X(CircularBuffer, "circularBuffer", Stretch, \
    "(a: AddrSpace) -> (alloc: Nat) -> (sz: Nat) -> {n: Nat} -> {s: Data} -> {t: Data} -> " \
    "(s -> t) -> (n + sz - 1).s -> n.sz.t", Traits{}.positive().stores().before(4) \
    .uses(use::fnWr(1), use::rd)) \
  X(RotateValues, "rotateValues", Stretch, \
    "(a: AddrSpace) -> (sz: Nat) -> {n: Nat} -> {s: Data} -> (s -> s) -> (n + sz - 1).s " \
    "-> n.sz.s", Traits{}.positive().stores().before(3).uses(use::fnWr(1), use::rd)) \
  /* scalar operators */ \
  X(Add, "add", ScalarOperator, RISEC_SIG_NUMERIC2, Traits{}.infixOp("+", 5).vectorOp().liftable()) \
  X(Sub, "sub", ScalarOperator, RISEC_SIG_NUMERIC2, Traits{}.infixOp("-", 5).vectorOp().liftable()) \
  X(Mul, "mul", ScalarOperator, RISEC_SIG_NUMERIC2, Traits{}.infixOp("*", 6).vectorOp().liftable()) \
  X(Div, "div", ScalarOperator, RISEC_SIG_NUMERIC2, Traits{}.infixOp("/", 6).vectorOp().liftable()) \
  X(Mod, "mod", ScalarOperator, RISEC_SIG_NUMERIC2, \
    Traits{}.infixOp("%", 6).math("fmodf", "fmod", "fmod").vectorOp()) \
  X(Neg, "neg", ScalarOperator, "{t: Numeric} -> t -> t", Traits{}.op("-").vectorOp().liftable()) \
  X(Not, "not", ScalarOperator, "bool -> bool", Traits{}.op("!")) \
  X(And, "and", ScalarOperator, "bool -> bool -> bool", Traits{}.infixOp("&&", 2)) \
  X(Or, "or", ScalarOperator, "bool -> bool -> bool", Traits{}.infixOp("||", 1)) \
  X(Equal, "equal", ScalarOperator, RISEC_SIG_COMPARE, Traits{}.infixOp("==", 3)) \
  X(NotEqual, "notEqual", ScalarOperator, RISEC_SIG_COMPARE, Traits{}.infixOp("!=", 3)) \
  X(Lt, "lt", ScalarOperator, RISEC_SIG_COMPARE, Traits{}.infixOp("<", 4)) \
  X(Le, "le", ScalarOperator, RISEC_SIG_COMPARE, Traits{}.infixOp("<=", 4)) \
  X(Gt, "gt", ScalarOperator, RISEC_SIG_COMPARE, Traits{}.infixOp(">", 4)) \
  X(Ge, "ge", ScalarOperator, RISEC_SIG_COMPARE, Traits{}.infixOp(">=", 4)) \
  /* built-in scalar functions */ \
  X(Sqrt, "sqrt", BuiltinMath, RISEC_SIG_FLOAT1, Traits{}.math("sqrtf", "sqrt", "sqrt").liftable()) \
  X(Exp, "exp", BuiltinMath, RISEC_SIG_FLOAT1, Traits{}.math("expf", "exp", "exp").liftable()) \
  X(Log, "log", BuiltinMath, RISEC_SIG_FLOAT1, Traits{}.math("logf", "log", "log").liftable()) \
  X(Pow, "pow", BuiltinMath, RISEC_SIG_FLOAT2, Traits{}.math("powf", "pow", "pow")) \
  X(Fabs, "fabs", BuiltinMath, RISEC_SIG_FLOAT1, Traits{}.math("fabsf", "fabs", "fabs").liftable()) \
  X(Min, "min", BuiltinMath, RISEC_SIG_NUMERIC2, Traits{}.opencl("min").liftable()) \
  X(Max, "max", BuiltinMath, RISEC_SIG_NUMERIC2, Traits{}.opencl("max").liftable()) \
  X(Floor, "floor", BuiltinMath, RISEC_SIG_FLOAT1, \
    Traits{}.math("floorf", "floor", "floor").liftable()) \
  X(Sin, "sin", BuiltinMath, RISEC_SIG_FLOAT1, Traits{}.math("sinf", "sin", "sin")) \
  X(Cos, "cos", BuiltinMath, RISEC_SIG_FLOAT1, Traits{}.math("cosf", "cos", "cos")) \
  X(Tanh, "tanh", BuiltinMath, RISEC_SIG_FLOAT1, Traits{}.math("tanhf", "tanh", "tanh")) \
  X(Atan2, "atan2", BuiltinMath, RISEC_SIG_FLOAT2, Traits{}.math("atan2f", "atan2", "atan2")) \
  X(Select, "select", BuiltinMath, "{t: Data} -> bool -> t -> t -> t", Traits{})
// clang-format on

enum class Prim {
#define RISEC_PRIM_ENUM(id, name, family, signature, traits) id,
  RISEC_PRIMITIVES(RISEC_PRIM_ENUM)
#undef RISEC_PRIM_ENUM
};

/// The groups of the primitive list (docs/language.md, "Primitives").
enum class PrimFamily {
  HighLevel,      ///< map, reduce, zip, split, ... (target independent)
  SequentialC,    ///< mapSeq, reduceSeq, scanSeq, ...
  OpenMP,         ///< mapPar, reducePar
  OpenCL,         ///< mapGlobal, oclReduceSeq, toLocal, ...
  Stretch,        ///< circularBuffer, rotateValues
  ScalarOperator, ///< add, lt, and, ... (the infix operators)
  BuiltinMath,    ///< sqrt, exp, atan2, min, select, ...
};

/// One row of RISEC_PRIMITIVES.
struct PrimInfo {
  Prim prim;
  std::string_view name;
  PrimFamily family;
  std::string_view signature; ///< parsed by rise/infer/Signatures.h
  PrimTraits traits;
};

const PrimInfo& primInfo(Prim p);
std::string_view primName(Prim p);
PrimFamily primFamily(Prim p);
/// True for scalar operators and built-in math functions.
bool isScalarPrimitive(Prim p);
/// map and its implementations: mapSeq, mapSeqUnroll, mapPar, mapGlobal/WorkGroup/Local.
bool isMapLike(Prim p);
/// reduce and its implementations: reducePar, reduceSeq, reduceSeqUnroll, oclReduceSeq.
bool isReduceLike(Prim p);
/// The maps of the OpenCL grid (mapGlobal, mapWorkGroup, mapLocal): the
/// mapping primitives of the OpenCL family.
bool isOpenClMap(Prim p);
/// A store into memory of a fixed address space (toGlobal, toLocal,
/// toPrivate) or of the one it takes (oclToMem).
bool storesInAddrSpace(Prim p);
std::optional<Prim> primFromName(std::string_view name);
const std::vector<Prim>& allPrims();

/// Infix spelling of a binary operator primitive (`+` for add), if it has one.
std::optional<std::string_view> primInfix(Prim p);
/// C precedence of an infix operator (higher binds tighter): || 1, && 2,
/// == != 3, < <= > >= 4, + - 5, * / % 6.
int infixPrecedence(Prim p);

} // namespace risec::rise
