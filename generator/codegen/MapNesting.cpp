#include "codegen/MapNesting.h"

#include "rise/ast/Spine.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <variant>

namespace risec::codegen {

using namespace risec::rise;

namespace {

MapDomain domainOf(Prim p) {
  switch (p) {
  case Prim::MapGlobal:
    return MapDomain::Global;
  case Prim::MapWorkGroup:
    return MapDomain::WorkGroup;
  case Prim::MapLocal:
    return MapDomain::Local;
  case Prim::MapPar:
    return MapDomain::OpenMP;
  default:
    return MapDomain::Sequential;
  }
}

/// The dimension of an OpenCL map: its first type-level argument, if constant.
int dimensionOf(const Spine& s) {
  if (s.depArgs.empty())
    return -1;
  const auto* n = std::get_if<Nat>(&s.depArgs.front());
  if (!n || !*n || !(*n)->isConst())
    return -1;
  return static_cast<int>((*n)->value());
}

template <class T> void append(std::vector<T>& to, const std::vector<T>& from) {
  for (const T& x : from)
    if (std::find(to.begin(), to.end(), x) == to.end())
      to.push_back(x);
}

} // namespace

std::string MapNode::label() const {
  std::string name(primName(kind));
  return dim >= 0 ? name + "(" + std::to_string(dim) + ")" : name;
}

std::string MapNode::labelAt() const {
  return "`" + label() + "` at " + prim->loc().shortStr();
}

std::string MemoryStore::description() const {
  std::string name(primName(at->prim()));
  if (accumulator)
    return "the accumulator of `" + name + "` at " + at->loc().shortStr();
  if (at->prim() == Prim::ToMem) // a copy lowerToC inserted (OpenCL keeps toPrivate)
    return "the temporary stored at " + at->loc().shortStr();
  if (at->prim() == Prim::Iterate || at->prim() == Prim::OclIterate)
    return "the double buffers of `" + name + "` at " + at->loc().shortStr();
  return "`" + name + "` at " + at->loc().shortStr();
}

std::string memorySpaceName(MemorySpace s) {
  switch (s) {
  case MemorySpace::Global:
    return "global";
  case MemorySpace::Local:
    return "local";
  case MemorySpace::Private:
    return "private";
  default:
    return "unknown";
  }
}

/// One walk over the program. Returns, for every expression, the maps that
/// write its value when it is stored, and the temporaries its value is (a
/// part of) when it is read.
class MapNestingBuilder {
public:
  MapNestingBuilder(MapNesting& out, MemorySpace plainToMem, bool lowered)
      : out_(out), plainToMem_(plainToMem), lowered_(lowered) {}

  struct Facts {
    std::vector<MapNode*> writers;
    std::vector<const MemoryStore*> origin;
  };

  Facts walk(const Expr& e) {
    switch (e->kind()) {
    case ExprKind::Var: {
      auto it = env_.find(e->name());
      return {{}, it == env_.end() ? std::vector<const MemoryStore*>{} : it->second};
    }
    case ExprKind::Lambda:
      return walkFunction(e, {});
    case ExprKind::DepLambda:
      return walk(e->body());
    case ExprKind::App:
    case ExprKind::DepApp:
      return walkApp(e);
    default:
      return {};
    }
  }

private:
  MapNesting& out_;
  MemorySpace plainToMem_;
  bool lowered_; ///< a `map` is a view (after lowerToC)
  std::map<std::string, std::vector<const MemoryStore*>> env_;
  MapNode* enclosing_ = nullptr;

  /// A function whose successive parameters are bound to `params`; returns
  /// the facts of its body (or of `f` itself when it is not a lambda).
  Facts walkFunction(const Expr& f, std::vector<std::vector<const MemoryStore*>> params) {
    if (f->kind() != ExprKind::Lambda)
      return walk(f);
    std::vector<const MemoryStore*> mine;
    if (!params.empty()) {
      mine = params.front();
      params.erase(params.begin());
    }
    auto saved = env_.find(f->name()) == env_.end()
                     ? std::nullopt
                     : std::optional<std::vector<const MemoryStore*>>(env_[f->name()]);
    env_[f->name()] = mine;
    Facts r = walkFunction(f->body(), std::move(params));
    if (saved)
      env_[f->name()] = *saved;
    else
      env_.erase(f->name());
    return r;
  }

  Facts walkApp(const Expr& e) {
    Spine s = collectSpine(e, true);
    if (s.head->kind() == ExprKind::Lambda) { // fun(y => body)(v): y is v
      std::vector<std::vector<const MemoryStore*>> params;
      std::vector<MapNode*> writers;
      for (const Expr& a : s.args) {
        Facts f = walk(a);
        params.push_back(f.origin);
        append(writers, f.writers);
      }
      Facts r = walkFunction(s.head, std::move(params));
      append(r.writers, writers);
      return r;
    }
    if (s.head->kind() != ExprKind::Primitive) {
      Facts r = walk(s.head);
      for (const Expr& a : s.args)
        append(r.writers, walk(a).writers);
      return r;
    }
    Prim p = s.head->prim();
    // after lowerToC a remaining `map` is a view (its ViewMap repair), not a
    // loop: it passes the facts through like the other views below
    if (isMapLike(p) && !(lowered_ && p == Prim::Map))
      return walkMap(s);
    if (isReduceLike(p) || p == Prim::ScanSeq)
      return walkReduce(s);
    if (p == Prim::Iterate || p == Prim::OclIterate)
      return walkIterate(s);
    if (auto space = storedIn(s))
      return walkStore(s, *space);
    if (p == Prim::Let && s.args.size() == 2) {
      Facts value = walk(s.args[0]);
      return walkFunction(s.args[1], {value.origin});
    }
    // views (zip, join, transpose, fst, ...) pass both facts through;
    // scalar operations and generated arrays compute new values
    Facts r;
    for (const Expr& a : s.args) {
      Facts f = walk(a);
      append(r.writers, f.writers);
      append(r.origin, f.origin);
    }
    if (isScalarPrimitive(p) || p == Prim::Generate)
      r.origin.clear();
    return r;
  }

  /// The address space of a temporary created by `s`, if `s` creates one.
  std::optional<MemorySpace> storedIn(const Spine& s) const {
    switch (s.head->prim()) {
    case Prim::ToMem:
      return plainToMem_;
    case Prim::ToPrivate:
      return MemorySpace::Private;
    case Prim::ToLocal:
      return MemorySpace::Local;
    case Prim::ToGlobal:
      return MemorySpace::Global;
    case Prim::OclToMem:
      return spaceArg(s);
    default:
      return std::nullopt;
    }
  }

  /// iterate(k)(f)(x), oclIterate(a)(k)(f)(x): with two steps or more the
  /// steps alternate between two buffers (dpia/primitives/Iterate.cpp), a
  /// temporary written by the maps producing a step's result and read by the
  /// next step, whose parameter is the input or a buffer. The last step
  /// writes the result itself.
  Facts walkIterate(const Spine& s) {
    Facts in = s.args.size() > 1 ? walk(s.args[1]) : Facts{};
    if (s.args.empty())
      return {};
    bool ocl = s.head->prim() == Prim::OclIterate;
    std::size_t kAt = ocl ? 1 : 0;
    const Nat* k = s.depArgs.size() > kAt ? std::get_if<Nat>(&s.depArgs[kAt]) : nullptr;
    bool buffers = !k || !*k || !(*k)->isConst() || (*k)->value() >= 2;
    MemoryStore* buf = buffers ? newStore(s.head, ocl ? spaceArg(s) : plainToMem_) : nullptr;
    std::vector<const MemoryStore*> param = in.origin;
    if (buf)
      param.push_back(buf);
    Expr f = s.args[0];
    while (f->kind() == ExprKind::DepLambda) // (l: Nat) => ...
      f = f->body();
    Facts step = walkFunction(f, {param});
    if (buf)
      buf->writers = step.writers;
    return {step.writers, {}};
  }

  static MemorySpace spaceArg(const Spine& s) {
    const auto* a = s.depArgs.empty() ? nullptr : std::get_if<AddrSpace>(&s.depArgs.front());
    if (!a)
      return MemorySpace::Unknown;
    switch (a->tag) {
    case AddrSpace::Tag::Global:
      return MemorySpace::Global;
    case AddrSpace::Tag::Local:
      return MemorySpace::Local;
    case AddrSpace::Tag::Private:
      return MemorySpace::Private;
    default:
      return MemorySpace::Unknown;
    }
  }

  MemoryStore* newStore(const Expr& at, MemorySpace space) {
    out_.stores_.push_back(std::make_unique<MemoryStore>());
    MemoryStore* st = out_.stores_.back().get();
    st->at = at;
    st->space = space;
    st->enclosing = enclosing_;
    return st;
  }

  Facts walkStore(const Spine& s, MemorySpace space) {
    Facts value = s.args.empty() ? Facts{} : walk(s.args[0]);
    MemoryStore* st = newStore(s.head, space);
    st->writers = value.writers;
    return {{}, {st}};
  }

  Facts walkMap(const Spine& s) {
    Facts in = s.args.size() > 1 ? walk(s.args[1]) : Facts{};
    out_.maps_.push_back(std::make_unique<MapNode>());
    MapNode* m = out_.maps_.back().get();
    m->prim = s.head;
    m->kind = s.head->prim();
    m->domain = domainOf(m->kind);
    if (m->domain == MapDomain::Global || m->domain == MapDomain::WorkGroup ||
        m->domain == MapDomain::Local)
      m->dim = dimensionOf(s);
    if (s.args.size() > 1)
      m->input = s.args[1];
    m->inputs = in.origin;
    m->parent = enclosing_;
    if (enclosing_)
      enclosing_->children.push_back(m);
    Facts r{{m}, {}};
    if (!s.args.empty()) {
      // the function runs once per element: nested in m, its parameter an
      // element of the mapped array, its result an element of m's result
      MapNode* saved = enclosing_;
      enclosing_ = m;
      append(r.writers, walkFunction(s.args[0], {in.origin}).writers);
      enclosing_ = saved;
    }
    return r;
  }

  /// reduce(op)(init)(in), scanSeq(op)(init)(in): the accumulator is a
  /// temporary written by the maps producing `init` and the operator's result.
  Facts walkReduce(const Spine& s) {
    Facts in = s.args.size() > 2 ? walk(s.args[2]) : Facts{};
    Facts init = s.args.size() > 1 ? walk(s.args[1]) : Facts{};
    Prim p = s.head->prim();
    MemoryStore* acc =
        newStore(s.head, p == Prim::OclReduceSeq ? spaceArg(s) : MemorySpace::Private);
    acc->accumulator = true;
    acc->writers = init.writers;
    if (!s.args.empty()) {
      acc->op = s.args[0];
      if (acc->op->kind() == ExprKind::Lambda)
        acc->accumulatorName = acc->op->name();
      append(acc->writers, walkFunction(s.args[0], {{acc}, in.origin}).writers);
    }
    if (p == Prim::ScanSeq)
      return {};
    return {{}, {acc}};
  }
};

MapNesting MapNesting::build(const Expr& program, MemorySpace plainToMem, bool lowered) {
  MapNesting n;
  MapNestingBuilder(n, plainToMem, lowered).walk(program);
  return n;
}

std::vector<const MapNode*> MapNesting::maps() const {
  std::vector<const MapNode*> r;
  for (const auto& m : maps_)
    r.push_back(m.get()); // created in walk order: a map's input, the map, its function
  return r;
}

std::vector<const MemoryStore*> MapNesting::stores() const {
  std::vector<const MemoryStore*> r;
  for (const auto& s : stores_)
    r.push_back(s.get());
  return r;
}

std::vector<const MapNode*> MapNesting::outerMaps(const MapNode& m) {
  std::vector<const MapNode*> r;
  for (const MapNode* o = m.parent; o; o = o->parent)
    r.push_back(o);
  return r;
}

std::vector<const MapNode*> MapNesting::nestedMaps(const MapNode& m) {
  std::vector<const MapNode*> r;
  for (const MapNode* c : m.children) {
    r.push_back(c);
    for (const MapNode* n : nestedMaps(*c))
      r.push_back(n);
  }
  return r;
}

std::vector<std::vector<const MapNode*>> MapNesting::chains() const {
  std::vector<std::vector<const MapNode*>> r;
  std::vector<const MapNode*> path;
  std::function<void(const MapNode*)> go = [&](const MapNode* m) {
    path.push_back(m);
    if (m->children.empty())
      r.push_back(path);
    for (const MapNode* c : m->children)
      go(c);
    path.pop_back();
  };
  for (const MapNode* m : maps())
    if (!m->parent)
      go(m);
  return r;
}

} // namespace risec::codegen
