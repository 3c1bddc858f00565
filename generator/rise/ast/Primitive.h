// The closed set of RISE primitives (DESIGN.md, "Primitives required in v1"),
// plus the scalar operators and built-in math functions. Their types live in
// rise/infer/Signatures.cpp; their meaning in rise/interp/.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace risec::rise {

// clang-format off
#define RISEC_PRIMITIVES(X) \
  /* high level */ \
  X(Map, "map") \
  X(Reduce, "reduce") \
  X(Zip, "zip") \
  X(Unzip, "unzip") \
  X(Split, "split") \
  X(Join, "join") \
  X(Transpose, "transpose") \
  X(Slide, "slide") \
  X(PadCst, "padCst") \
  X(PadClamp, "padClamp") \
  X(Generate, "generate") \
  X(Idx, "idx") \
  X(Take, "take") \
  X(Drop, "drop") \
  X(Concat, "concat") \
  X(Fst, "fst") \
  X(Snd, "snd") \
  X(MakePair, "makePair") \
  X(MapFst, "mapFst") \
  X(MapSnd, "mapSnd") \
  X(Iterate, "iterate") \
  X(Let, "let") \
  X(ToMem, "toMem") \
  X(Cast, "cast") \
  X(AsVector, "asVector") \
  X(AsScalar, "asScalar") \
  X(VectorFromScalar, "vectorFromScalar") \
  X(IndexAsNat, "indexAsNat") \
  X(NatAsIndex, "natAsIndex") \
  /* low level: C */ \
  X(MapSeq, "mapSeq") \
  X(MapSeqUnroll, "mapSeqUnroll") \
  X(ReduceSeq, "reduceSeq") \
  X(ReduceSeqUnroll, "reduceSeqUnroll") \
  X(ScanSeq, "scanSeq") \
  /* low level: OpenMP */ \
  X(MapPar, "mapPar") \
  X(ReducePar, "reducePar") \
  /* low level: OpenCL */ \
  X(MapGlobal, "mapGlobal") \
  X(MapWorkGroup, "mapWorkGroup") \
  X(MapLocal, "mapLocal") \
  X(OclReduceSeq, "oclReduceSeq") \
  X(OclToMem, "oclToMem") \
  X(ToGlobal, "toGlobal") \
  X(ToLocal, "toLocal") \
  X(ToPrivate, "toPrivate") \
  /* stretch */ \
  X(CircularBuffer, "circularBuffer") \
  X(RotateValues, "rotateValues") \
  /* scalar operators */ \
  X(Add, "add") \
  X(Sub, "sub") \
  X(Mul, "mul") \
  X(Div, "div") \
  X(Mod, "mod") \
  X(Neg, "neg") \
  X(Not, "not") \
  X(And, "and") \
  X(Or, "or") \
  X(Equal, "equal") \
  X(NotEqual, "notEqual") \
  X(Lt, "lt") \
  X(Le, "le") \
  X(Gt, "gt") \
  X(Ge, "ge") \
  /* built-in scalar functions */ \
  X(Sqrt, "sqrt") \
  X(Exp, "exp") \
  X(Log, "log") \
  X(Pow, "pow") \
  X(Fabs, "fabs") \
  X(Min, "min") \
  X(Max, "max") \
  X(Floor, "floor") \
  X(Sin, "sin") \
  X(Cos, "cos") \
  X(Tanh, "tanh") \
  X(Select, "select")
// clang-format on

enum class Prim {
#define RISEC_PRIM_ENUM(id, name) id,
  RISEC_PRIMITIVES(RISEC_PRIM_ENUM)
#undef RISEC_PRIM_ENUM
};

std::string_view primName(Prim p);
std::optional<Prim> primFromName(std::string_view name);
const std::vector<Prim>& allPrims();

/// Infix spelling of a binary operator primitive (`+` for add), if it has one.
std::optional<std::string_view> primInfix(Prim p);
/// C precedence of an infix operator (higher binds tighter): || 1, && 2,
/// == != 3, < <= > >= 4, + - 5, * / % 6.
int infixPrecedence(Prim p);

} // namespace risec::rise
