// The closed set of RISE primitives, scalar operators and built-in math
// functions (docs/language.md, "Primitives"). Their types live in
// rise/infer/Signatures.cpp; their meaning in rise/interp/. The other places a
// new primitive needs: docs/architecture.md, "Adding a primitive".
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace risec::rise {

// clang-format off
#define RISEC_PRIMITIVES(X) \
  /* high level */ \
  X(Map, "map", HighLevel) \
  X(Reduce, "reduce", HighLevel) \
  X(Zip, "zip", HighLevel) \
  X(Unzip, "unzip", HighLevel) \
  X(Split, "split", HighLevel) \
  X(Join, "join", HighLevel) \
  X(Transpose, "transpose", HighLevel) \
  X(Slide, "slide", HighLevel) \
  X(PadCst, "padCst", HighLevel) \
  X(PadClamp, "padClamp", HighLevel) \
  X(Generate, "generate", HighLevel) \
  X(Idx, "idx", HighLevel) \
  X(Take, "take", HighLevel) \
  X(Drop, "drop", HighLevel) \
  X(Concat, "concat", HighLevel) \
  X(Fst, "fst", HighLevel) \
  X(Snd, "snd", HighLevel) \
  X(MakePair, "makePair", HighLevel) \
  X(MapFst, "mapFst", HighLevel) \
  X(MapSnd, "mapSnd", HighLevel) \
  X(Iterate, "iterate", HighLevel) \
  X(Let, "let", HighLevel) \
  X(ToMem, "toMem", HighLevel) \
  X(Cast, "cast", HighLevel) \
  X(AsVector, "asVector", HighLevel) \
  X(AsScalar, "asScalar", HighLevel) \
  X(AsVectorAligned, "asVectorAligned", HighLevel) \
  X(ReorderWithStride, "reorderWithStride", HighLevel) \
  X(NatValue, "natValue", HighLevel) \
  X(VectorFromScalar, "vectorFromScalar", HighLevel) \
  X(IndexAsNat, "indexAsNat", HighLevel) \
  X(NatAsIndex, "natAsIndex", HighLevel) \
  /* low level: C */ \
  X(MapSeq, "mapSeq", SequentialC) \
  X(MapSeqUnroll, "mapSeqUnroll", SequentialC) \
  X(ReduceSeq, "reduceSeq", SequentialC) \
  X(ReduceSeqUnroll, "reduceSeqUnroll", SequentialC) \
  X(ScanSeq, "scanSeq", SequentialC) \
  X(IterateStream, "iterateStream", SequentialC) \
  /* low level: OpenMP */ \
  X(MapPar, "mapPar", OpenMP) \
  X(ReducePar, "reducePar", OpenMP) \
  /* low level: OpenCL */ \
  X(MapGlobal, "mapGlobal", OpenCL) \
  X(MapWorkGroup, "mapWorkGroup", OpenCL) \
  X(MapLocal, "mapLocal", OpenCL) \
  X(OclReduceSeq, "oclReduceSeq", OpenCL) \
  X(OclToMem, "oclToMem", OpenCL) \
  X(OclIterate, "oclIterate", OpenCL) \
  X(ToGlobal, "toGlobal", OpenCL) \
  X(ToLocal, "toLocal", OpenCL) \
  X(ToPrivate, "toPrivate", OpenCL) \
  /* stretch */ \
  X(CircularBuffer, "circularBuffer", Stretch) \
  X(RotateValues, "rotateValues", Stretch) \
  /* scalar operators */ \
  X(Add, "add", ScalarOperator) \
  X(Sub, "sub", ScalarOperator) \
  X(Mul, "mul", ScalarOperator) \
  X(Div, "div", ScalarOperator) \
  X(Mod, "mod", ScalarOperator) \
  X(Neg, "neg", ScalarOperator) \
  X(Not, "not", ScalarOperator) \
  X(And, "and", ScalarOperator) \
  X(Or, "or", ScalarOperator) \
  X(Equal, "equal", ScalarOperator) \
  X(NotEqual, "notEqual", ScalarOperator) \
  X(Lt, "lt", ScalarOperator) \
  X(Le, "le", ScalarOperator) \
  X(Gt, "gt", ScalarOperator) \
  X(Ge, "ge", ScalarOperator) \
  /* built-in scalar functions */ \
  X(Sqrt, "sqrt", BuiltinMath) \
  X(Exp, "exp", BuiltinMath) \
  X(Log, "log", BuiltinMath) \
  X(Pow, "pow", BuiltinMath) \
  X(Fabs, "fabs", BuiltinMath) \
  X(Min, "min", BuiltinMath) \
  X(Max, "max", BuiltinMath) \
  X(Floor, "floor", BuiltinMath) \
  X(Sin, "sin", BuiltinMath) \
  X(Cos, "cos", BuiltinMath) \
  X(Tanh, "tanh", BuiltinMath) \
  X(Select, "select", BuiltinMath)
// clang-format on

enum class Prim {
#define RISEC_PRIM_ENUM(id, name, family) id,
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
  BuiltinMath,    ///< sqrt, exp, min, select, ...
};

std::string_view primName(Prim p);
PrimFamily primFamily(Prim p);
/// True for scalar operators and built-in math functions.
bool isScalarPrimitive(Prim p);
/// map and its implementations: mapSeq, mapSeqUnroll, mapPar, mapGlobal/WorkGroup/Local.
bool isMapLike(Prim p);
/// reduce and its implementations: reducePar, reduceSeq, reduceSeqUnroll, oclReduceSeq.
bool isReduceLike(Prim p);
std::optional<Prim> primFromName(std::string_view name);
const std::vector<Prim>& allPrims();

/// Infix spelling of a binary operator primitive (`+` for add), if it has one.
std::optional<std::string_view> primInfix(Prim p);
/// C precedence of an infix operator (higher binds tighter): || 1, && 2,
/// == != 3, < <= > >= 4, + - 5, * / % 6.
int infixPrecedence(Prim p);

} // namespace risec::rise
