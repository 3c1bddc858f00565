// Data-parallel and data-layout primitives. Each function implements one
// primitive (or a family with the same meaning, e.g. map, mapSeq, mapGlobal);
// its comment gives the signature and the meaning. Arguments are read by
// their position in the signature: `call.nat(i)` is the i-th dependent
// argument, `call.arg(i)` the i-th value argument.
//
// Sizes written in the signatures are checked against the run-time lengths
// (error E0404), so a wrong type is caught here rather than silently
// producing a wrong value.
#include "rise/interp/Primitives.h"
#include "rise/interp/RuntimeError.h"

#include <algorithm>

namespace risec::rise::interp {

namespace {

using Values = std::vector<Value>;

std::string name(const PrimCall& call) {
  return std::string(primName(call.prim));
}

/// E0404 unless `xs` has exactly `expected` elements.
void expectLength(const PrimCall& call, const Value& xs, std::int64_t expected,
                  const char* which = "its input") {
  auto actual = static_cast<std::int64_t>(xs.size());
  if (actual != expected)
    runtimeError(errc::kLengthMismatch, call.loc,
                 "`" + name(call) + "` expects " + which + " to have " + std::to_string(expected) +
                     " elements, found " + std::to_string(actual));
}

/// a * b for sizes, with E0406 on overflow instead of undefined behaviour.
std::int64_t sizeMul(const PrimCall& call, std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    runtimeError(errc::kBadSizeArgument, call.loc,
                 "size overflow in `" + name(call) + "`: " + std::to_string(a) + " * " +
                     std::to_string(b));
  return r;
}

// ---- shared helpers -------------------------------------------------------------

/// [f(x) for x in xs]
Value mapValues(const Value& f, const Value& xs) {
  Values out;
  out.reserve(xs.size());
  for (const Value& x : xs.elements())
    out.push_back(apply(f, x));
  return Value::array(std::move(out));
}

/// `count` windows; window i is xs[i*sp, i*sp + sz). The caller has checked
/// that the last window ends inside xs.
Value windows(const Value& xs, std::int64_t sz, std::int64_t sp, std::int64_t count) {
  Values out;
  for (std::int64_t i = 0; i < count; ++i) {
    auto begin = xs.elements().begin() + i * sp;
    out.push_back(Value::array(Values(begin, begin + sz)));
  }
  return Value::array(std::move(out));
}

// ---- map and reduce -------------------------------------------------------------

/// map, mapSeq, mapSeqUnroll, mapPar: {n} {s} {t} (s -> t) -> n.s -> n.t
/// mapGlobal, mapWorkGroup, mapLocal: (d) {n} {s} {t} (s -> t) -> n.s -> n.t
/// out[i] = f(xs[i]). The variants differ only in how generated code runs.
Value primMap(const PrimCall& call) {
  return mapValues(call.arg(0), call.arg(1));
}

/// reduce, reducePar: {n} {t} (t -> t -> t) -> t -> n.t -> t
/// reduceSeq, reduceSeqUnroll: {n} {s} {t} (t -> s -> t) -> t -> n.s -> t
/// oclReduceSeq: (a) {n} {s} {t} (t -> s -> t) -> t -> n.s -> t
/// A left fold in index order: acc = init; acc = f(acc)(xs[i]) for each i.
Value primReduce(const PrimCall& call) {
  const Value &f = call.arg(0), &xs = call.arg(2);
  Value acc = call.arg(1);
  for (const Value& x : xs.elements())
    acc = apply(apply(f, acc), x);
  return acc;
}

/// scanSeq: {n} {s} {t} (t -> s -> t) -> t -> n.s -> n.t
/// An inclusive scan: out[i] is the accumulator after element i.
Value primScanSeq(const PrimCall& call) {
  const Value &f = call.arg(0), &xs = call.arg(2);
  Value acc = call.arg(1);
  Values out;
  for (const Value& x : xs.elements()) {
    acc = apply(apply(f, acc), x);
    out.push_back(acc);
  }
  return Value::array(std::move(out));
}

// ---- zip, split, join, transpose -------------------------------------------------

/// zip: {n} {s} {t} n.s -> n.t -> n.(s, t);  out[i] = (a[i], b[i])
Value primZip(const PrimCall& call) {
  const Value &a = call.arg(0), &b = call.arg(1);
  expectLength(call, b, static_cast<std::int64_t>(a.size()), "its second input");
  Values out;
  for (std::size_t i = 0; i < a.size(); ++i)
    out.push_back(Value::pair(a[i], b[i]));
  return Value::array(std::move(out));
}

/// unzip: {n} {s} {t} n.(s, t) -> (n.s, n.t);  ([fst(p) for p], [snd(p) for p])
Value primUnzip(const PrimCall& call) {
  Values firsts, seconds;
  for (const Value& p : call.arg(0).elements()) {
    firsts.push_back(p.first());
    seconds.push_back(p.second());
  }
  return Value::pair(Value::array(std::move(firsts)), Value::array(std::move(seconds)));
}

/// split: (k) {m} {t} (m*k).t -> m.k.t;  chunk j is xs[j*k, (j+1)*k)
Value primSplit(const PrimCall& call) {
  std::int64_t k = call.nat(0), m = call.nat(1);
  const Value& xs = call.arg(0);
  expectLength(call, xs, sizeMul(call, m, k));
  return windows(xs, k, k, m);
}

/// join: {n} {m} {t} n.m.t -> (n*m).t;  the rows concatenated in order
Value primJoin(const PrimCall& call) {
  std::int64_t m = call.nat(1);
  Values out;
  for (const Value& row : call.arg(0).elements()) {
    expectLength(call, row, m, "every row");
    out.insert(out.end(), row.elements().begin(), row.elements().end());
  }
  return Value::array(std::move(out));
}

/// transpose: {n} {m} {t} n.m.t -> m.n.t;  out[j][i] = xs[i][j]
Value primTranspose(const PrimCall& call) {
  std::int64_t m = call.nat(1);
  const Value& xs = call.arg(0);
  for (const Value& row : xs.elements())
    expectLength(call, row, m, "every row");
  Values out;
  for (std::int64_t j = 0; j < m; ++j) {
    Values column;
    for (const Value& row : xs.elements())
      column.push_back(row[static_cast<std::size_t>(j)]);
    out.push_back(Value::array(std::move(column)));
  }
  return Value::array(std::move(out));
}

// ---- windows and padding ---------------------------------------------------------

/// slide: (sz) (sp) {n} {t} (sp*n + sz).t -> (n + 1).sz.t
/// Window i is xs[i*sp, i*sp + sz); there are (len - sz)/sp + 1 = n + 1.
Value primSlide(const PrimCall& call) {
  std::int64_t sz = call.nat(0), sp = call.nat(1), n = call.nat(2);
  const Value& xs = call.arg(0);
  expectLength(call, xs, sizeMul(call, sp, n) + sz);
  return windows(xs, sz, sp, n + 1);
}

/// padCst: (l) (r) {n} {t} t -> n.t -> (l + n + r).t
/// l copies of c, then xs, then r copies of c.
Value primPadCst(const PrimCall& call) {
  std::int64_t l = call.nat(0), r = call.nat(1);
  const Value &c = call.arg(0), &xs = call.arg(1);
  Values out(static_cast<std::size_t>(l), c);
  out.insert(out.end(), xs.elements().begin(), xs.elements().end());
  out.insert(out.end(), static_cast<std::size_t>(r), c);
  return Value::array(std::move(out));
}

/// padClamp: (l) (r) {n} {t} n.t -> (l + n + r).t
/// out[i] = xs[clamp(i - l, 0, n - 1)]: the border elements repeated. n >= 1
/// unless nothing is padded (l + r == 0: the empty array stays empty).
Value primPadClamp(const PrimCall& call) {
  std::int64_t l = call.nat(0), r = call.nat(1);
  const Value& xs = call.arg(0);
  auto n = static_cast<std::int64_t>(xs.size());
  if (n == 0 && l + r > 0)
    runtimeError(errc::kEmptyPadClamp, call.loc, "`padClamp` of an empty array");
  Values out;
  for (std::int64_t i = 0; i < l + n + r; ++i)
    out.push_back(xs[static_cast<std::size_t>(std::clamp<std::int64_t>(i - l, 0, n - 1))]);
  return Value::array(std::move(out));
}

/// A value shaped like `v` with every scalar, lane and index 0.
Value zeroLike(const Value& v) {
  switch (v.kind()) {
  case Value::Kind::Scalar: {
    ScalarValue z;
    z.kind = v.asScalar().kind;
    return Value::scalar(z);
  }
  case Value::Kind::Array: {
    Values out;
    for (const Value& x : v.elements())
      out.push_back(zeroLike(x));
    return Value::array(std::move(out));
  }
  case Value::Kind::Pair:
    return Value::pair(zeroLike(v.first()), zeroLike(v.second()));
  case Value::Kind::Vector: {
    std::vector<ScalarValue> lanes(v.lanes().size());
    for (std::size_t i = 0; i < lanes.size(); ++i)
      lanes[i].kind = v.lanes()[i].kind;
    return Value::vector(std::move(lanes));
  }
  case Value::Kind::Index:
    return Value::index(0, v.asIndex().bound);
  case Value::Kind::Function:
    break;
  }
  throw InternalError("interpreter: `padEmpty` of functions");
}

/// The value of data type `t` (constant sizes) with every scalar 0; E0406
/// where a size of `t` is not a number.
Value zeroOf(const PrimCall& call, const Type& t) {
  auto size = [&](const Nat& n) -> std::int64_t {
    if (!n->isConst())
      runtimeError(errc::kBadSizeArgument, call.loc,
                   "`padEmpty`: cannot evaluate the size `" + natToString(n) +
                       "` of the padding's element type");
    return n->value();
  };
  switch (t->kind()) {
  case TypeKind::Scalar: {
    ScalarValue z;
    z.kind = t->scalar();
    return Value::scalar(z);
  }
  case TypeKind::Array: {
    Values out;
    for (std::int64_t i = 0, n = size(t->size()); i < n; ++i)
      out.push_back(zeroOf(call, t->elem()));
    return Value::array(std::move(out));
  }
  case TypeKind::Vec: {
    std::vector<ScalarValue> lanes(static_cast<std::size_t>(size(t->size())));
    for (ScalarValue& l : lanes)
      l.kind = t->elem()->scalar();
    return Value::vector(std::move(lanes));
  }
  case TypeKind::Index:
    return Value::index(0, size(t->size()));
  case TypeKind::Pair:
    return Value::pair(zeroOf(call, t->first()), zeroOf(call, t->second()));
  default:
    break;
  }
  throw InternalError("interpreter: `padEmpty` of " + typeToString(t));
}

/// padEmpty: (r) {n} {t} n.t -> (n + r).t
/// xs followed by r elements that are never written: the generated code
/// leaves them untouched and no program may read them (E0314, checked by
/// inference), so only the def's result can show them. The interpreter
/// fills them with zeros to give a complete value.
Value primPadEmpty(const PrimCall& call) {
  std::int64_t r = call.nat(0);
  const Value& xs = call.arg(0);
  expectLength(call, xs, call.nat(1));
  Values out = xs.elements();
  if (r > 0) {
    Value pad = xs.size() > 0 ? zeroLike(xs[0]) : zeroOf(call, call.type(2));
    out.insert(out.end(), static_cast<std::size_t>(r), pad);
  }
  return Value::array(std::move(out));
}

// ---- generate, idx, take, drop, concat -----------------------------------------

/// generate: {n} {t} (idx[n] -> t) -> n.t;  out[i] = f(i) for i < n
Value primGenerate(const PrimCall& call) {
  std::int64_t n = call.nat(0);
  Values out;
  for (std::int64_t i = 0; i < n; ++i)
    out.push_back(apply(call.arg(0), Value::index(i, n)));
  return Value::array(std::move(out));
}

/// idx: {n} {t} idx[n] -> n.t -> t;  xs[i]
Value primIdx(const PrimCall& call) {
  std::int64_t i = call.arg(0).asIndex().value;
  const Value& xs = call.arg(1);
  if (i < 0 || i >= static_cast<std::int64_t>(xs.size()))
    runtimeError(errc::kIndexOutOfRange, call.loc,
                 "`idx`: index " + std::to_string(i) + " is out of range for an array of " +
                     std::to_string(xs.size()) + " elements");
  return xs[static_cast<std::size_t>(i)];
}

/// take: (k) {m} {t} (k + m).t -> k.t;  the first k elements
Value primTake(const PrimCall& call) {
  std::int64_t k = call.nat(0), m = call.nat(1);
  const Value& xs = call.arg(0);
  expectLength(call, xs, k + m);
  return Value::array(Values(xs.elements().begin(), xs.elements().begin() + k));
}

/// drop: (k) {m} {t} (k + m).t -> m.t;  all but the first k elements
Value primDrop(const PrimCall& call) {
  std::int64_t k = call.nat(0), m = call.nat(1);
  const Value& xs = call.arg(0);
  expectLength(call, xs, k + m);
  return Value::array(Values(xs.elements().begin() + k, xs.elements().end()));
}

/// concat: {n} {m} {t} n.t -> m.t -> (n + m).t;  a followed by b
Value primConcat(const PrimCall& call) {
  Values out = call.arg(0).elements();
  const Values& b = call.arg(1).elements();
  out.insert(out.end(), b.begin(), b.end());
  return Value::array(std::move(out));
}

// ---- pairs -------------------------------------------------------------------

/// mapFst: {s} {t} {u} (s -> u) -> (s, t) -> (u, t);  (f(a), b)
Value primMapFst(const PrimCall& call) {
  const Value& p = call.arg(1);
  return Value::pair(apply(call.arg(0), p.first()), p.second());
}

/// mapSnd: {s} {t} {u} (t -> u) -> (s, t) -> (s, u);  (a, f(b))
Value primMapSnd(const PrimCall& call) {
  const Value& p = call.arg(1);
  return Value::pair(p.first(), apply(call.arg(0), p.second()));
}

// ---- iterate, let ----------------------------------------------------------------

/// iterate: (k) {n} {m} {t} ((l: Nat) -> (l*n).t -> l.t) -> (m*n^k).t -> m.t
/// Applies the dependent function body k times. Iteration i (from 0) maps an
/// array of l*n elements to one of l = m*n^(k-i-1) elements: xs = body(l)(xs).
/// (RISE & Shine, Listing 14.)
/// oclIterate: (a) (k) {n} {m} {t} ...: the same; `a` only tells the OpenCL
/// back end where the double buffers live.
Value primIterate(const PrimCall& call) {
  std::size_t first = call.prim == Prim::OclIterate ? 1 : 0; // after oclIterate's address space
  std::int64_t k = call.nat(first), n = call.nat(first + 1), m = call.nat(first + 2);
  const Value& body = call.arg(0);
  Value xs = call.arg(1);
  for (std::int64_t i = 0; i < k; ++i) {
    std::int64_t l = m;
    for (std::int64_t j = 0; j < k - i - 1; ++j)
      l = sizeMul(call, l, n);
    expectLength(call, xs, sizeMul(call, l, n), "the input of each iteration");
    xs = apply(applyDep(body, DepArg::ofNat(l)), xs);
    expectLength(call, xs, l, "the output of each iteration");
  }
  return xs;
}

/// let: {s} {t} s -> (s -> t) -> t;  let(x)(f) = f(x)
Value primLet(const PrimCall& call) {
  return apply(call.arg(1), call.arg(0));
}

// ---- scalars, vectors and indices -----------------------------------------------

/// cast: (t: Scalar) {s: Scalar} s -> t;  the C conversion (t)x
Value primCast(const PrimCall& call) {
  const Type& target = call.type(0);
  if (target->kind() != TypeKind::Scalar)
    throw InternalError("interpreter: cast to the non-scalar type " + typeToString(target));
  return Value::scalar(call.arg(0).asScalar().convertTo(target->scalar()));
}

/// asVector: (k) {m} {s} (m*k).s -> m.vec[s, k]
/// Vector j holds the scalars xs[j*k, (j+1)*k).
Value primAsVector(const PrimCall& call) {
  std::int64_t k = call.nat(0), m = call.nat(1);
  const Value& xs = call.arg(0);
  expectLength(call, xs, sizeMul(call, m, k));
  Values out;
  for (std::int64_t j = 0; j < m; ++j) {
    std::vector<ScalarValue> lanes;
    for (std::int64_t i = 0; i < k; ++i)
      lanes.push_back(xs[static_cast<std::size_t>(j * k + i)].asScalar());
    out.push_back(Value::vector(std::move(lanes)));
  }
  return Value::array(std::move(out));
}

/// reorderWithStride: (s) {m} {t} (m*s).t -> (m*s).t
/// out[i] = xs[i/m + s*(i%m)]: chunk a of m consecutive outputs (a < s) holds
/// xs[a], xs[a + s], xs[a + 2s], ... (Shine's HighLevelConstructs.reorderWithStride).
Value primReorderWithStride(const PrimCall& call) {
  std::int64_t s = call.nat(0), m = call.nat(1);
  const Value& xs = call.arg(0);
  expectLength(call, xs, sizeMul(call, m, s));
  Values out;
  for (std::int64_t i = 0; i < m * s; ++i)
    out.push_back(xs[static_cast<std::size_t>(i / m + s * (i % m))]);
  return Value::array(std::move(out));
}

/// asScalar: {m} {k} {s} m.vec[s, k] -> (m*k).s;  the lanes of all vectors in order
Value primAsScalar(const PrimCall& call) {
  Values out;
  for (const Value& v : call.arg(0).elements())
    for (const ScalarValue& lane : v.lanes())
      out.push_back(Value::scalar(lane));
  return Value::array(std::move(out));
}

/// vectorFromScalar: {k} {s} s -> vec[s, k];  k copies of x
Value primVectorFromScalar(const PrimCall& call) {
  std::int64_t k = call.nat(0);
  return Value::vector(
      std::vector<ScalarValue>(static_cast<std::size_t>(k), call.arg(0).asScalar()));
}

/// indexAsNat: {n} idx[n] -> natType;  the index as a number
Value primIndexAsNat(const PrimCall& call) {
  return Value::scalar(ScalarValue::makeInt(ScalarKind::NatType, call.arg(0).asIndex().value));
}

/// natAsIndex: (n) natType -> idx[n];  the number as an index; E0403 unless 0 <= x < n
Value primNatAsIndex(const PrimCall& call) {
  std::int64_t n = call.nat(0);
  std::int64_t x = call.arg(0).asScalar().asInt();
  if (x < 0 || x >= n)
    runtimeError(errc::kIndexOutOfRange, call.loc,
                 "`natAsIndex(" + std::to_string(n) + ")`: " + std::to_string(x) +
                     " is not an index in [0, " + std::to_string(n) + ")");
  return Value::index(x, n);
}

// ---- stretch -------------------------------------------------------------------

/// circularBuffer: (a) (alloc) (sz) {n} {s} {t} (s -> t) -> (n + sz - 1).s -> n.sz.t
/// rotateValues:   (a) (sz) {n} {s} (s -> s) -> (n + sz - 1).s -> n.sz.s
/// Both mean slide(sz, 1)(map(f)(xs)); they differ in the generated code only.
Value primSlidingMap(const PrimCall& call, std::int64_t sz, std::int64_t n) {
  const Value& xs = call.arg(1);
  expectLength(call, xs, n + sz - 1);
  return windows(mapValues(call.arg(0), xs), sz, 1, n);
}

} // namespace

Value runDataPrimitive(const PrimCall& call) {
  switch (call.prim) {
  case Prim::Map:
  case Prim::MapSeq:
  case Prim::MapSeqUnroll:
  case Prim::IterateStream: // a sequential map over a stream (rotateValues, circularBuffer)
  case Prim::MapPar:
  case Prim::MapGlobal:
  case Prim::MapWorkGroup:
  case Prim::MapLocal:
    return primMap(call);
  case Prim::Reduce:
  case Prim::ReducePar:
  case Prim::ReduceSeq:
  case Prim::ReduceSeqUnroll:
  case Prim::OclReduceSeq:
    return primReduce(call);
  case Prim::Scan: // the inclusive scan: scanSeq with s = t
  case Prim::ScanSeq:
    return primScanSeq(call);
  case Prim::Zip:
    return primZip(call);
  case Prim::Unzip:
    return primUnzip(call);
  case Prim::Split:
    return primSplit(call);
  case Prim::Join:
    return primJoin(call);
  case Prim::Transpose:
    return primTranspose(call);
  case Prim::Slide:
    return primSlide(call);
  case Prim::PadCst:
    return primPadCst(call);
  case Prim::PadClamp:
    return primPadClamp(call);
  case Prim::PadEmpty:
    return primPadEmpty(call);
  case Prim::Generate:
    return primGenerate(call);
  case Prim::Idx:
    return primIdx(call);
  case Prim::Take:
    return primTake(call);
  case Prim::Drop:
    return primDrop(call);
  case Prim::Concat:
    return primConcat(call);
  case Prim::Fst: // {s} {t} (s, t) -> s
    return call.arg(0).first();
  case Prim::Snd: // {s} {t} (s, t) -> t
    return call.arg(0).second();
  case Prim::MakePair: // {s} {t} s -> t -> (s, t)
    return Value::pair(call.arg(0), call.arg(1));
  case Prim::MapFst:
    return primMapFst(call);
  case Prim::MapSnd:
    return primMapSnd(call);
  case Prim::Iterate:
  case Prim::OclIterate:
    return primIterate(call);
  case Prim::Let:
    return primLet(call);
  // toMem, toGlobal, toLocal, toPrivate: {t} t -> t; oclToMem: (a) {t} t -> t.
  // The identity: they only tell the code generator where to store a value.
  case Prim::ToMem:
  case Prim::ToGlobal:
  case Prim::ToLocal:
  case Prim::ToPrivate:
  case Prim::OclToMem:
    return call.arg(0);
  case Prim::Cast:
    return primCast(call);
  case Prim::AsVector:
  case Prim::AsVectorAligned: // the alignment only matters to the code generator
    return primAsVector(call);
  case Prim::ReorderWithStride:
    return primReorderWithStride(call);
  case Prim::NatValue: // (n) natType: the size as a value
    return Value::scalar(ScalarValue::makeInt(ScalarKind::NatType, call.nat(0)));
  case Prim::AsScalar:
    return primAsScalar(call);
  case Prim::VectorFromScalar:
    return primVectorFromScalar(call);
  case Prim::IndexAsNat:
    return primIndexAsNat(call);
  case Prim::NatAsIndex:
    return primNatAsIndex(call);
  case Prim::CircularBuffer:
    return primSlidingMap(call, call.nat(2), call.nat(3));
  case Prim::RotateValues:
    return primSlidingMap(call, call.nat(1), call.nat(2));
  // Scalar operators and math functions live in PrimitivesScalar.cpp. They
  // are listed (no `default:`) so that -Wswitch flags a new primitive that
  // has no meaning yet.
  case Prim::Add:
  case Prim::Sub:
  case Prim::Mul:
  case Prim::Div:
  case Prim::Mod:
  case Prim::Neg:
  case Prim::Not:
  case Prim::And:
  case Prim::Or:
  case Prim::Equal:
  case Prim::NotEqual:
  case Prim::Lt:
  case Prim::Le:
  case Prim::Gt:
  case Prim::Ge:
  case Prim::Sqrt:
  case Prim::Exp:
  case Prim::Log:
  case Prim::Pow:
  case Prim::Fabs:
  case Prim::Min:
  case Prim::Max:
  case Prim::Floor:
  case Prim::Sin:
  case Prim::Cos:
  case Prim::Tanh:
  case Prim::Atan2:
  case Prim::Select:
    break;
  }
  throw InternalError("interpreter: `" + name(call) + "` is not a data primitive");
}

} // namespace risec::rise::interp
