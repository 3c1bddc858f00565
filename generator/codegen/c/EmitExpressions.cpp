// Phrases read and acceptors written (codegen/c/Emitter.h): a phrase is read
// (an acceptor written) by walking its chain of views with an access path
// (dpia/View.h) to a memory, whose element the rest of the path selects
// (docs/dpia.md, "Views and the generated C").
#include "codegen/c/Emitter.h"

#include "codegen/c/CPrinter.h"
#include "dpia/Primitive.h"
#include "support/Diagnostic.h"

#include <optional>

namespace risec::codegen::c {

namespace {

rise::Type scalarOf(const rise::Type& t) {
  return t->kind() == rise::TypeKind::Vec ? t->elem() : t;
}

bool narrow(const rise::Type& t) {
  return t->kind() == rise::TypeKind::Scalar && !rise::isFloat(t->scalar()) &&
         t->scalar() != rise::ScalarKind::Bool && rise::scalarBits(t->scalar()) < 32;
}

/// The value of a condition on sizes and indices that the Nat simplifier
/// decides (`2 < 2`, `2 <= 0`: padCst's guard of an unrolled read, or a
/// conjunction holding one); nullopt if it depends on the run.
std::optional<bool> decided(const Phrase& c) {
  if (c->kind() != PhraseKind::Prim || c->args().size() != 2)
    return std::nullopt;
  const std::string& n = c->primName();
  const Phrase &a = c->args()[0], &b = c->args()[1];
  if (n == "and") {
    std::optional<bool> l = decided(a), r = decided(b);
    if ((l && !*l) || (r && !*r))
      return false;
    if (l && r)
      return true;
    return std::nullopt;
  }
  if ((n != "lt" && n != "le") || a->kind() != PhraseKind::Natural ||
      b->kind() != PhraseKind::Natural)
    return std::nullopt;
  const Nat &x = a->nat(), &y = b->nat();
  if (n == "lt" ? rise::proveLess(x, y) : rise::proveLessEqual(x, y))
    return true;
  if (n == "lt" ? rise::proveLessEqual(y, x) : rise::proveLess(y, x))
    return false;
  return std::nullopt;
}

} // namespace

Path Emitter::newPath() {
  Path p;
  p.indexOf = [this](const Phrase& i) { return indexOf(i); };
  return p;
}

Nat Emitter::indexOf(const Phrase& i) {
  if (i->kind() == PhraseKind::Natural)
    return i->nat();
  if (i->kind() == PhraseKind::Literal)
    return rise::natConst(i->value().asInt());
  if (i->kind() == PhraseKind::Prim &&
      (i->isPrim(dpia::primitive::natAsIndex()) || i->isPrim(dpia::primitive::indexAsNat())))
    return indexOf(i->args()[0]);
  // a run-time index: an opaque variable spelled as its C expression
  Path empty = newPath();
  std::string text = printExpr(exp(i, empty));
  rise::Nat bound;
  const rise::Type& t = dpia::dataType(i);
  if (t->kind() == rise::TypeKind::Index)
    bound = t->size();
  Nat v = rise::natVar("(" + text + ")", rise::natConst(0), bound);
  return v;
}

Memory& Emitter::memoryOf(const Phrase& p) {
  const Phrase& id = p->kind() == PhraseKind::Ident ? p : p->of();
  auto it = memory_.find(id->id());
  if (it == memory_.end())
    throw InternalError("C back end: `" + id->name() + "` has no memory");
  return it->second;
}

CExpr Emitter::access(const Memory& m, Path& path, bool write) {
  if (!m.parts.empty()) {
    const Memory* part = selectPart(m, path);
    if (!part)
      throw InternalError("C back end: `" + m.name + "` read at a path before its components");
    return access(*part, path, write);
  }
  CExpr e = ident(m.name);
  rise::Type t = m.type;
  if (!m.variable) {
    Nat flat = rise::natConst(0);
    std::vector<Nat> indices;
    // arrays and vector lanes, row-major
    for (std::size_t k = 0; t->kind() == rise::TypeKind::Array || t->kind() == rise::TypeKind::Vec;
         t = t->elem(), ++k) {
      indices.push_back(path.popIndex());
      Nat i = indices.back();
      if (k < m.divisors.size() && m.divisors[k] > 1) // its own elements only
        i = i / m.divisors[k];
      flat = flat * t->size() + i;
    }
    if (m.privateId)
      privateMemory_.access(m.privateId, indices, spelledIndices(indices), !write, write,
                            gridStack_);
    if (m.offset)
      flat = m.offset + flat;
    CExpr subscript = nats_.bare(flat);
    if (rise::natContainsMinOrMax(flat))
      clampedSubscripts_[subscript.get()] = {subscript, flat};
    e = index(e, subscript);
  } else if (m.privateId) {
    privateMemory_.access(m.privateId, nullptr, "", !write, write, gridStack_);
  }
  if (m.variable && t->kind() == rise::TypeKind::Vec && !path.empty() &&
      path.next() == PathElem::Kind::Index) { // a lane of a vector variable
    e = laneOf(e, path.popIndex(), "the vector `" + m.name + "`");
    t = t->elem();
  }
  while (!path.empty()) {
    if (t->kind() == rise::TypeKind::Vec &&
        path.next() == PathElem::Kind::Index) { // a lane of a struct's vector field
      e = laneOf(e, path.popIndex(), "a vector in `" + m.name + "`");
      t = t->elem();
      continue;
    }
    if (t->kind() != rise::TypeKind::Pair)
      throw CompileError("E0699", {},
                         "`" + m.name + "` of type `" + rise::typeToString(m.type) +
                             "` is accessed in a way the C back end does not support yet");
    bool fst = path.popFst();
    e = member(e, fst ? "fst" : "snd");
    t = fst ? t->first() : t->second();
  }
  return e;
}

CExpr Emitter::laneOf(const CExpr& v, const Nat& lane, const std::string& what) {
  if (lane->isConst())
    return vectors_.lane(v, lane->value());
  if (!opencl())
    return index(v, nats_.bare(lane));
  throw CompileError("E0699", {},
                     "a lane of " + what +
                         " is selected by a run-time index, which the OpenCL back end does not "
                         "support yet");
}

std::string Emitter::spelledIndices(const std::vector<Nat>& indices) {
  std::string s;
  for (const Nat& i : indices)
    s += (s.empty() ? "" : "][") + printExpr(nats_.bare(i));
  return s;
}

std::string Emitter::mathFn(rise::Prim p, const rise::Type& t) {
  const rise::PrimTraits& c = rise::primInfo(p).traits;
  if (opencl()) // OpenCL C's math functions are overloaded, no <math.h>
    return std::string(c.openclBuiltin);
  math_ = true;
  return std::string(t->scalar() == rise::ScalarKind::F32 ? c.cMathF32 : c.cMathF64);
}

CExpr Emitter::exp(const Phrase& p, Path& path) {
  switch (p->kind()) {
  case PhraseKind::Ident:
  case PhraseKind::Proj1:
    return access(memoryOf(p), path, false);
  case PhraseKind::Literal:
    return scalarLiteral(p->value());
  case PhraseKind::Natural:
    return nats_.expr(p->nat());
  case PhraseKind::Apply:
    if (p->fn()->kind() == PhraseKind::Lambda)
      return exp(dpia::betaApply(p->fn(), p->arg()), path);
    break;
  case PhraseKind::Prim:
    return prim(p, path);
  default:
    break;
  }
  throw InternalError("C back end: cannot read a phrase of type " +
                      dpia::phraseTypeToString(p->type()));
}

CExpr Emitter::prim(const Phrase& p, Path& path) {
  if (p->isPrim(dpia::primitive::arrayLiteral()))
    return arrayLiteral(p, path);
  const std::string& n = p->primName();
  if (p->prim().view) {
    Phrase next = p->prim().view(p, path);
    return exp(next, path);
  }
  // operands are read at the same lane as the result (vectors are computed
  // lane by lane; for scalars the path is empty)
  auto arg = [&](std::size_t i) {
    Path same = path;
    return exp(p->args()[i], same);
  };
  const rise::Type& t = scalarOf(dpia::dataType(p));
  using rise::Prim;
  std::optional<Prim> rp = p->prim().rise;
  if (rp == Prim::VectorFromScalar) {
    path.popIndex(); // every lane is the scalar
    return arg(0);
  }
  // scalar operators and math functions as their row spells them
  // (rise/ast/Primitive.h): a math function for floats if it has one
  // (`fmodf` for mod), else the C operator
  const rise::PrimTraits* c = rp ? &rise::primInfo(*rp).traits : nullptr;
  if (c && !c->cMathF32.empty() && t->kind() == rise::TypeKind::Scalar &&
      rise::isFloat(t->scalar())) {
    std::vector<CExpr> args;
    for (std::size_t i = 0; i < p->args().size(); ++i)
      args.push_back(arg(i));
    return call(mathFn(*rp, t), args);
  }
  if (c && !c->cOperator.empty()) {
    CExpr e;
    if (p->args().size() == 1) {
      e = unary(primOperator(*rp, true), arg(0));
    } else {
      bool comparison =
          t->kind() == rise::TypeKind::Scalar && t->scalar() == rise::ScalarKind::Bool;
      auto operand = [&](std::size_t i) { // `i + j < n + 1` needs no parentheses
        const Phrase& a = p->args()[i];
        if (comparison && a->kind() == PhraseKind::Natural)
          return nats_.bare(a->nat());
        return arg(i);
      };
      e = binary(primOperator(*rp, false), operand(0), operand(1));
    }
    return narrow(t) ? cast(types_.element(t), e) : e;
  }
  if (rp == Prim::Min || rp == Prim::Max) {
    CExpr a = arg(0), b = arg(1);
    return ternary(binary(rp == Prim::Min ? COp::Lt : COp::Gt, a, b), a, b);
  }
  if (rp == Prim::Select) {
    // a decided condition reads its branch only: the other one may index out
    // of bounds (fuzz finding R6: `2 <= 0 ? tmp[-2] : 0.0f`, rejected by Clang)
    if (std::optional<bool> known = decided(p->args()[0]))
      return exp(p->args()[*known ? 1 : 2], path);
    // the condition is one bool for the whole value (a pair or a vector
    // selects all its components by it)
    Path cond = newPath(), a = path, b = path;
    CExpr e = ternary(exp(p->args()[0], cond), exp(p->args()[1], a), exp(p->args()[2], b));
    path = a;
    return e;
  }
  if (rp == Prim::Cast)
    return cast(types_.element(t), arg(0));
  if (rp == Prim::IndexAsNat || rp == Prim::NatAsIndex)
    return arg(0);
  if (p->isPrim(dpia::primitive::foreign()))
    return foreignCall(p, path);
  throw CompileError("E0699", p->loc(),
                     "`" + n +
                         "` inside a function that a view applies on access (`generate`, a "
                         "`map` view, `mapFst`, `mapSnd`) is not supported by the C back end "
                         "yet; compute it outside the view and store it with `toMem`");
}

CExpr Emitter::acc(const Phrase& a, Path& path) {
  switch (a->kind()) {
  case PhraseKind::Ident:
  case PhraseKind::Proj2:
    return access(memoryOf(a), path, true);
  case PhraseKind::Prim:
    if (a->prim().view) {
      Phrase next = a->prim().view(a, path);
      return acc(next, path);
    }
    break;
  default:
    break;
  }
  throw InternalError("C back end: cannot write through " + dpia::phraseTypeToString(a->type()));
}

/// An element of an array literal (its args are its scalars, row-major): the
/// literal itself at a constant index, else the constant array as a compound
/// literal, `(const float[3]){1.0f, 2.0f, 3.0f}[i]`.
CExpr Emitter::arrayLiteral(const Phrase& p, Path& path) {
  Nat flat = rise::natConst(0);
  rise::Type t = dpia::dataType(p);
  for (; t->kind() == rise::TypeKind::Array; t = t->elem())
    flat = flat * t->size() + path.popIndex();
  const std::vector<Phrase>& scalars = p->args();
  if (flat->isConst() && flat->value() >= 0 &&
      flat->value() < static_cast<std::int64_t>(scalars.size()))
    return scalarLiteral(scalars[static_cast<std::size_t>(flat->value())]->value());
  std::vector<CExpr> elems;
  for (const Phrase& x : scalars)
    elems.push_back(scalarLiteral(x->value()));
  CType array = c::arrayType(c::constOf(valueType(t)), static_cast<std::int64_t>(scalars.size()));
  return c::index(c::compoundLiteral(array, std::move(elems)), nats_.expr(flat));
}

CType Emitter::valueType(const rise::Type& t) {
  return t->kind() == rise::TypeKind::Vec && vectors_.native(t) ? vectors_.type(t)
                                                                : types_.element(t);
}

VectorLowering::Emitter Emitter::vectorHooks() {
  return {[this](const Phrase& p, Path& path) { return exp(p, path); },
          [this](const Phrase& a, Path& path) { return acc(a, path); },
          [this](const Phrase& p, Path& path) { return vectorMemory(p, path); },
          [this](const Nat& n) { return nats_.bare(n); },
          [this](const std::string& hint) { return fresh(hint); }};
}

std::optional<VectorMemory> Emitter::vectorMemory(Phrase p, Path& path) {
  while (p->kind() == PhraseKind::Prim && p->prim().view)
    p = p->prim().view(p, path);
  if (p->kind() != PhraseKind::Ident && p->kind() != PhraseKind::Proj1 &&
      p->kind() != PhraseKind::Proj2)
    return std::nullopt;
  const Memory* m = &memoryOf(p);
  while (!m->parts.empty()) {
    m = selectPart(*m, path);
    if (!m)
      return std::nullopt;
  }
  if (m->privateId) {
    // a vector load or store: the indices of the element whose lanes it
    // reads or writes (the innermost one selects the lanes)
    std::vector<Nat> indices;
    std::size_t at = path.elems.size();
    for (rise::Type t = m->type;
         (t->kind() == rise::TypeKind::Array || t->kind() == rise::TypeKind::Vec) && at > 0 &&
         path.elems[at - 1].kind == PathElem::Kind::Index;
         t = t->elem(), --at) {
      Nat& i = path.elems[at - 1].index;
      indices.push_back(i);
      if (indices.size() <= m->divisors.size() && m->divisors[indices.size() - 1] > 1)
        i = i / m->divisors[indices.size() - 1]; // its own elements only
    }
    if (m->variable)
      indices.clear();
    privateMemory_.access(m->privateId, indices, "", false, false, gridStack_);
  }
  return VectorMemory{m->name, m->type, m->variable, m->offset};
}

} // namespace risec::codegen::c
