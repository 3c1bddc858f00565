#include "codegen/c/EmitVectors.h"

#include "codegen/c/CPrinter.h"
#include "codegen/c/EmitTypes.h"
#include "dpia/Primitive.h"
#include "rise/infer/Signatures.h"
#include "support/Diagnostic.h"

#include <algorithm>
#include <map>
#include <set>

namespace risec::codegen::c {

using rise::ScalarKind;

namespace {

std::int64_t widthOf(const rise::Type& t) {
  if (t->kind() != rise::TypeKind::Vec || !t->size()->isConst())
    throw InternalError("vector back end: `" + rise::typeToString(t) +
                        "` is not a vector of a constant width");
  return t->size()->value();
}

std::int64_t elementBytes(ScalarKind k) {
  return k == ScalarKind::NatType ? 4 : rise::scalarBits(k) / 8;
}

/// OpenCL C's name of a scalar as a vector element (`float`, `uchar`, ...).
std::string openclElement(ScalarKind k) {
  static const std::map<ScalarKind, std::string> names = {
      {ScalarKind::I8, "char"},    {ScalarKind::U8, "uchar"},   {ScalarKind::I16, "short"},
      {ScalarKind::U16, "ushort"}, {ScalarKind::I32, "int"},    {ScalarKind::U32, "uint"},
      {ScalarKind::I64, "long"},   {ScalarKind::U64, "ulong"},  {ScalarKind::F32, "float"},
      {ScalarKind::F64, "double"}, {ScalarKind::NatType, "int"}};
  auto it = names.find(k);
  if (it == names.end())
    throw InternalError("OpenCL back end: no vector of `" + std::string(rise::scalarName(k)) + "`");
  return it->second;
}

/// `array + base`, or `array` for a zero offset.
CExpr offset(const CExpr& array, const CExpr& base) {
  bool zero = base->kind() == ExprNode::Kind::Literal && base->text() == "0";
  return zero ? array : binary(COp::Add, array, base);
}

} // namespace

bool VectorTypes::native(const rise::Type& t) const {
  if (t->kind() != rise::TypeKind::Vec || !t->size()->isConst() ||
      t->elem()->kind() != rise::TypeKind::Scalar || t->elem()->scalar() == ScalarKind::Bool)
    return false;
  std::int64_t w = t->size()->value();
  if (opencl_)
    return w == 2 || w == 3 || w == 4 || w == 8 || w == 16;
  return w >= 2 && w <= 64 && (w & (w - 1)) == 0; // vector_size needs a power of two
}

std::string VectorTypes::name(const rise::Type& t) const {
  ScalarKind k = t->elem()->scalar();
  std::string w = std::to_string(widthOf(t));
  if (opencl_)
    return openclElement(k) + w;
  return "risec_" + std::string(k == ScalarKind::NatType ? "int" : rise::scalarName(k)) + "x" + w;
}

void VectorTypes::use(const rise::Type& t) {
  if (opencl_)
    return;
  for (const rise::Type& u : used_)
    if (name(u) == name(t))
      return;
  used_.push_back(t);
}

CType VectorTypes::type(const rise::Type& t) {
  if (!native(t))
    throw InternalError("vector back end: `" + rise::typeToString(t) + "` is not a native vector");
  use(t);
  return namedType(name(t));
}

CExpr VectorTypes::fromLanes(const rise::Type& t, const std::vector<CExpr>& lanes) {
  CType vt = type(t);
  // `(float4)(a, b, c, d)` is OpenCL's vector literal, `(risec_f32x4){a, b,
  // c, d}` a compound literal of the GCC vector type; in OpenCL a literal of
  // one value in every lane (a column of a register tile reads one element
  // of A for a row of B) is written once, `(float16)(A[i])`, as a person
  // would
  if (!lanes.empty() && std::all_of(lanes.begin(), lanes.end(),
                                    [&](const CExpr& l) { return exprEqual(l, lanes.front()); }))
    return broadcast(t, lanes.front());
  return opencl_ ? call("(" + name(t) + ")", lanes) : compoundLiteral(vt, lanes);
}

CExpr VectorTypes::broadcast(const rise::Type& t, const CExpr& x) {
  if (opencl_)
    return call("(" + printType(type(t)) + ")", {x});
  type(t);
  return call(name(t) + "_splat", {x});
}

std::vector<std::string> VectorTypes::splatNames() const {
  std::vector<std::string> out;
  for (const rise::Type& t : used_)
    out.push_back(name(t) + "_splat");
  return out;
}

std::string VectorTypes::splatCode(const std::string& splat) const {
  for (const rise::Type& t : used_) {
    if (name(t) + "_splat" != splat)
      continue;
    // a macro, not a function: a function returning a vector wider than the
    // ISA's registers changes the ABI (gcc's -Wpsabi for 32-byte vectors on
    // baseline x86-64), and the same definition may occur twice in a
    // translation unit (kernels' files compiled together), which C allows
    // for a macro
    std::string lanes;
    for (std::int64_t k = 0; k < widthOf(t); ++k)
      lanes += k == 0 ? "(x)" : ", (x)";
    return "/* every lane x */\n#define " + splat + "(x) ((" + name(t) + "){" + lanes + "})";
  }
  throw InternalError("vector back end: no vector type for the helper `" + splat + "`");
}

CExpr VectorTypes::exactly(const rise::Type& t, const CExpr& v) {
  // variables, compound literals and splats have the value type already
  if (opencl_ || v->kind() == ExprNode::Kind::Ident || v->kind() == ExprNode::Kind::Compound ||
      (v->kind() == ExprNode::Kind::Call && v->text() == name(t) + "_splat"))
    return v;
  return call("__builtin_convertvector", {v, ident(printType(type(t)))});
}

CExpr VectorTypes::lane(const CExpr& v, std::int64_t k) const {
  if (!opencl_)
    return index(v, intLit(k));
  static const char digits[] = "0123456789abcdef";
  return member(v, std::string("s") + digits[k]);
}

CType VectorTypes::unaligned(const rise::Type& t, bool isConst) {
  type(t); // declares both typedefs
  return namedType(name(t) + "u", isConst);
}

CExpr VectorTypes::load(const rise::Type& t, const CExpr& array, const CExpr& base) {
  if (opencl_) // vloadN reads N elements from any element-aligned address
    return call("vload" + std::to_string(widthOf(t)), {intLit(0), offset(array, base)});
  return unary(COp::Deref,
               cast(pointerType(unaligned(t, true)), unary(COp::AddressOf, index(array, base))));
}

CStmt VectorTypes::store(const rise::Type& t, const CExpr& array, const CExpr& base,
                         const CExpr& value) {
  if (opencl_)
    return exprStmt(
        call("vstore" + std::to_string(widthOf(t)), {value, intLit(0), offset(array, base)}));
  return assign(unary(COp::Deref, cast(pointerType(unaligned(t, false)),
                                       unary(COp::AddressOf, index(array, base)))),
                value);
}

COp primOperator(rise::Prim p, bool prefix) {
  std::string_view s = rise::primInfo(p).traits.cOperator;
  // every COp up to the last one, OrAssign (CAst.cpp checks that it is last)
  for (int i = 0; i <= static_cast<int>(COp::OrAssign); ++i) {
    auto op = static_cast<COp>(i);
    if (opInfo(op).prefix == prefix && !opInfo(op).assignment && spelling(op) == s)
      return op;
  }
  throw InternalError("C back end: `" + std::string(rise::primName(p)) + "` has no " +
                      (prefix ? "prefix" : "infix") + " C operator `" + std::string(s) + "`");
}

std::optional<COp> VectorTypes::elementWise(rise::Prim prim, const rise::Type& t) const {
  const rise::PrimTraits& c = rise::primInfo(prim).traits;
  // on floats, a primitive spelt as a math function (mod: fmod) is no operator
  if (!c.vectorOperator || (!c.cMathF32.empty() && rise::isFloat(t->elem()->scalar())))
    return std::nullopt;
  return primOperator(prim, rise::valueArity(prim) == 1);
}

std::optional<std::string> VectorTypes::builtin(rise::Prim prim, const rise::Type& t) const {
  const rise::PrimTraits& c = rise::primInfo(prim).traits;
  if (!opencl_ || c.openclBuiltin.empty())
    return std::nullopt;
  // OpenCL's min/max take vectors of integers and of floats; a math function
  // applies to floats only (mod of integers is `%`)
  if (!c.cMathF32.empty() && !rise::isFloat(t->elem()->scalar()))
    return std::nullopt;
  return std::string(c.openclBuiltin);
}

rise::Type VectorTypes::maskType(const rise::Type& t) const {
  ScalarKind lanes; // as wide as the C element (natType's is an int)
  switch (8 * elementBytes(t->elem()->scalar())) {
  case 8:
    lanes = ScalarKind::I8;
    break;
  case 16:
    lanes = ScalarKind::I16;
    break;
  case 32:
    lanes = ScalarKind::I32;
    break;
  default:
    lanes = ScalarKind::I64;
  }
  return rise::vecType(rise::scalarType(lanes), t->size());
}

std::string VectorTypes::declarations(const std::set<std::string>& declared) const {
  std::string s;
  for (const rise::Type& t : used_) {
    ScalarKind k = t->elem()->scalar();
    std::string elem = scalarCType(k), n = name(t);
    std::string bytes = std::to_string(widthOf(t) * elementBytes(k));
    std::string align = std::to_string(elementBytes(k));
    if (!declared.count(n))
      s += "typedef " + elem + " " + n + " __attribute__((vector_size(" + bytes + ")));\n";
    s += "typedef " + elem + " " + n + "u __attribute__((vector_size(" + bytes + "), aligned(" +
         align + "), may_alias));\n";
  }
  return s;
}

std::vector<std::pair<std::string, std::string>> VectorTypes::valueTypedefs() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const rise::Type& t : used_) {
    ScalarKind k = t->elem()->scalar();
    std::string bytes = std::to_string(widthOf(t) * elementBytes(k));
    out.push_back({name(t), "typedef " + scalarCType(k) + " " + name(t) +
                                " __attribute__((vector_size(" + bytes + ")));"});
  }
  return out;
}

// ---- VectorLowering -------------------------------------------------------------

namespace {

/// The symbolic index standing for all lanes of a vector of type `t`.
rise::Nat allLanes(const rise::Type& t) {
  return rise::natVar("risec_lanes", rise::natConst(0), t->size());
}

/// Selects lane `k` of the vector that `path` selects: the lane is the
/// innermost step (the front of the path; a vector component of a pair is
/// selected by [lane, Fst]).
void pushLane(dpia::Path& path, rise::Nat k) {
  path.elems.insert(path.elems.begin(), {dpia::PathElem::Kind::Index, std::move(k)});
}

/// A clamp that the lanes' index goes through, taken off: its argument and
/// what keeps it from biting (arg <= bound for a min, bound <= arg for a max).
struct Clamp {
  rise::Nat arg, bound;
  bool min;
};

/// `n` with every min or max of which only one side holds the lanes (`id`)
/// replaced by that side, recorded in `clamps`; nullopt where a min or max
/// holds the lanes on both sides.
std::optional<rise::Nat> withoutClamps(const rise::Nat& n, std::uint64_t id,
                                       std::vector<Clamp>& clamps) {
  using rise::NatKind;
  if (!rise::natContainsVar(n, id))
    return n;
  std::vector<rise::Nat> ops;
  for (const rise::Nat& op : n->operands()) {
    auto o = withoutClamps(op, id, clamps);
    if (!o)
      return std::nullopt;
    ops.push_back(*o);
  }
  switch (n->kind()) {
  case NatKind::Min:
  case NatKind::Max: {
    bool left = rise::natContainsVar(ops[0], id), right = rise::natContainsVar(ops[1], id);
    if (left == right)
      return std::nullopt;
    clamps.push_back({left ? ops[0] : ops[1], left ? ops[1] : ops[0], n->kind() == NatKind::Min});
    return left ? ops[0] : ops[1];
  }
  case NatKind::Sum:
  case NatKind::Prod: {
    rise::Nat r = ops[0];
    for (std::size_t i = 1; i < ops.size(); ++i)
      r = n->kind() == NatKind::Sum ? rise::natAdd(r, ops[i]) : rise::natMul(r, ops[i]);
    return r;
  }
  case NatKind::Div:
    return rise::natDiv(ops[0], ops[1]);
  case NatKind::Mod:
    return rise::natMod(ops[0], ops[1]);
  case NatKind::Pow:
    return rise::natPow(ops[0], ops[1]);
  default:
    return n;
  }
}

/// Whether `f(lane)` (lanes `id`) is `f(0) + lane * step` for a constant
/// step, for every lane of a vector of `width`.
std::optional<std::int64_t> affineStep(const rise::Nat& f, std::uint64_t id, std::int64_t width) {
  auto at = [&](std::int64_t k) { return rise::natSubstitute(f, {{id, rise::natConst(k)}}); };
  rise::Nat step = at(1) - at(0);
  if (!step->isConst())
    return std::nullopt;
  for (std::int64_t k = 2; k < width; ++k)
    if (!rise::natEqual(at(k), at(0) + step->value() * k))
      return std::nullopt;
  return step->value();
}

bool isLanes(const rise::Nat& n, const rise::Nat& lanes) {
  return n->kind() == rise::NatKind::Var && n->var().id == lanes->var().id;
}

} // namespace

std::optional<VectorLowering::Place> VectorLowering::place(const VectorMemory& m, dpia::Path& path,
                                                           const rise::Type& t,
                                                           const rise::Nat& lanes,
                                                           bool read) const {
  using dpia::PathElem;
  rise::Type mt = m.type;
  if (m.variable) {
    // a vector variable, or a vector component of a struct variable (the
    // result of a foreign function returning a pair of vectors)
    CExpr v = ident(m.name);
    while (mt->kind() == rise::TypeKind::Pair && !path.empty() &&
           path.next() != PathElem::Kind::Index) {
      bool fst = path.popFst();
      v = member(v, fst ? "fst" : "snd");
      mt = fst ? mt->first() : mt->second();
    }
    if (mt->kind() != rise::TypeKind::Vec || path.empty() || path.next() != PathElem::Kind::Index ||
        !isLanes(path.popIndex(), lanes) || !path.empty())
      return std::nullopt;
    return Place{v, nullptr, nullptr, nullptr};
  }
  rise::Nat flat = rise::natConst(0);
  for (; mt->kind() == rise::TypeKind::Array || mt->kind() == rise::TypeKind::Vec;
       mt = mt->elem()) {
    if (path.empty() || path.next() != PathElem::Kind::Index)
      return std::nullopt;
    flat = flat * mt->size() + path.popIndex();
  }
  if (m.offset)
    flat = m.offset + flat;
  if (mt->kind() == rise::TypeKind::Pair) {
    // a vector field of an element of an array of structs: `xs[i].fst`
    CExpr v = index(ident(m.name), emitter_.index(flat));
    while (mt->kind() == rise::TypeKind::Pair && !path.empty() &&
           path.next() != PathElem::Kind::Index) {
      bool fst = path.popFst();
      v = member(v, fst ? "fst" : "snd");
      mt = fst ? mt->first() : mt->second();
    }
    if (mt->kind() != rise::TypeKind::Vec || !types_.native(mt) || path.empty() ||
        path.next() != PathElem::Kind::Index || !isLanes(path.popIndex(), lanes) || !path.empty())
      return std::nullopt;
    return Place{v, nullptr, nullptr, nullptr};
  }
  if (!path.empty() || mt->kind() != rise::TypeKind::Scalar || mt->scalar() != t->elem()->scalar())
    return std::nullopt;
  std::uint64_t id = lanes->var().id;
  const std::int64_t width = widthOf(t);
  std::optional<std::int64_t> step = affineStep(flat, id, width);
  if (step == 1 || (step == 0 && read && !types_.opencl())) {
    rise::Nat base = rise::natSubstitute(flat, {{id, rise::natConst(0)}});
    return Place{nullptr, ident(m.name), emitter_.index(base), nullptr, step == 0};
  }
  // A read through padClamp (C and OpenMP, whose loops c/Unswitch.h versions
  // on the condition): the lanes are contiguous where no clamp bites,
  // that is where each clamped argument, affine in the lane, stays within
  // its bound at both ends (the edge of the array gathers them instead).
  std::vector<Clamp> clamps;
  std::optional<rise::Nat> unclamped =
      read && !types_.opencl() ? withoutClamps(flat, id, clamps) : std::nullopt;
  if (!unclamped || clamps.empty() || affineStep(*unclamped, id, width) != 1)
    return std::nullopt;
  CExpr condition;
  for (const Clamp& c : clamps) {
    std::optional<std::int64_t> step = affineStep(c.arg, id, width);
    if (!step)
      return std::nullopt;
    // the lane whose argument is nearest the bound: the largest for a min
    bool last = c.min == (*step >= 0);
    rise::Nat arg = rise::natSubstitute(c.arg, {{id, rise::natConst(last ? width - 1 : 0)}});
    // the index of a loop of one iteration (the vectors of a row that is
    // one vector wide) is 0, so that the condition does not change in the
    // loops around the load and c/Unswitch.h can take it out of them
    arg = rise::natMapVars(arg, [](const rise::NatVarInfo& v) -> rise::Nat {
      bool fromZero = !v.lower || v.lower->isConst(0);
      return fromZero && v.upper && v.upper->isConst(1) ? rise::natConst(0) : nullptr;
    });
    CExpr holds = c.min ? binary(COp::Le, emitter_.index(arg), emitter_.index(c.bound))
                        : binary(COp::Le, emitter_.index(c.bound), emitter_.index(arg));
    condition = condition ? binary(COp::And, condition, holds) : holds;
  }
  rise::Nat base = rise::natSubstitute(*unclamped, {{id, rise::natConst(0)}});
  return Place{nullptr, ident(m.name), emitter_.index(base), condition};
}

CExpr VectorLowering::value(const dpia::Phrase& p, const dpia::Path& path, const rise::Type& t,
                            std::vector<CStmt>* pre) {
  using dpia::PhraseKind;
  if (p->kind() == PhraseKind::Apply && p->fn()->kind() == PhraseKind::Lambda)
    return value(dpia::betaApply(p->fn(), p->arg()), path, t, pre);
  if (p->kind() == PhraseKind::Prim && !p->prim().view) {
    std::optional<rise::Prim> rp = p->prim().rise;
    std::vector<CExpr> args;
    auto vectorArgs = [&](std::size_t from) {
      for (std::size_t i = from; i < p->args().size(); ++i)
        args.push_back(value(p->args()[i], path, t, pre));
    };
    if (p->isPrim(dpia::primitive::foreign())) { // one call returns the whole vector
      dpia::Path whole = path;
      return emitter_.read(p, whole);
    }
    if (rp == rise::Prim::VectorFromScalar) {
      dpia::Path scalar = path;
      return types_.broadcast(t, emitter_.read(p->args()[0], scalar));
    }
    if (auto op = rp ? types_.elementWise(*rp, t) : std::nullopt) {
      vectorArgs(0);
      return args.size() == 1 ? unary(*op, args[0]) : binary(*op, args[0], args[1]);
    }
    if (auto fn = rp ? types_.builtin(*rp, t) : std::nullopt) {
      vectorArgs(0);
      return call(*fn, args);
    }
    if ((rp == rise::Prim::Max || rp == rise::Prim::Min) && pre && !types_.opencl())
      return minMax(*rp, p, path, t, *pre);
    if (rp == rise::Prim::Select) { // a scalar condition chooses between two vectors
      dpia::Path scalar = path;
      CExpr cond = emitter_.read(p->args()[0], scalar);
      vectorArgs(1);
      return ternary(cond, types_.exactly(t, args[0]), types_.exactly(t, args[1]));
    }
    return fromLanes(p, path, t);
  }
  dpia::Path at = path;
  rise::Nat lanes = allLanes(t);
  pushLane(at, lanes);
  if (auto v = whole(p, at, t, lanes))
    return vector(*v, t);
  return fromLanes(p, path, t);
}

namespace {

/// Whether a Natural of `p` (a condition: integer arithmetic on sizes and
/// indices) mentions the variable `id`.
bool lanesIn(const dpia::Phrase& p, std::uint64_t id) {
  if (p->kind() == dpia::PhraseKind::Natural)
    return rise::natContainsVar(p->nat(), id);
  if (p->kind() != dpia::PhraseKind::Prim)
    return p->kind() != dpia::PhraseKind::Literal; // unknown: assume it does
  for (const dpia::Phrase& a : p->args())
    if (lanesIn(a, id))
      return true;
  return false;
}

} // namespace

std::optional<VectorLowering::Whole>
VectorLowering::whole(dpia::Phrase p, dpia::Path at, const rise::Type& t, const rise::Nat& lanes) {
  std::uint64_t id = lanes->var().id;
  while (p->kind() == dpia::PhraseKind::Prim && p->prim().view)
    p = p->prim().view(p, at);
  // C and OpenMP: a constant in every lane (padCst's padding)
  if (!types_.opencl() && p->kind() == dpia::PhraseKind::Literal)
    return Whole{nullptr, emitter_.read(p, at)};
  // C and OpenMP: a padding's guard that is the same in every lane (padCst
  // across the lanes' loop, `c ? xs[..] : 0.0f` in each lane) chooses
  // between two whole vectors; a loop in which c does not change is
  // versioned on it (c/Unswitch.h)
  if (!types_.opencl() && p->kind() == dpia::PhraseKind::Prim &&
      p->prim().rise == rise::Prim::Select && !lanesIn(p->args()[0], id)) {
    auto a = whole(p->args()[1], at, t, lanes);
    auto b = a ? whole(p->args()[2], at, t, lanes) : std::nullopt;
    if (!b)
      return std::nullopt;
    dpia::Path scalar = at;
    scalar.elems.clear();
    CExpr c = emitter_.read(p->args()[0], scalar);
    // one element in every lane: the choice is made on it, so that the
    // versioned loop's copies do not share a vector that gcc would build
    // once before them (in memory, as 128-byte vectors are without AVX)
    if (a->lane && b->lane)
      return Whole{nullptr, ternary(c, a->lane, b->lane)};
    return Whole{ternary(c, types_.exactly(t, vector(*a, t)), types_.exactly(t, vector(*b, t))),
                 nullptr};
  }
  dpia::Path rest = at;
  auto m = emitter_.memory(p, rest);
  auto pl = m ? place(*m, rest, t, lanes, true) : std::nullopt;
  if (!pl)
    return std::nullopt;
  if (pl->variable)
    return Whole{pl->variable, nullptr};
  if (pl->same) // C and OpenMP: every lane reads one element (an operand
                // that a map repeats across the lanes), read once
    return Whole{nullptr, index(pl->array, pl->base)};
  CExpr load = types_.load(t, pl->array, pl->base);
  if (!pl->unclamped)
    return Whole{load, nullptr};
  // one load where the clamps do not bite, else the lanes one by one;
  // a loop in which the condition does not change is versioned on it
  // (c/Unswitch.h), so the compiler sees the plain load
  std::vector<CExpr> each;
  for (std::int64_t k = 0; k < widthOf(t); ++k) {
    dpia::Path lane = at;
    for (dpia::PathElem& e : lane.elems)
      if (e.kind == dpia::PathElem::Kind::Index)
        e.index = rise::natSubstitute(e.index, {{id, rise::natConst(k)}});
    each.push_back(emitter_.read(p, lane));
  }
  return Whole{ternary(pl->unclamped, types_.exactly(t, load), types_.fromLanes(t, each)), nullptr};
}

CExpr VectorLowering::vector(const Whole& w, const rise::Type& t) {
  return w.lane ? types_.broadcast(t, w.lane) : w.value;
}

CExpr VectorLowering::fromLanes(const dpia::Phrase& p, const dpia::Path& path,
                                const rise::Type& t) {
  std::vector<CExpr> lanes;
  for (std::int64_t k = 0; k < widthOf(t); ++k) {
    dpia::Path lane = path;
    pushLane(lane, rise::natConst(k));
    lanes.push_back(emitter_.read(p, lane));
  }
  return types_.fromLanes(t, lanes);
}

CExpr VectorLowering::minMax(rise::Prim prim, const dpia::Phrase& p, const dpia::Path& path,
                             const rise::Type& t, std::vector<CStmt>& pre) {
  bool max = prim == rise::Prim::Max;
  std::string what = max ? "max" : "min";
  CType vt = types_.type(t);
  // each operand once, in a variable of the value type
  auto operand = [&](const dpia::Phrase& x, const std::string& suffix) {
    CExpr v = value(x, path, t, &pre);
    if (v->kind() == ExprNode::Kind::Ident)
      return v;
    std::string name = emitter_.fresh(what + "_" + suffix);
    pre.push_back(declStmt(vt, name, v));
    return ident(name);
  };
  CExpr a = operand(p->args()[0], "a"), b = operand(p->args()[1], "b");
  rise::Type mt = types_.maskType(t);
  CType mct = types_.type(mt);
  std::string mask = emitter_.fresh(max ? "greater" : "less");
  pre.push_back(declStmt(mct, mask, binary(max ? COp::Gt : COp::Lt, a, b)));
  // integer lanes of the mask's own type need no reinterpretation
  bool same = rise::typeEqual(mt, t);
  auto bits = [&](const CExpr& v) { return same ? v : cast(mct, v); };
  CExpr picked = binary(COp::BitOr, binary(COp::BitAnd, bits(a), ident(mask)),
                        binary(COp::BitAnd, bits(b), unary(COp::BitNot, ident(mask))));
  return same ? picked : cast(vt, picked);
}

void VectorLowering::assign(const dpia::Phrase& lhs, const dpia::Phrase& rhs, const rise::Type& t,
                            const dpia::Path& path, std::vector<CStmt>& out) {
  CExpr v = value(rhs, path, t, &out);
  dpia::Path at = path;
  rise::Nat lanes = allLanes(t);
  pushLane(at, lanes);
  if (auto m = emitter_.memory(lhs, at))
    if (auto pl = place(*m, at, t, lanes)) {
      out.push_back(pl->variable ? c::assign(pl->variable, v)
                                 : types_.store(t, pl->array, pl->base, v));
      return;
    }
  std::string tmp = emitter_.fresh("lanes");
  out.push_back(declStmt(types_.type(t), tmp, v));
  for (std::int64_t k = 0; k < widthOf(t); ++k) {
    dpia::Path lane = path;
    pushLane(lane, rise::natConst(k));
    out.push_back(c::assign(emitter_.write(lhs, lane), types_.lane(ident(tmp), k)));
  }
}

} // namespace risec::codegen::c
