#include "rise/infer/Signatures.h"

#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <map>

namespace risec::rise {

std::string_view signatureText(Prim p) {
  switch (p) {
  // ---- high level ----
  case Prim::Map:
  case Prim::MapSeq:
  case Prim::MapSeqUnroll:
  case Prim::MapPar:
  case Prim::IterateStream:
    return "{n: Nat} -> {s: Data} -> {t: Data} -> (s -> t) -> n.s -> n.t";
  case Prim::MapGlobal:
  case Prim::MapWorkGroup:
  case Prim::MapLocal:
    return "(d: Nat) -> {n: Nat} -> {s: Data} -> {t: Data} -> (s -> t) -> n.s -> n.t";
  case Prim::Reduce:
  case Prim::ReducePar:
    return "{n: Nat} -> {t: Data} -> (t -> t -> t) -> t -> n.t -> t";
  case Prim::ReduceSeq:
  case Prim::ReduceSeqUnroll:
    return "{n: Nat} -> {s: Data} -> {t: Data} -> (t -> s -> t) -> t -> n.s -> t";
  case Prim::OclReduceSeq:
    return "(a: AddrSpace) -> {n: Nat} -> {s: Data} -> {t: Data} -> (t -> s -> t) -> t -> n.s "
           "-> t";
  case Prim::ScanSeq:
    return "{n: Nat} -> {s: Data} -> {t: Data} -> (t -> s -> t) -> t -> n.s -> n.t";
  case Prim::Zip:
    return "{n: Nat} -> {s: Data} -> {t: Data} -> n.s -> n.t -> n.(s, t)";
  case Prim::Unzip:
    return "{n: Nat} -> {s: Data} -> {t: Data} -> n.(s, t) -> (n.s, n.t)";
  case Prim::Split:
    return "(k: Nat) -> {m: Nat} -> {t: Data} -> (m*k).t -> m.k.t";
  case Prim::Join:
    return "{n: Nat} -> {m: Nat} -> {t: Data} -> n.m.t -> (n*m).t";
  case Prim::Transpose:
    return "{n: Nat} -> {m: Nat} -> {t: Data} -> n.m.t -> m.n.t";
  case Prim::Slide:
    return "(sz: Nat) -> (sp: Nat) -> {n: Nat} -> {t: Data} -> (sp*n + sz).t -> (n + 1).sz.t";
  case Prim::PadCst:
    return "(l: Nat) -> (r: Nat) -> {n: Nat} -> {t: Data} -> t -> n.t -> (l + n + r).t";
  case Prim::PadClamp:
    return "(l: Nat) -> (r: Nat) -> {n: Nat} -> {t: Data} -> n.t -> (l + n + r).t";
  case Prim::Generate:
    return "{n: Nat} -> {t: Data} -> (idx[n] -> t) -> n.t";
  case Prim::Idx:
    return "{n: Nat} -> {t: Data} -> idx[n] -> n.t -> t";
  case Prim::Take:
    return "(k: Nat) -> {m: Nat} -> {t: Data} -> (k + m).t -> k.t";
  case Prim::Drop:
    return "(k: Nat) -> {m: Nat} -> {t: Data} -> (k + m).t -> m.t";
  case Prim::Concat:
    return "{n: Nat} -> {m: Nat} -> {t: Data} -> n.t -> m.t -> (n + m).t";
  case Prim::Fst:
    return "{s: Data} -> {t: Data} -> (s, t) -> s";
  case Prim::Snd:
    return "{s: Data} -> {t: Data} -> (s, t) -> t";
  case Prim::MakePair:
    return "{s: Data} -> {t: Data} -> s -> t -> (s, t)";
  case Prim::MapFst:
    return "{s: Data} -> {t: Data} -> {u: Data} -> (s -> u) -> (s, t) -> (u, t)";
  case Prim::MapSnd:
    return "{s: Data} -> {t: Data} -> {u: Data} -> (t -> u) -> (s, t) -> (s, u)";
  case Prim::Iterate:
    return "(k: Nat) -> {n: Nat} -> {m: Nat} -> {t: Data} -> "
           "((l: Nat) -> (l*n).t -> l.t) -> (m*n^k).t -> m.t";
  case Prim::OclIterate:
    return "(a: AddrSpace) -> (k: Nat) -> {n: Nat} -> {m: Nat} -> {t: Data} -> "
           "((l: Nat) -> (l*n).t -> l.t) -> (m*n^k).t -> m.t";
  case Prim::Let:
    return "{s: Data} -> {t: Data} -> s -> (s -> t) -> t";
  case Prim::ToMem:
  case Prim::ToGlobal:
  case Prim::ToLocal:
  case Prim::ToPrivate:
    return "{t: Data} -> t -> t";
  case Prim::OclToMem:
    return "(a: AddrSpace) -> {t: Data} -> t -> t";
  case Prim::Cast:
    return "(t: Scalar) -> {s: Scalar} -> s -> t";
  case Prim::AsVector:
  case Prim::AsVectorAligned:
    return "(k: Nat) -> {m: Nat} -> {s: Scalar} -> (m*k).s -> m.vec[s, k]";
  case Prim::ReorderWithStride:
    return "(s: Nat) -> {m: Nat} -> {t: Data} -> (m*s).t -> (m*s).t";
  case Prim::NatValue:
    return "(n: Nat) -> natType";
  case Prim::AsScalar:
    return "{m: Nat} -> {k: Nat} -> {s: Scalar} -> m.vec[s, k] -> (m*k).s";
  case Prim::VectorFromScalar:
    return "{k: Nat} -> {s: Scalar} -> s -> vec[s, k]";
  case Prim::IndexAsNat:
    return "{n: Nat} -> idx[n] -> natType";
  case Prim::NatAsIndex:
    return "(n: Nat) -> natType -> idx[n]";
  // ---- stretch ----
  case Prim::CircularBuffer:
    return "(a: AddrSpace) -> (alloc: Nat) -> (sz: Nat) -> {n: Nat} -> {s: Data} -> {t: Data} -> "
           "(s -> t) -> (n + sz - 1).s -> n.sz.t";
  case Prim::RotateValues:
    return "(a: AddrSpace) -> (sz: Nat) -> {n: Nat} -> {s: Data} -> (s -> s) -> (n + sz - 1).s "
           "-> n.sz.s";
  // ---- scalar operators ----
  case Prim::Add:
  case Prim::Sub:
  case Prim::Mul:
  case Prim::Div:
  case Prim::Mod:
  case Prim::Min:
  case Prim::Max:
    return "{t: Numeric} -> t -> t -> t";
  case Prim::Neg:
    return "{t: Numeric} -> t -> t";
  case Prim::Not:
    return "bool -> bool";
  case Prim::And:
  case Prim::Or:
    return "bool -> bool -> bool";
  case Prim::Equal:
  case Prim::NotEqual:
  case Prim::Lt:
  case Prim::Le:
  case Prim::Gt:
  case Prim::Ge:
    return "{t: Scalar} -> t -> t -> bool";
  case Prim::Sqrt:
  case Prim::Exp:
  case Prim::Log:
  case Prim::Fabs:
  case Prim::Floor:
  case Prim::Sin:
  case Prim::Cos:
  case Prim::Tanh:
    return "{t: Float} -> t -> t";
  case Prim::Pow:
    return "{t: Float} -> t -> t -> t";
  case Prim::Select:
    return "{t: Data} -> bool -> t -> t -> t";
  }
  throw InternalError("primitive without signature");
}

const Type& signature(Prim p) {
  static const std::map<Prim, Type> table = [] {
    std::map<Prim, Type> m;
    for (Prim q : allPrims()) {
      auto file = makeSourceFile("<signature of " + std::string(primName(q)) + ">",
                                 std::string(signatureText(q)));
      m[q] = parseType(file);
    }
    return m;
  }();
  return table.at(p);
}

int depArity(Prim p) {
  int n = 0;
  for (Type t = signature(p); t->kind() == TypeKind::DepFun; t = t->result())
    ++n;
  return n;
}

int valueArity(Prim p) {
  Type t = signature(p);
  while (t->kind() == TypeKind::DepFun)
    t = t->result();
  int n = 0;
  for (; t->kind() == TypeKind::Fun; t = t->result())
    ++n;
  return n;
}

} // namespace risec::rise
