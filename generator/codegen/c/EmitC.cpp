#include "codegen/c/EmitC.h"

#include "codegen/c/DeadStores.h"

#include "codegen/c/CPrinter.h"
#include "codegen/c/EmitNames.h"
#include "codegen/c/EmitNat.h"
#include "codegen/c/EmitTypes.h"
#include "codegen/c/EmitVectors.h"
#include "codegen/host/HostWrappers.h"
#include "codegen/opencl/Barriers.h"
#include "codegen/opencl/Kernel.h"
#include "codegen/opencl/PrivateMemory.h"
#include "codegen/opencl/Temporaries.h"
#include "codegen/openmp/Pragmas.h"
#include "codegen/openmp/SimdLoops.h"
#include "dpia/Imperative.h"
#include "dpia/Parallel.h"
#include "dpia/Passes.h"
#include "dpia/Primitive.h"
#include "dpia/View.h"
#include "rise/ast/ForeignTypes.h"
#include "support/Diagnostic.h"
#include "tooling/Formatter.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

namespace risec::codegen::c {

using dpia::Path;
using dpia::PathElem;
using dpia::Phrase;
using dpia::PhraseKind;
using rise::Nat;

namespace {

/// `(void)x;` for every parameter the body never mentions (e.g. a size that
/// only appears in the types), so that -Wunused-parameter stays quiet.
void voidUnusedParameters(const std::vector<Param>& params, std::vector<CStmt>& body) {
  std::set<std::string> used = identifiersUsed(body);
  std::vector<CStmt> voids;
  for (const Param& prm : params)
    if (!used.count(prm.name))
      voids.push_back(exprStmt(cast(namedType("void"), ident(prm.name))));
  body.insert(body.begin(), voids.begin(), voids.end());
}

/// Where the value of a DPIA identifier lives.
struct Memory {
  std::string name;
  rise::Type type;
  bool variable = false;       ///< a plain C variable (non-array); else a pointer/array
  std::vector<Memory> parts;   ///< a pair holding arrays: one memory per component
  Nat offset = nullptr;        ///< OpenCL: the start of this copy's slice (null: 0)
  std::uint64_t privateId = 0; ///< OpenCL: the private temporary (its `new`), or 0
  /// OpenCL: a private array distributed over the work-items (`type` is then
  /// its part in one work-item): index i of array dimension k is at
  /// i / divisors[k] (codegen/opencl/PrivateMemory.h)
  std::vector<std::int64_t> divisors = {};
};

/// `t` with array dimension k (outermost first) holding ceil(n / divisors[k])
/// elements.
rise::Type distributedType(const rise::Type& t, const std::vector<std::int64_t>& divisors,
                           std::size_t k = 0) {
  if (t->kind() != rise::TypeKind::Array || k >= divisors.size())
    return t;
  std::int64_t d = divisors[k];
  return rise::arrayType(rise::natConst((t->size()->value() + d - 1) / d),
                         distributedType(t->elem(), divisors, k + 1));
}

bool holdsArray(const rise::Type& t) {
  switch (t->kind()) {
  case rise::TypeKind::Array:
  case rise::TypeKind::Vec:
    return true;
  case rise::TypeKind::Pair:
    return holdsArray(t->first()) || holdsArray(t->second());
  default:
    return false;
  }
}

/// A pair holding arrays has no flat layout: it is stored as one memory per
/// component ("struct of arrays"), e.g. the parameters `output_fst, output_snd`.
bool splitPair(const rise::Type& t) {
  return t->kind() == rise::TypeKind::Pair && holdsArray(t);
}

/// The leaves of a memory (itself, or its components' leaves, in order).
void leaves(const Memory& m, std::vector<const Memory*>& out) {
  if (m.parts.empty()) {
    out.push_back(&m);
    return;
  }
  for (const Memory& p : m.parts)
    leaves(p, out);
}

/// A temporary of type `t` (its `new` at `loc`) needs a memory layout.
void checkTemporaryLayout(const rise::Type& t, const SourceLocation& loc) {
  std::string why = layoutProblem(t);
  if (!why.empty())
    throw CompileError("E0699", loc,
                       "a temporary of type `" + rise::typeToString(t) +
                           "` is stored here: " + why +
                           "; store one array per component of the pairs instead (`unzip` "
                           "before storing)");
}

bool isStack(const rise::Type& t) {
  Nat count = TypeMapper::count(t);
  return count->isConst() &&
         count->value() * TypeMapper::bytes(TypeMapper::innermost(t)) <= kStackLimitBytes;
}

class Emitter {
public:
  /// `layouts`: OpenCL, the layout of each private array by the order in
  /// which the kernel declares them (from a first emission: distributed()).
  explicit Emitter(const COptions& opts, std::vector<opencl::PrivateLayout> layouts = {})
      : opts_(opts), vectors_(opts.target == "opencl"), vectorLowering_(vectors_, vectorHooks()),
        layouts_(std::move(layouts)) {
    nats_.name = [this](const rise::NatVarInfo& v) {
      auto it = natNames_.find(v.id);
      return it != natNames_.end() ? it->second : v.name;
    };
    nats_.helpers = &helpers_;
    names_.reserve("output");
    // a vector component of a pair in memory is a field of the native type
    types_.vector = [this](const rise::Type& v) {
      if (!rise::foreignTypeSupported(v) || !vectors_.native(v))
        throw CompileError("E0699", {},
                           "a pair with a component of type `" + rise::typeToString(v) +
                               "` has no memory layout in the back end; only vectors of 2, 4, 8 "
                               "or 16 numeric lanes can be fields of a pair in an array (unzip "
                               "the array into one array per component)");
      return vectors_.type(v);
    };
  }

  CFiles run(const dpia::Program& p);

  /// OpenCL, after run(): the private arrays to distribute over the
  /// work-items, by declaration order (empty when none is), for another
  /// emission; run() then returned nothing.
  const std::vector<opencl::PrivateLayout>& distributed() const { return distributed_; }

private:
  /// OpenCL: the kernel (SYMBOL.cl, in `source`) and the header with the
  /// host-side check function `int SYMBOL_check(sizes...)` running `checks`.
  CFiles openclFiles(const dpia::Program& p, const Phrase& command,
                     const std::vector<Param>& params, std::vector<CStmt> checks);

private:
  const COptions& opts_;
  TypeMapper types_;
  VectorTypes vectors_;
  VectorLowering vectorLowering_;
  NameTable names_;
  NatPrinter nats_;
  std::set<std::string> helpers_;
  std::map<std::uint64_t, std::string> natNames_;
  std::map<std::uint64_t, Memory> memory_;
  bool math_ = false;
  bool openmp_ = false; ///< <omp.h> needed
  /// heap temporaries private to the iterations of a parallel loop, by the
  /// id of its index: allocated once per thread, each thread uses its slice
  std::multimap<std::uint64_t, std::pair<std::uint64_t, Nat>> privateHeap_;
  std::string threadsName_;                    ///< the variable holding omp_get_max_threads()
  std::vector<CStmt> localDecls_;              ///< OpenCL: `local T name[N];` at kernel scope
  std::vector<std::string> loops_;             ///< loop indices in scope, outermost first
  std::set<std::uint64_t> sizeIds_;            ///< the size parameters
  host::GridLoops gridLoops_;                  ///< OpenCL: for the launch configuration
  std::vector<opencl::GridLoopRef> gridStack_; ///< OpenCL: the grid loops around, outermost first
  std::set<int> usedDims_;                     ///< OpenCL: the dimensions of all grid loops
  opencl::PrivateMemoryCheck privateMemory_;   ///< OpenCL: rule 1 on every private temporary
  std::vector<opencl::PrivateLayout> layouts_; ///< OpenCL: given, by declaration order
  std::vector<std::uint64_t> privateOrder_;    ///< OpenCL: the private `new`s, as declared
  std::vector<opencl::PrivateLayout> distributed_; ///< OpenCL: found (first emission)
  std::set<std::string> loopNames_;                ///< every name used for a loop index

  // ---- expressions -----------------------------------------------------------

  Path newPath() {
    Path p;
    p.indexOf = [this](const Phrase& i) { return indexOf(i); };
    return p;
  }

  Nat indexOf(const Phrase& i) {
    if (i->kind() == PhraseKind::Natural)
      return i->nat();
    if (i->kind() == PhraseKind::Literal)
      return rise::natConst(i->value().asInt());
    if (i->kind() == PhraseKind::Prim && (i->isPrim("natAsIndex") || i->isPrim("indexAsNat")))
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

  Memory& memoryOf(const Phrase& p) {
    const Phrase& id = p->kind() == PhraseKind::Ident ? p : p->of();
    auto it = memory_.find(id->id());
    if (it == memory_.end())
      throw InternalError("C back end: `" + id->name() + "` has no memory");
    return it->second;
  }

  /// The element of memory `m` selected by `path`, read or (`write`) written.
  CExpr access(const Memory& m, Path& path, bool write) {
    if (!m.parts.empty())
      return access(m.parts[path.popFst() ? 0 : 1], path, write);
    CExpr e = ident(m.name);
    rise::Type t = m.type;
    if (!m.variable) {
      Nat flat = rise::natConst(0);
      std::vector<Nat> indices;
      // arrays and vector lanes, row-major
      for (std::size_t k = 0;
           t->kind() == rise::TypeKind::Array || t->kind() == rise::TypeKind::Vec;
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
      e = index(e, nats_.bare(flat));
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

  /// Lane `lane` of the vector `v` (`what` in messages): `v[2]` or `v.s2`;
  /// C and OpenMP also select one at run time (`v[j]`, a GCC vector
  /// subscript), OpenCL C only by a constant.
  CExpr laneOf(const CExpr& v, const Nat& lane, const std::string& what) {
    if (lane->isConst())
      return vectors_.lane(v, lane->value());
    if (!opencl())
      return index(v, nats_.bare(lane));
    throw CompileError("E0699", {},
                       "a lane of " + what +
                           " is selected by a run-time index, which the OpenCL back end does not "
                           "support yet");
  }

  /// `i][k` for the element `x[i][k]` (messages).
  std::string spelledIndices(const std::vector<Nat>& indices) {
    std::string s;
    for (const Nat& i : indices)
      s += (s.empty() ? "" : "][") + printExpr(nats_.bare(i));
    return s;
  }

  static rise::Type scalarOf(const rise::Type& t) {
    return t->kind() == rise::TypeKind::Vec ? t->elem() : t;
  }

  static bool narrow(const rise::Type& t) {
    return t->kind() == rise::TypeKind::Scalar && !rise::isFloat(t->scalar()) &&
           t->scalar() != rise::ScalarKind::Bool && rise::scalarBits(t->scalar()) < 32;
  }

  std::string mathFn(const std::string& name, const rise::Type& t) {
    if (opencl()) // OpenCL C's math functions are overloaded, no <math.h>
      return name;
    math_ = true;
    return t->scalar() == rise::ScalarKind::F32 ? name + "f" : name;
  }

  CExpr exp(const Phrase& p, Path& path) {
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

  CExpr prim(const Phrase& p, Path& path) {
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
    if (n == "vectorFromScalar") {
      path.popIndex(); // every lane is the scalar
      return arg(0);
    }
    static const std::map<std::string, std::string> binaryOps = {
        {"add", "+"},    {"sub", "-"},       {"mul", "*"},  {"div", "/"},
        {"lt", "<"},     {"le", "<="},       {"gt", ">"},   {"ge", ">="},
        {"equal", "=="}, {"notEqual", "!="}, {"and", "&&"}, {"or", "||"}};
    if (auto it = binaryOps.find(n); it != binaryOps.end()) {
      static const std::set<std::string> relational = {"lt", "le", "gt", "ge", "equal", "notEqual"};
      auto operand = [&](std::size_t i) { // `i + j < n + 1` needs no parentheses
        const Phrase& a = p->args()[i];
        if (relational.count(n) && a->kind() == PhraseKind::Natural)
          return nats_.bare(a->nat());
        return arg(i);
      };
      CExpr e = binary(it->second, operand(0), operand(1));
      return narrow(t) ? cast(types_.element(t), e) : e;
    }
    if (n == "mod") {
      if (t->kind() == rise::TypeKind::Scalar && rise::isFloat(t->scalar()))
        return call(mathFn("fmod", t), {arg(0), arg(1)});
      CExpr e = binary("%", arg(0), arg(1));
      return narrow(t) ? cast(types_.element(t), e) : e;
    }
    if (n == "neg") {
      CExpr e = unary("-", arg(0));
      return narrow(t) ? cast(types_.element(t), e) : e;
    }
    if (n == "not")
      return unary("!", arg(0));
    if (n == "min" || n == "max") {
      CExpr a = arg(0), b = arg(1);
      return ternary(binary(n == "min" ? "<" : ">", a, b), a, b);
    }
    if (n == "select") {
      // the condition is one bool for the whole value (a pair or a vector
      // selects all its components by it)
      Path cond = newPath(), a = path, b = path;
      CExpr e = ternary(exp(p->args()[0], cond), exp(p->args()[1], a), exp(p->args()[2], b));
      path = a;
      return e;
    }
    if (n == "cast")
      return cast(types_.element(t), arg(0));
    if (n == "indexAsNat" || n == "natAsIndex")
      return arg(0);
    if (n == "foreign")
      return foreignCall(p, path);
    static const std::set<std::string> math = {"sqrt", "exp", "log",  "fabs", "floor",
                                               "sin",  "cos", "tanh", "pow"};
    if (math.count(n)) {
      std::vector<CExpr> args;
      for (std::size_t i = 0; i < p->args().size(); ++i)
        args.push_back(arg(i));
      return call(mathFn(n, t), args);
    }
    throw CompileError("E0699", p->loc(),
                       "`" + n +
                           "` inside a function that a view applies on access (`generate`, a "
                           "`map` view, `mapFst`, `mapSnd`) is not supported by the C back end "
                           "yet; compute it outside the view and store it with `toMem`");
  }

  CExpr acc(const Phrase& a, Path& path) {
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

  // ---- vectors (EmitVectors.h) ------------------------------------------------

  /// The C type of a value of type `t`: a native vector type or the element.
  CType valueType(const rise::Type& t) {
    return t->kind() == rise::TypeKind::Vec && vectors_.native(t) ? vectors_.type(t)
                                                                  : types_.element(t);
  }

  // ---- foreign functions (rise/ast/ForeignTypes.h) ----------------------------

  /// The C type of a foreign parameter or result: a scalar, the native vector
  /// type, or a struct with the fields `fst` and `snd`.
  CType foreignType(const rise::Type& t) {
    if (t->kind() == rise::TypeKind::Vec)
      return vectors_.type(t);
    return types_.element(t); // scalars and pairs: as in memory (EmitTypes.h)
  }

  /// The whole value of `p` at `path`, of type `t`, as one C expression (a
  /// foreign function's argument): a scalar, a vector, a struct variable, or
  /// a compound literal of the components.
  CExpr wholeValue(const Phrase& p, const Path& path, const rise::Type& t) {
    if (t->kind() == rise::TypeKind::Vec)
      return vectorLowering_.value(p, path, t);
    if (t->kind() == rise::TypeKind::Pair) {
      if (!holdsArray(t) && (p->kind() == PhraseKind::Ident || p->kind() == PhraseKind::Proj1)) {
        // a struct in memory (a variable, an element of an array of structs)
        const Memory& m = memoryOf(p);
        if (m.parts.empty()) {
          Path at = path;
          return access(m, at, false);
        }
      }
      return compoundLiteral(
          foreignType(t),
          {wholeValue(p, within(path, {PathElem::Kind::Fst, nullptr}), t->first()),
           wholeValue(p, within(path, {PathElem::Kind::Snd, nullptr}), t->second())});
    }
    Path at = path;
    return exp(p, at);
  }

  /// `f(args)` with every argument passed whole, followed by the selection
  /// of `path` (`f(a, b).snd`, a lane `f(a, b)[1]`, or nothing).
  CExpr foreignCall(const Phrase& p, Path& path) {
    std::vector<CExpr> args;
    for (const Phrase& a : p->args())
      args.push_back(wholeValue(a, newPath(), dpia::dataType(a)));
    CExpr e = call(p->tag(), args);
    rise::Type t = dpia::dataType(p);
    while (!path.empty()) {
      if (t->kind() == rise::TypeKind::Pair && path.next() != PathElem::Kind::Index) {
        bool fst = path.popFst();
        e = member(e, fst ? "fst" : "snd");
        t = fst ? t->first() : t->second();
      } else if (t->kind() == rise::TypeKind::Vec && path.next() == PathElem::Kind::Index) {
        Nat lane = path.popIndex();
        if (!lane->isConst())
          throw CompileError("E0699", p->loc(),
                             "a lane of the vector that `" + p->tag() +
                                 "` returns is selected by a run-time index, which the back end "
                                 "does not support yet; store the result first (`toMem`)");
        e = vectors_.lane(e, lane->value());
        t = t->elem();
      } else {
        throw InternalError("C back end: `" + p->tag() + "` read at a path beyond its result");
      }
    }
    return e;
  }

  /// `lhs = f(args)` for a foreign function returning a pair: one call, into
  /// the struct variable itself or into a temporary whose components are
  /// then assigned.
  void assignForeignPair(const Phrase& lhs, const Phrase& rhs, const rise::Type& t,
                         std::vector<CStmt>& out) {
    Path whole = newPath();
    CExpr value = exp(rhs, whole);
    if ((lhs->kind() == PhraseKind::Ident || lhs->kind() == PhraseKind::Proj2) && !holdsArray(t)) {
      const Memory& m = memoryOf(lhs);
      if (m.variable && m.parts.empty() && rise::typeToString(m.type) == rise::typeToString(t)) {
        Path at = newPath();
        out.push_back(assign(access(m, at, true), value));
        return;
      }
    }
    std::string tmp = fresh(rhs->tag() + "_result");
    out.push_back(declStmt(foreignType(t), tmp, value));
    Phrase id = dpia::freshIdent(tmp, dpia::expType(t, dpia::Access::Rd));
    Memory& m = memory_[id->id()];
    m.name = tmp;
    m.type = t;
    m.variable = true;
    assignment(lhs, id, t, newPath(), out);
  }

  /// VectorLowering's view of this emitter (EmitVectors.h).
  VectorLowering::Emitter vectorHooks() {
    return {[this](const Phrase& p, Path& path) { return exp(p, path); },
            [this](const Phrase& a, Path& path) { return acc(a, path); },
            [this](const Phrase& p, Path& path) { return vectorMemory(p, path); },
            [this](const Nat& n) { return nats_.bare(n); },
            [this](const std::string& hint) { return fresh(hint); }};
  }

  /// Follows the views of `p` with `path` to the memory (a leaf of a split
  /// pair) it reaches, if it reaches one without computing.
  std::optional<VectorMemory> vectorMemory(Phrase p, Path& path) {
    while (p->kind() == PhraseKind::Prim && p->prim().view)
      p = p->prim().view(p, path);
    if (p->kind() != PhraseKind::Ident && p->kind() != PhraseKind::Proj1 &&
        p->kind() != PhraseKind::Proj2)
      return std::nullopt;
    const Memory* m = &memoryOf(p);
    while (!m->parts.empty() && !path.empty() && path.next() != PathElem::Kind::Index)
      m = &m->parts[path.popFst() ? 0 : 1];
    if (!m->parts.empty())
      return std::nullopt;
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

  // ---- commands --------------------------------------------------------------

  /// `at` followed by the step `inner` (which becomes the innermost step).
  static Path within(const Path& at, dpia::PathElem inner) {
    Path p = at;
    p.elems = {std::move(inner)};
    p.elems.insert(p.elems.end(), at.elems.begin(), at.elems.end());
    return p;
  }

  void assignment(const Phrase& lhs, const Phrase& rhs, const rise::Type& t, const Path& at,
                  std::vector<CStmt>& out) {
    // `at` selects a component of the assigned value; the component's parts
    // are selected after it, so their steps go innermost (the front of the
    // path: its back is the outermost step)
    if (t->kind() == rise::TypeKind::Pair) {
      assignment(lhs, rhs, t->first(), within(at, {dpia::PathElem::Kind::Fst, nullptr}), out);
      assignment(lhs, rhs, t->second(), within(at, {dpia::PathElem::Kind::Snd, nullptr}), out);
      return;
    }
    if (t->kind() == rise::TypeKind::Vec && vectors_.native(t)) {
      vectorLowering_.assign(lhs, rhs, t, at, out);
      return;
    }
    if (t->kind() == rise::TypeKind::Vec) { // lane by lane
      if (!t->size()->isConst())
        throw CompileError("E0699", {}, "vectors of a symbolic width are not supported");
      for (std::int64_t lane = 0; lane < t->size()->value(); ++lane) {
        Path l = within(at, {dpia::PathElem::Kind::Index, rise::natConst(lane)});
        assignment(lhs, rhs, t->elem(), l, out);
      }
      return;
    }
    if (t->kind() == rise::TypeKind::Array)
      throw InternalError("C back end: an assignment of a whole array");
    Path l = at, r = at;
    out.push_back(assign(acc(lhs, l), exp(rhs, r)));
  }

  /// A private `new` of a pair holding arrays (OpenCL; the C back end hoists
  /// them): declared in place as one memory per component, each checked as a
  /// private temporary of its own.
  void privatePair(const Phrase& c, std::vector<CStmt>& out) {
    const rise::Type& t = c->dataArg(0);
    const Phrase& f = c->args()[0];
    Memory m = makeMemory(c->tag(), t, [&](const std::string& n) { return fresh(n); });
    std::function<void(Memory&)> declare = [&](Memory& leaf) {
      for (Memory& part : leaf.parts)
        declare(part);
      if (!leaf.parts.empty())
        return;
      if (!isStack(leaf.type))
        throw InternalError("C back end: a heap temporary was not hoisted");
      CType ct = types_.element(leaf.type);
      if (!leaf.variable)
        ct = arrayType(ct, TypeMapper::count(leaf.type)->value());
      out.push_back(declStmt(ct, leaf.name));
      if (opencl()) {
        leaf.privateId = dpia::freshIdent(leaf.name, f->param()->type())->id();
        privateMemory_.declare(leaf.privateId, c, leaf.name, gridStack_);
      }
    };
    declare(m);
    memory_[f->param()->id()] = m;
    comm(f->body(), out);
  }

  void comm(const Phrase& c, std::vector<CStmt>& out) {
    const std::string& n = c->primName();
    if (n == "seq") {
      for (const Phrase& x : c->args())
        comm(x, out);
    } else if (n == "skip") {
    } else if (n == "assign") {
      const Phrase& rhs = c->args()[1];
      if (rhs->kind() == PhraseKind::Prim && rhs->isPrim("foreign") &&
          c->dataArg(0)->kind() == rise::TypeKind::Pair)
        assignForeignPair(c->args()[0], rhs, c->dataArg(0), out);
      else
        assignment(c->args()[0], rhs, c->dataArg(0), newPath(), out);
    } else if (n == "new") {
      const rise::Type& t = c->dataArg(0);
      const Phrase& f = c->args()[0];
      checkTemporaryLayout(t, c->loc());
      if (splitPair(t)) { // OpenCL, private: one C array or variable per component
        privatePair(c, out);
        return;
      }
      std::string name = fresh(c->tag());
      bool array = t->kind() == rise::TypeKind::Array ||
                   (t->kind() == rise::TypeKind::Vec && !vectors_.native(t));
      // OpenCL: a private array's size per work-item is checked once every
      // access is known (PrivateMemoryCheck::layouts, E0631)
      if (array && !isStack(t) && !opencl())
        throw InternalError("C back end: a heap temporary was not hoisted");
      Memory& m = memory_[f->param()->id()] = {name, t, !array, {}};
      if (opencl()) { // hoisting took the local and global ones: this one is private
        m.privateId = f->param()->id();
        privateMemory_.declare(f->param()->id(), c, name, gridStack_);
        std::size_t ordinal = privateOrder_.size();
        privateOrder_.push_back(f->param()->id());
        if (ordinal < layouts_.size() && array) {
          m.divisors = layouts_[ordinal].divisors;
          m.type = distributedType(t, m.divisors);
        }
      }
      CType ct = valueType(t);
      if (array)
        ct = arrayType(ct, TypeMapper::count(m.type)->value());
      std::vector<CStmt> body;
      comm(f->body(), body);
      // `float acc; acc = 0.0f;` reads better as `float acc = 0.0f;`
      CExpr init;
      if (!array && !body.empty() && body[0]->kind() == StmtNode::Kind::Expr &&
          body[0]->expr()->kind() == ExprNode::Kind::Binary && body[0]->expr()->text() == "=" &&
          body[0]->expr()->operands()[0]->kind() == ExprNode::Kind::Ident &&
          body[0]->expr()->operands()[0]->text() == name) {
        init = body[0]->expr()->operands()[1];
        body.erase(body.begin());
      }
      out.push_back(declStmt(ct, name, init));
      out.insert(out.end(), body.begin(), body.end());
    } else if (n == "for") {
      std::string i = loopName();
      natNames_[dpia::forIndex(c)->var().id] = i;
      loops_.push_back(i);
      std::vector<CStmt> body;
      comm(c->args()[0], body);
      loops_.pop_back();
      out.push_back(countingLoop(namedType("int"), i, intLit(0), nats_.bare(dpia::forCount(c)),
                                 intLit(1), body, c->tag()));
    } else if (dpia::isParallelLoop(c)) {
      parallelLoop(c, out);
    } else if (n == "barrier") {
      std::string flags = dpia::barrierLocal(c) ? "CLK_LOCAL_MEM_FENCE" : "";
      if (dpia::barrierGlobal(c))
        flags += std::string(flags.empty() ? "" : " | ") + "CLK_GLOBAL_MEM_FENCE";
      out.push_back(comment(c->tag()));
      out.push_back(exprStmt(call("barrier", {literal(flags)})));
    } else {
      throw InternalError("C back end: unexpected command `" + n + "`");
    }
  }

  // ---- OpenMP (dpia/Parallel.h) ------------------------------------------------

  bool opencl() const { return opts_.target == "opencl"; }

  /// OpenCL: mapGlobal/mapWorkGroup/mapLocal(d) as a grid-stride loop.
  void gridStrideLoop(const Phrase& c, std::vector<CStmt>& out) {
    opencl::GridLoop g = opencl::gridLoop(c->tag());
    recordGridLoop(c, g);
    usedDims_.insert(g.dim);
    std::string i = loopName();
    natNames_[dpia::forIndex(c)->var().id] = i;
    loops_.push_back(i);
    std::vector<CStmt> body;
    gridStack_.push_back({dpia::forIndex(c)->var().id, i, c->tag()});
    comm(c->args()[0], body);
    gridStack_.pop_back();
    loops_.pop_back();
    out.push_back(countingLoop(namedType("int"), i, call(g.id, {intLit(g.dim)}),
                               nats_.bare(dpia::forCount(c)), call(g.size, {intLit(g.dim)}), body,
                               c->tag()));
  }

  /// Remembers a grid loop whose trip count depends on the sizes only, for
  /// the default launch configuration (codegen/host/Launch.h).
  void recordGridLoop(const Phrase& c, const opencl::GridLoop& g) {
    Nat count = dpia::forCount(c);
    bool sizesOnly = true;
    rise::natForEachVar(count,
                        [&](const rise::NatVarInfo& v) { sizesOnly &= sizeIds_.count(v.id) > 0; });
    if (!sizesOnly)
      return;
    using Kind = host::GridLoopInfo::Kind;
    Kind kind = g.id == "get_global_id"  ? Kind::Global
                : g.id == "get_group_id" ? Kind::WorkGroup
                                         : Kind::Local;
    gridLoops_.add({kind, g.dim, count, static_cast<int>(gridStack_.size())});
  }

  void parallelLoop(const Phrase& c, std::vector<CStmt>& out) {
    if (opencl() && c->isPrim("parFor")) {
      gridStrideLoop(c, out);
      return;
    }
    if (opts_.target != "openmp")
      throw InternalError("C back end: a parallel loop for the target `" + opts_.target + "`");
    openmp_ = true;
    if (c->isPrim("parForCombine")) {
      combineLoop(c, out);
      return;
    }
    std::string i = loopName();
    std::uint64_t id = dpia::forIndex(c)->var().id;
    natNames_[id] = i;
    loops_.push_back(i);
    std::vector<CStmt> body = privateSlices(id);
    comm(c->args()[0], body);
    restoreSlices(id);
    loops_.pop_back();
    std::string text = c->isPrim("parForReduce")
                           ? openmp::reductionFor(c->tag(), memoryOf(c->args()[1]).name)
                           : openmp::parallelFor();
    out.push_back(pragma(text));
    out.push_back(countingLoop(namedType("int"), i, intLit(0), nats_.bare(dpia::forCount(c)),
                               intLit(1), body,
                               c->isPrim("parForReduce") ? "reducePar" : c->tag()));
  }

  /// At the top of a parallel loop's body: each heap temporary hoisted from
  /// it is this thread's slice of the per-thread allocation, declared inside
  /// the loop (so private to the iteration).
  std::vector<CStmt> privateSlices(std::uint64_t loop) {
    std::vector<CStmt> decls;
    auto [b, e] = privateHeap_.equal_range(loop);
    for (auto it = b; it != e; ++it) {
      Memory& m = memory_.at(it->second.first);
      std::string shared = m.name;
      std::string own = fresh(shared + "_own");
      CExpr offset = binary("*", cast(namedType("size_t"), call("omp_get_thread_num", {})),
                            cast(namedType("size_t"), nats_.expr(it->second.second)));
      decls.push_back(declStmt(pointerType(types_.element(m.type), true), own,
                               binary("+", ident(shared), offset)));
      sharedNames_[it->second.first] = shared;
      m.name = own;
    }
    return decls;
  }

  void restoreSlices(std::uint64_t loop) {
    auto [b, e] = privateHeap_.equal_range(loop);
    for (auto it = b; it != e; ++it)
      memory_.at(it->second.first).name = sharedNames_.at(it->second.first);
  }

  std::map<std::uint64_t, std::string> sharedNames_;

  /// reducePar with an operator OpenMP has no clause for: the range is cut
  /// into at most kMaxChunks chunks (one per thread); each chunk is reduced
  /// from its first element into a partial result, and the partial results
  /// are combined into the accumulator sequentially, in chunk order.
  void combineLoop(const Phrase& c, std::vector<CStmt>& out) {
    helpers_.insert("risec_omp_chunks");
    helpers_.insert("risec_chunk_begin");
    const Phrase& part = c->args()[3];
    const rise::Type& t = dpia::dataType(proj1(part));
    if (t->kind() == rise::TypeKind::Vec && !vectors_.native(t))
      throw InternalError("C back end: reducePar on `" + rise::typeToString(t) +
                          "` (dpia::simdVector disagrees with VectorTypes::native)");
    CType ct = valueType(t);
    std::string partial = fresh("partial"), chunks = fresh("chunks");
    std::string partName = fresh("part");
    memory_[part->id()] = {partName, t, true, {}};
    CExpr n = nats_.bare(dpia::forCount(c));
    out.push_back(declStmt(arrayType(ct, openmp::kMaxChunks), partial));
    out.push_back(declStmt(namedType("int"), chunks, call("risec_omp_chunks", {n})));
    std::uint64_t id = dpia::forIndex(c)->var().id;

    std::string ch = loopName();
    loops_.push_back(ch);
    std::string lo = fresh("lo"), hi = fresh("hi");
    std::vector<CStmt> body = privateSlices(id);
    body.push_back(
        declStmt(namedType("int"), lo, call("risec_chunk_begin", {n, ident(ch), ident(chunks)})));
    body.push_back(
        declStmt(namedType("int"), hi,
                 call("risec_chunk_begin", {n, binary("+", ident(ch), intLit(1)), ident(chunks)})));
    body.push_back(declStmt(ct, partName));
    natNames_[id] = lo;
    comm(c->args()[1], body); // part = x[lo]
    std::string i = loopName();
    natNames_[id] = i;
    loops_.push_back(i);
    std::vector<CStmt> step;
    comm(c->args()[0], step); // part = f(part, x[i])
    loops_.pop_back();
    body.push_back(countingLoop(namedType("int"), i, binary("+", ident(lo), intLit(1)), ident(hi),
                                intLit(1), step, "reducePar: this chunk"));
    body.push_back(assign(index(ident(partial), ident(ch)), ident(partName)));
    restoreSlices(id);
    out.push_back(pragma(openmp::parallelFor()));
    out.push_back(countingLoop(namedType("int"), ch, intLit(0), ident(chunks), intLit(1), body,
                               "reducePar: one partial result per chunk"));

    std::vector<CStmt> combine;
    combine.push_back(declStmt(ct, partName, index(ident(partial), ident(ch))));
    comm(c->args()[2], combine); // acc = f(acc, part)
    loops_.pop_back();
    out.push_back(countingLoop(namedType("int"), ch, intLit(0), ident(chunks), intLit(1), combine,
                               "reducePar: combined in chunk order"));
  }

  /// The memory of a value of type `t` named after `base` (split pairs get
  /// `base_fst`, `base_snd`); `fresh` picks unique names.
  Memory makeMemory(const std::string& base, const rise::Type& t,
                    const std::function<std::string(const std::string&)>& name) {
    if (splitPair(t))
      return {base,
              t,
              false,
              {makeMemory(base + "_fst", t->first(), name),
               makeMemory(base + "_snd", t->second(), name)}};
    bool buffer = t->kind() == rise::TypeKind::Array || t->kind() == rise::TypeKind::Vec;
    return {name(base), t, !buffer, {}};
  }

  /// A name for a temporary: not a loop index name either.
  std::string fresh(const std::string& hint) {
    std::string n = names_.fresh(hint);
    while (loopNames_.count(n))
      n = names_.fresh(hint);
    return n;
  }

  /// Loop indices are named i, j, k, l by nesting depth (reused by sibling
  /// loops, as a person writes them), avoiding every other name.
  std::string loopName() {
    static const char* const base[] = {"i", "j", "k", "l", "p", "q"};
    for (int round = 0;; ++round)
      for (const char* b : base) {
        std::string n = round == 0 ? b : b + std::to_string(round + 1);
        bool inScope = std::find(loops_.begin(), loops_.end(), n) != loops_.end();
        if (!inScope && !names_.taken(n)) {
          loopNames_.insert(n);
          return n;
        }
      }
  }

  // ---- the interface (KernelAbi.h) -------------------------------------------

  KernelAbi abi_;

  /// Records the parameter for the memory leaf `m` in the ABI description.
  void abiParam(AbiParam::Role role, const Memory& m, const std::string& riseName) {
    AbiParam a;
    a.role = role;
    a.name = m.name;
    a.riseName = riseName;
    a.riseType = m.type;
    a.cType = printType(types_.element(m.type));
    a.array = !m.variable;
    if (a.array)
      a.count = TypeMapper::count(m.type); // printed once the sizes have C names
    abi_.params.push_back(a);
  }

  // ---- OpenCL temporaries (codegen/opencl/Temporaries.h) ----------------------

  /// Places the hoisted local and global temporaries (local arrays at kernel
  /// scope, global ones as trailing parameters), then inserts the barriers
  /// they need (codegen/opencl/Barriers.h).
  Phrase openclTemporaries(const Phrase& command, const std::vector<dpia::HoistedAllocation>& heap,
                           std::vector<Param>& params) {
    std::map<std::uint64_t, opencl::SharedTemporary> shared;
    for (const dpia::HoistedAllocation& h : heap) {
      checkTemporaryLayout(h.type, h.command->loc());
      opencl::Placement where = opencl::placeTemporary(h);
      // a pair of arrays is one buffer per component (`tmp_fst`, `tmp_snd`),
      // each with the same slicing
      Memory m = makeMemory(h.name, h.type, [&](const std::string& n) { return fresh(n); });
      std::function<void(Memory&)> place = [&](Memory& leaf) {
        for (Memory& part : leaf.parts)
          place(part);
        if (!leaf.parts.empty())
          return;
        leaf.variable = false; // a scalar is a one-element array
        Nat count = TypeMapper::count(leaf.type);
        leaf.offset = where.slice->isConst(0) ? nullptr : where.slice * count;
        std::string elem = printType(types_.element(leaf.type));
        Nat total = where.slices * count;
        if (where.local) {
          localDecls_.push_back(
              declStmt(arrayType(namedType("local " + elem), total->value()), leaf.name));
        } else {
          params.push_back({pointerType(namedType("global " + elem), true), leaf.name});
          AbiParam a;
          a.role = AbiParam::Role::Temporary;
          a.name = leaf.name;
          a.riseName = h.name;
          a.riseType = leaf.type;
          a.cType = elem;
          a.array = true;
          a.count = total;
          abi_.params.push_back(a);
        }
      };
      place(m);
      memory_[h.var->id()] = m;
      std::vector<const Memory*> ls;
      leaves(m, ls);
      std::string name = ls.front()->name;
      for (std::size_t i = 1; i < ls.size(); ++i)
        name += ", " + ls[i]->name;
      opencl::SharedTemporary& t = shared[h.var->id()];
      t.local = where.local;
      t.description = name + " (" + where.primitive + ")";
      t.comment = name + " (" + where.primitive + " at " + h.command->loc().shortStr() + ")";
      t.loc = h.command->loc();
      for (const Phrase& l : h.parallelLoops)
        t.ownLoops.insert(dpia::forIndex(l)->var().id);
    }
    Phrase out = opencl::insertBarriers(command, shared);
    abi_.usesBarriers = opencl::hasBarrier(out);
    return out;
  }

  // ---- the function ----------------------------------------------------------

  /// The pair structs of the header, each guarded so that several kernels'
  /// headers can be included together: every struct of scalars, and the
  /// structs with vector fields that a parameter's elements are, spelled in
  /// host C (GCC vector types, also in an OpenCL kernel's header; their
  /// layout is that of OpenCL's vectors), after the vector typedefs they
  /// need. Remembers what it declared (headerStructs_, headerVectors_).
  void guardedStructs(TranslationUnit& h) {
    VectorTypes hostVectors(false);
    TypeMapper host;
    host.vector = [&](const rise::Type& v) { return hostVectors.type(v); };
    for (std::size_t i = 0; i < types_.structs().size(); ++i)
      if (!pairHoldsVector(types_.structTypes()[i]))
        host.element(types_.structTypes()[i]);
    for (const AbiParam& a : abi_.params)
      if (a.riseType && pairHoldsVector(TypeMapper::innermost(a.riseType)))
        host.element(TypeMapper::innermost(a.riseType));
    for (const auto& [name, typedefLine] : hostVectors.valueTypedefs()) {
      h.raw("#ifndef RISEC_VECTOR_" + name + "\n#define RISEC_VECTOR_" + name + "\n" + typedefLine +
            "\n#endif");
      headerVectors_.insert(name);
    }
    for (const StructDef& s : host.structs()) {
      h.raw("#ifndef RISEC_STRUCT_" + s.name + "\n#define RISEC_STRUCT_" + s.name);
      h.add(s);
      h.raw("#endif");
      headerStructs_.insert(s.name);
    }
  }

  std::set<std::string> headerStructs_; ///< the structs the header declares
  std::set<std::string> headerVectors_; ///< the vector typedefs the header declares

  std::string helperCode(const std::string& h) {
    if (h == "risec_min")
      return "static inline int risec_min(int a, int b) { return a < b ? a : b; }";
    if (h == "risec_max")
      return "static inline int risec_max(int a, int b) { return a > b ? a : b; }";
    if (h == "risec_omp_chunks")
      return openmp::chunksHelper();
    if (h == "risec_chunk_begin")
      return openmp::chunkBeginHelper();
    return "static inline int risec_pow(int b, int e) {\n  int r = 1;\n  while (e-- > 0)\n"
           "    r *= b;\n  return r;\n}";
  }

  std::string foreignCode(const rise::ForeignDecl& f) {
    std::string s = "static inline " + printType(foreignType(f.result)) + " " + f.name + "(";
    for (std::size_t i = 0; i < f.params.size(); ++i)
      s += (i ? ", " : "") + printDeclarator(foreignType(f.params[i].second), f.params[i].first);
    if (f.params.empty())
      s += "void";
    s += ") {\n";
    // a parameter the body never names (Shine's calcAcc ignores deltaT)
    // would fail -Wunused-parameter
    auto named = [&](const std::string& name) {
      auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
      for (std::size_t at = f.body.find(name); at != std::string::npos;
           at = f.body.find(name, at + 1))
        if ((at == 0 || !word(f.body[at - 1])) &&
            (at + name.size() == f.body.size() || !word(f.body[at + name.size()])))
          return true;
      return false;
    };
    for (const auto& prm : f.params)
      if (!named(prm.first))
        s += "  (void)" + prm.first + ";\n";
    std::string body = f.body;
    std::size_t start = 0;
    while (start <= body.size()) {
      std::size_t end = body.find('\n', start);
      std::string line = body.substr(start, end == std::string::npos ? end : end - start);
      std::size_t first = line.find_first_not_of(" \t");
      if (first != std::string::npos)
        s += "  " + line.substr(first) + "\n";
      if (end == std::string::npos)
        break;
      start = end + 1;
    }
    return s + "}";
  }
};

CFiles Emitter::run(const dpia::Program& p) {
  for (const auto& f : p.foreigns)
    rise::checkForeignSignature(*f);
  math_ = !p.foreigns.empty(); // foreign bodies may call the math functions
  // imperative passes
  Phrase command = dpia::unrollLoops(p.command);
  std::vector<dpia::HoistedAllocation> heap;
  if (opencl())
    command = dpia::hoistAllocationsIf(
        command,
        [](const Phrase& c) {
          // a private array of a constant size is declared where it is used:
          // its size per work-item is known once its accesses are
          const rise::Type& t = c->dataArg(0);
          if (dpia::newAddrSpace(c).tag == rise::AddrSpace::Tag::Private &&
              t->kind() == rise::TypeKind::Array && TypeMapper::count(t)->isConst())
            return false;
          return opencl::hoistForOpenCL(c);
        },
        heap);
  else
    command = dpia::hoistAllocations(
        command,
        [](const rise::Type& t) {
          return splitPair(t) || (t->kind() == rise::TypeKind::Array && !isStack(t));
        },
        heap);

  // parameters: the output (one pointer per component of a pair of arrays),
  // the sizes, the inputs
  std::vector<Param> params;
  memory_[p.output->id()] =
      makeMemory("output", p.outputType, [](const std::string& n) { return n; });
  std::function<void(Memory&)> asPointers = [&](Memory& m) {
    m.variable = false; // a scalar result is a one-element array
    for (Memory& part : m.parts)
      asPointers(part);
  };
  asPointers(memory_[p.output->id()]);
  std::vector<const Memory*> outLeaves;
  leaves(memory_[p.output->id()], outLeaves);
  for (const Memory* m : outLeaves) {
    names_.reserve(m->name);
    CType elem = types_.element(m->type);
    abiParam(AbiParam::Role::Output, *m, "output");
    if (opencl())
      elem = namedType("global " + printType(elem));
    params.push_back({pointerType(elem, true), m->name});
  }
  std::vector<std::string> sizeNames;
  for (const rise::DepBinder& b : p.sizes) {
    std::string name = names_.fresh(b.name());
    natNames_[b.id()] = name;
    sizeIds_.insert(b.id());
    sizeNames.push_back(name);
    params.push_back({namedType("int"), name});
    AbiParam a;
    a.role = AbiParam::Role::Size;
    a.name = name;
    a.riseName = b.name();
    a.cType = "int";
    abi_.params.push_back(a);
  }
  for (const Phrase& x : p.inputs) {
    Memory m = makeMemory(x->name(), dpia::dataType(x),
                          [&](const std::string& n) { return names_.fresh(n); });
    std::vector<const Memory*> ls;
    leaves(m, ls);
    for (const Memory* l : ls) {
      CType ct = types_.element(l->type);
      abiParam(AbiParam::Role::Input, *l, x->name());
      if (opencl() && !l->variable)
        ct = namedType("global " + printType(ct));
      params.push_back({l->variable ? ct : pointerType(constOf(ct), true), l->name});
    }
    memory_[x->id()] = m;
  }
  if (opencl()) {
    command = openclTemporaries(command, heap, params);
    heap.clear();
  }
  abi_.symbol = opts_.symbol;
  abi_.target = opts_.target;
  abi_.entry = p.name;
  abi_.riseType = p.riseType;
  abi_.preconditions = p.preconditions;
  for (AbiParam& a : abi_.params)
    if (a.array)
      a.countC = printExpr(nats_.bare(a.count));

  // checks
  std::vector<CStmt> body;
  if (!sizeNames.empty()) {
    CExpr negative;
    for (const std::string& s : sizeNames) {
      CExpr c = binary("<", ident(s), intLit(0));
      negative = negative ? binary("||", negative, c) : c;
    }
    body.push_back(ifStmt(negative, {returnStmt(intLit(kNegativeSize))}));
  }
  // heap temporaries (named now, allocated after the checks)
  std::vector<const Memory*> heapLeaves;
  std::set<std::string> perThread; // heap leaves with one copy per thread
  for (const auto& h : heap) {
    checkTemporaryLayout(h.type, h.command->loc());
    memory_[h.var->id()] =
        makeMemory(h.name, h.type, [&](const std::string& n) { return fresh(n); });
    std::size_t before = heapLeaves.size();
    leaves(memory_[h.var->id()], heapLeaves);
    if (h.parallelLoop == 0)
      continue;
    if (splitPair(h.type))
      throw CompileError("E0621", {},
                         "a pair of arrays `" + h.name +
                             "` inside a parallel loop is not supported by the OpenMP back end");
    perThread.insert(heapLeaves[before]->name);
    privateHeap_.insert({h.parallelLoop, {h.var->id(), TypeMapper::count(h.type)}});
  }
  std::vector<rise::Type> sized;
  for (const Phrase& x : p.inputs) {
    std::vector<const Memory*> ls;
    leaves(memory_[x->id()], ls);
    for (const Memory* l : ls)
      sized.push_back(l->type);
  }
  for (const Memory* l : outLeaves)
    sized.push_back(l->type);
  for (const Memory* l : heapLeaves)
    sized.push_back(l->type);
  CExpr tooLarge;
  std::set<std::string> seen;
  for (const rise::Type& t : sized) {
    Nat count = TypeMapper::count(t);
    if (count->isConst() || count->kind() == rise::NatKind::Var)
      continue; // a single size parameter always fits
    CExpr c = binary(">", nats_.upperBound(count), literal("INT_MAX"));
    std::string key = printExpr(c);
    if (!seen.insert(key).second)
      continue;
    tooLarge = tooLarge ? binary("||", tooLarge, c) : c;
  }
  if (tooLarge)
    body.push_back(ifStmt(tooLarge, {returnStmt(intLit(kSizeTooLarge))}));
  for (const rise::Precondition& pre : p.preconditions) {
    CExpr cond = binary(pre.rel == rise::Precondition::Rel::Eq ? "!=" : "<", nats_.bare(pre.lhs),
                        nats_.bare(pre.rhs));
    body.push_back(comment(pre.reason.empty() ? pre.str() : pre.reason));
    body.push_back(ifStmt(cond, {returnStmt(intLit(kPreconditionFailed))}));
  }

  // heap temporaries, allocated once up front
  std::vector<std::string> heapNames;
  CExpr failed;
  for (const Memory* h : heapLeaves) {
    const std::string& name = h->name;
    CType elem = types_.element(h->type);
    if (h->variable || isStack(h->type)) { // a small part of a split pair
      body.push_back(declStmt(
          h->variable ? elem : arrayType(elem, TypeMapper::count(h->type)->value()), name));
      continue;
    }
    heapNames.push_back(name);
    CExpr size = binary("*", cast(namedType("size_t"), nats_.expr(TypeMapper::count(h->type))),
                        call("sizeof", {ident(printType(elem))}));
    if (perThread.count(name)) {
      if (threadsName_.empty()) {
        threadsName_ = fresh("nthreads");
        body.push_back(declStmt(namedType("int"), threadsName_, call("omp_get_max_threads", {})));
      }
      size = binary("*", cast(namedType("size_t"), ident(threadsName_)), size);
    }
    body.push_back(declStmt(pointerType(elem, true), name, call("malloc", {size})));
    CExpr c = binary("==", ident(name), literal("NULL"));
    Nat count = TypeMapper::count(h->type);
    if (!count->isConst()) // malloc(0) may return NULL
      c = binary("&&", c, binary("!=", nats_.bare(count), intLit(0)));
    failed = failed ? binary("||", failed, c) : c;
  }
  if (failed) {
    std::vector<CStmt> cleanup;
    for (const std::string& n : heapNames)
      cleanup.push_back(exprStmt(call("free", {ident(n)})));
    cleanup.push_back(returnStmt(intLit(kOutOfMemory)));
    body.push_back(ifStmt(failed, cleanup));
  }

  if (opencl())
    return openclFiles(p, command, params, body);

  std::vector<CStmt> main;
  comm(command, main);
  main = eliminateDeadStores(main);
  if (openmp_)
    main = openmp::markSimdLoops(main);
  body.insert(body.end(), main.begin(), main.end());
  for (auto it = heapNames.rbegin(); it != heapNames.rend(); ++it)
    body.push_back(exprStmt(call("free", {ident(*it)})));
  body.push_back(returnStmt(intLit(kOk)));

  voidUnusedParameters(params, body);

  Function fn;
  fn.returnType = namedType("int");
  fn.name = opts_.symbol;
  fn.params = params;
  fn.body = body;

  std::vector<std::string> foreignCodes;
  for (const auto& f : p.foreigns)
    foreignCodes.push_back(foreignCode(*f));

  // the declarations of the header: pair structs, the prototype
  TranslationUnit h;
  guardedStructs(h);
  Function proto = fn;
  proto.declarationOnly = true;
  proto.body.clear();
  h.add(proto);
  std::string declarations = printUnit(h);
  declarations.pop_back();

  TranslationUnit c;
  c.raw(host::docComment(abi_, opts_));
  c.include("\"" + opts_.symbol + ".h\"");
  c.blank();
  c.include("<limits.h>");
  if (math_)
    c.include("<math.h>");
  if (openmp_)
    c.include("<omp.h>");
  if (!heap.empty())
    c.include("<stdlib.h>");
  c.blank();
  if (vectors_.used()) {
    c.raw(vectors_.declarations(headerVectors_));
    c.blank();
  }
  bool ownStructs = false;
  for (const StructDef& s : types_.structs()) // with vector fields, not in the header
    if (!headerStructs_.count(s.name)) {
      c.add(s);
      ownStructs = true;
    }
  for (const std::string& hname : helpers_)
    c.raw(helperCode(hname));
  for (const std::string& f : foreignCodes)
    c.raw(f);
  if (!helpers_.empty() || !p.foreigns.empty() || ownStructs)
    c.blank();
  c.add(fn);
  return {printUnit(c), host::cHeader(abi_, opts_, declarations), abi_, ""};
}

} // namespace

CFiles Emitter::openclFiles(const dpia::Program& p, const Phrase& command,
                            const std::vector<Param>& params, std::vector<CStmt> checks) {

  std::vector<CStmt> body;
  comm(command, body);
  privateMemory_.check();
  // private arrays each work-item needs only its own elements of: with the
  // local sizes known at compile time, emit again with them distributed
  // (all of them: the kernel then requires them, reqd_work_group_size)
  std::map<std::string, std::int64_t> strides;
  if (opts_.launch && !opts_.launch->local.empty() &&
      std::all_of(opts_.launch->local.begin(), opts_.launch->local.end(),
                  [](const Nat& l) { return l->isConst(); }))
    for (std::size_t d = 0; d < opts_.launch->local.size(); ++d)
      strides["mapLocal(" + std::to_string(d) + ")"] = opts_.launch->local[d]->value();
  std::map<std::uint64_t, opencl::PrivateLayout> found = privateMemory_.layouts(strides);
  if (!found.empty() && layouts_.empty()) {
    for (std::uint64_t id : privateOrder_) {
      auto it = found.find(id);
      distributed_.push_back(it == found.end() ? opencl::PrivateLayout{} : it->second);
    }
    return {};
  }
  body = eliminateDeadStores(body);
  body.insert(body.begin(), localDecls_.begin(), localDecls_.end());
  voidUnusedParameters(params, body);
  Function kernel;
  kernel.qualifiers = {"__kernel"};
  if (!found.empty()) { // the layouts hold for these local sizes only
    std::string sizes;
    for (std::size_t d = 0; d < 3; ++d) {
      std::int64_t l = d < opts_.launch->local.size() ? opts_.launch->local[d]->value() : 1;
      sizes += (d ? ", " : "") + std::to_string(l);
    }
    kernel.qualifiers.push_back("__attribute__((reqd_work_group_size(" + sizes + ")))");
  }
  kernel.returnType = namedType("void");
  kernel.name = opts_.symbol;
  kernel.params = params;
  kernel.body = body;

  std::vector<Param> sizes;
  for (const Param& prm : params)
    if (prm.type->kind() != TypeNode::Kind::Pointer && printType(prm.type) == "int" &&
        sizes.size() < p.sizes.size())
      sizes.push_back(prm);
  checks.push_back(returnStmt(intLit(kOk)));
  voidUnusedParameters(sizes, checks);
  Function check;
  check.qualifiers = {"static", "inline", "__attribute__((unused))"};
  check.returnType = namedType("int");
  check.name = opts_.symbol + "_check";
  check.params = sizes;
  check.body = checks;
  if (check.params.empty())
    check.params.push_back({namedType("void"), ""});

  std::vector<std::string> foreignCodes;
  for (const auto& f : p.foreigns)
    foreignCodes.push_back(foreignCode(*f));

  TranslationUnit cl;
  cl.raw(host::docComment(abi_, opts_));
  cl.blank();
  for (const StructDef& s : types_.structs())
    cl.add(s);
  for (const std::string& hname : helpers_)
    cl.raw(helperCode(hname));
  for (const std::string& f : foreignCodes)
    cl.raw(f);
  if (!helpers_.empty() || !p.foreigns.empty() || !types_.structs().empty())
    cl.blank();
  cl.add(kernel);
  std::string source = printUnit(cl);
  std::string typedefs = opencl::stdintTypedefs(source);
  if (!typedefs.empty()) {
    std::size_t end = source.find("*/\n");
    source.insert(end == std::string::npos ? 0 : end + 3, "\n" + typedefs + "\n");
  }

  // the declarations of the header: pair structs, the check function
  TranslationUnit h;
  guardedStructs(h);
  h.add(check);
  std::string declarations = printUnit(h);
  declarations.pop_back();

  // the host wrappers embed SYMBOL.cl as it is shipped: formatted
  source = tooling::formatSource(source, tooling::SourceLanguage::OpenCL12, opts_.symbol + ".cl");
  host::LaunchPlan plan;
  plan.loops = gridLoops_;
  plan.given = opts_.launch.has_value();
  if (plan.given)
    host::checkUnusedDimensions(*opts_.launch, usedDims_);
  plan.launch = plan.given ? *opts_.launch : host::defaultLaunch(gridLoops_);
  return {source, host::openclHeader(abi_, opts_, plan, declarations), abi_,
          host::openclHostSource(abi_, opts_, plan, source)};
}

CFiles emitC(const dpia::Program& program, const COptions& opts) {
  Emitter first(opts);
  CFiles files = first.run(program);
  if (first.distributed().empty())
    return files;
  return Emitter(opts, first.distributed()).run(program);
}

} // namespace risec::codegen::c
