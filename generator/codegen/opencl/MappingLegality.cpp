#include "codegen/opencl/MappingLegality.h"

#include "codegen/MapNesting.h"
#include "codegen/opencl/Barriers.h"
#include "dpia/Imperative.h"
#include "dpia/Primitive.h"
#include "rise/ast/Spine.h"
#include "support/Diagnostic.h"

#include <algorithm>
#include <set>
#include <utility>

namespace risec::codegen::opencl {

using namespace risec::rise;

namespace {

bool isOpenCL(const MapNode& m) {
  return m.domain == MapDomain::Global || m.domain == MapDomain::WorkGroup ||
         m.domain == MapDomain::Local;
}

bool isHierarchy(const MapNode& m) {
  return m.domain == MapDomain::WorkGroup || m.domain == MapDomain::Local;
}

std::string domainName(MapDomain d) {
  switch (d) {
  case MapDomain::Global:
    return "global";
  case MapDomain::WorkGroup:
    return "work-group";
  default:
    return "local";
  }
}

std::string rule(int n, const std::string& what) {
  return "rule " + std::to_string(n) + " of the mapping constraints: " + what;
}

std::string mapLabel(MapDomain d, int dim) {
  std::string name = d == MapDomain::Global      ? "mapGlobal"
                     : d == MapDomain::WorkGroup ? "mapWorkGroup"
                                                 : "mapLocal";
  return name + "(" + std::to_string(dim) + ")";
}

CompileError error(const std::string& code, const MapNode& at, const std::string& message,
                   const MapNode* other = nullptr, const std::string& otherNote = "") {
  CompileError e(code, at.prim->loc(), "`" + at.label() + "` " + message);
  if (other)
    e.note(other->prim->loc(), otherNote);
  return e;
}

[[noreturn]] void reject(const std::string& code, const MapNode& at, const std::string& message,
                         const MapNode* other = nullptr, const std::string& otherNote = "") {
  throw error(code, at, message, other, otherNote);
}

GridLoop gridOf(MapDomain d, int dim) {
  GridKind k = d == MapDomain::Global      ? GridKind::Global
               : d == MapDomain::WorkGroup ? GridKind::WorkGroup
                                           : GridKind::Local;
  return GridLoop{k, dim};
}

/// The first map in `chain` (outermost first) with this domain and dimension.
const MapNode* findMap(const std::vector<const MapNode*>& chain, MapDomain d, int dim) {
  for (const MapNode* m : chain)
    if (m->domain == d && m->dim == dim)
      return m;
  return nullptr;
}

const MapNode* outerOf(const MapNode& m, MapDomain d) {
  for (const MapNode* o : MapNesting::outerMaps(m))
    if (o->domain == d)
      return o;
  return nullptr;
}

class Checker {
public:
  explicit Checker(const MapNesting& n) : n_(n), maps_(n.maps()), chains_(n.chains()) {}

  /// The rule-7 violations run() found (it throws the others).
  const IndexingViolations& indexing() const { return indexing_; }

  void run() {
    for (const MapNode* m : maps_)
      if (isOpenCL(*m) && (m->dim < 0 || m->dim > 2))
        return; // not a valid dimension: E0632 reports it
    privateMemory();
    localMemory();
    duplicateScheduling();
    localDimensions();
    workGroupDimensions();
    hierarchy();
    oneHierarchy();
    exhaustiveIndexing();
  }

private:
  IndexingViolations indexing_;
  const MapNesting& n_;
  std::vector<const MapNode*> maps_;
  std::vector<std::vector<const MapNode*>> chains_;

  // ---- rule 1 -----------------------------------------------------------------------

  /// A `toMem` at the writer itself was inserted by lowerToC: the result is read.
  static std::string privateStore(const MemoryStore& s, const MapNode& writer) {
    const SourceLocation &a = s.at->loc(), &b = writer.prim->loc();
    if (s.at->prim() == Prim::ToMem && a.line == b.line && a.column == b.column)
      return "a temporary that lowerToC inserted because the result is read afterwards; "
             "temporaries are private in OpenCL";
    return s.description();
  }

  /// A map's input that gives iteration i element i of every array in it:
  /// a variable, a value computed into memory (a reduction, a store), a zip
  /// of such inputs, a view map over one (`map(snd)(xs)`: after lowerToC a
  /// plain map is computed where it is read), or a component of one.
  static bool aligned(const Expr& input) {
    if (!input)
      return false;
    if (input->kind() == ExprKind::Var)
      return true;
    Spine s = collectSpine(input, true);
    if (s.head->kind() != ExprKind::Primitive)
      return false;
    Prim p = s.head->prim();
    if (p == Prim::Zip)
      return s.args.size() == 2 && aligned(s.args[0]) && aligned(s.args[1]);
    if (p == Prim::Map)
      return s.args.size() == 2 && aligned(s.args[1]);
    if (p == Prim::Fst || p == Prim::Snd || p == Prim::Unzip)
      return s.args.size() == 1 && aligned(s.args[0]);
    return isReduceLike(p) || p == Prim::ToPrivate || p == Prim::OclToMem || p == Prim::ToMem;
  }

  /// A private array that the maps of one OpenCL level (`mapLocal(1)` and
  /// `mapLocal(0)`, say) both write and iterate over element by element (the
  /// private accumulators of Shine's and LIFT's gemv and nbody): each
  /// work-item then only touches the elements of its own iterations, so its
  /// own copy holds them. Rule 1 is left to the exact check on the generated
  /// loops (codegen/opencl/PrivateMemory.h, E0648), which sees every index,
  /// also of the reads by reductions, and which loop owns which dimension.
  bool ownedPerIteration(const MemoryStore& s) const {
    const MapNode* first = nullptr;
    bool written = false, read = false;
    auto same = [&](const MapNode* m) {
      if (!isOpenCL(*m))
        return true;
      if (m->domain == MapDomain::WorkGroup)
        return false;
      first = first ? first : m;
      return m->domain == first->domain;
    };
    for (const MapNode* w : s.writers) {
      if (!same(w))
        return false;
      written |= isOpenCL(*w);
    }
    for (const MapNode* m : maps_)
      for (const MemoryStore* in : m->inputs) {
        if (in != &s)
          continue;
        if (!same(m) || (isOpenCL(*m) && !aligned(m->input)))
          return false;
        read |= isOpenCL(*m);
      }
    return written && read;
  }

  /// How to fix a rule 1 violation on `s`, for `what` ("its result", "its input").
  static std::string privateFix(const MemoryStore& s, const std::string& what) {
    Prim p = s.at->prim();
    if (p == Prim::Iterate || p == Prim::OclIterate)
      return "make the map sequential (mapSeq), or keep the buffers in memory the work-items "
             "share (oclIterate(Local) inside a mapWorkGroup, or oclIterate(Global))";
    return "make the map sequential (mapSeq) or store " + what +
           " in local or global memory (toLocal, toGlobal)";
  }

  void privateMemory() {
    const std::string why = "which belongs to a single work-item, but its iterations run on "
                            "different work-items (" +
                            rule(1, "private memory stays sequential") + "); ";
    for (const MemoryStore* s : n_.stores()) {
      if (s->space != MemorySpace::Private || ownedPerIteration(*s))
        continue;
      for (const MapNode* w : s->writers)
        if (isOpenCL(*w))
          reject("E0640", *w,
                 "writes its result into private memory (" + privateStore(*s, *w) + "), " + why +
                     privateFix(*s, "its result"));
    }
    for (const MapNode* m : maps_)
      for (const MemoryStore* s : m->inputs)
        if (isOpenCL(*m) && s->space == MemorySpace::Private && !ownedPerIteration(*s))
          reject("E0640", *m,
                 "iterates over private memory (" + s->description() + "), " + why +
                     privateFix(*s, "its input"));
  }

  // ---- rule 2 -----------------------------------------------------------------------

  void localMemory() {
    const std::string what = rule(2, "local memory belongs to a work-group");
    for (const MemoryStore* s : n_.stores()) {
      if (s->space != MemorySpace::Local)
        continue;
      std::string name = "`" + std::string(primName(s->at->prim())) + "`";
      std::vector<const MapNode*> around;
      if (s->enclosing) {
        around = MapNesting::outerMaps(*s->enclosing);
        around.insert(around.begin(), s->enclosing);
      }
      auto has = [&](MapDomain d) {
        return std::find_if(around.begin(), around.end(),
                            [&](const MapNode* m) { return m->domain == d; }) != around.end();
      };
      if (!has(MapDomain::WorkGroup))
        throw CompileError("E0641", s->at->loc(),
                           name +
                               " is not inside any mapWorkGroup, but local memory belongs to "
                               "one work-group (" +
                               what +
                               "); move it into the function of a mapWorkGroup, or use toGlobal");
      for (const MapNode* m : around)
        if (m->domain == MapDomain::Local)
          throw CompileError(
              "E0641", s->at->loc(),
              name + " inside the function of " + m->labelAt() +
                  " is one temporary per work-group that all the work-items running its "
                  "iterations would write (" +
                  what + "); store the whole result of the mapLocal instead (`... |> " +
                  m->label() + "(f) |> toLocal`), or use toPrivate");
      for (const MapNode* w : s->writers)
        if (w->domain == MapDomain::Global || w->domain == MapDomain::WorkGroup)
          reject("E0641", *w,
                 "writes its result into local memory (" + s->description() +
                     "), which only the work-items of one work-group share (" + what +
                     "); use mapLocal or mapSeq for a map that produces local memory");
    }
    for (const MapNode* m : maps_)
      for (const MemoryStore* s : m->inputs)
        if (s->space == MemorySpace::Local &&
            (m->domain == MapDomain::Global || m->domain == MapDomain::WorkGroup))
          reject("E0641", *m,
                 "iterates over local memory (" + s->description() +
                     "), which only the work-items of one work-group share (" + what +
                     "); use mapLocal or mapSeq for a map that reads local memory");
  }

  // ---- rule 3 -----------------------------------------------------------------------

  void duplicateScheduling() {
    for (const MapNode* m : maps_) {
      if (!isOpenCL(*m))
        continue;
      for (const MapNode* o : MapNesting::outerMaps(*m))
        if (o->domain == m->domain && o->dim == m->dim)
          reject("E0642", *m,
                 "inside " + o->labelAt() + " schedules dimension " + std::to_string(m->dim) +
                     " twice (" + rule(3, "no duplicate scheduling") +
                     "); use another dimension or make the inner map sequential (mapSeq)",
                 o, "the outer map");
    }
  }

  // ---- rules 4 and 5 ----------------------------------------------------------------

  void localDimensions() {
    const std::string what = rule(4, "local dimensions match work-group dimensions");
    for (const auto& chain : chains_)
      for (const MapNode* m : chain) {
        if (m->domain != MapDomain::Local || findMap(chain, MapDomain::WorkGroup, m->dim))
          continue;
        std::string d = std::to_string(m->dim);
        const MapNode* wg = outerOf(*m, MapDomain::WorkGroup);
        if (!wg)
          reject("E0643", *m,
                 "is not inside a `mapWorkGroup(" + d + ")` (" + what + "); wrap its nest in " +
                     "mapWorkGroup(" + d + "), or use mapGlobal(" + d + ")");
        reject("E0643", *m,
               "is inside " + wg->labelAt() + " but its nest has no `mapWorkGroup(" + d + ")` (" +
                   what + "); use mapLocal(" + std::to_string(wg->dim) +
                   "), or add a mapWorkGroup(" + d + ") around it",
               wg, "the enclosing work-group map");
      }
  }

  void workGroupDimensions() {
    const std::string what = rule(5, "work-group dimensions match local dimensions");
    for (const auto& chain : chains_)
      for (const MapNode* wg : chain) {
        if (wg->domain != MapDomain::WorkGroup || findMap(chain, MapDomain::Local, wg->dim))
          continue;
        std::string local = "mapLocal(" + std::to_string(wg->dim) + ")";
        const MapNode* leaf = chain.back();
        if (leaf == wg)
          reject("E0644", *wg,
                 "has no `" + local +
                     "` inside: every work-item of a group would run all the "
                     "iterations of the group's task (" +
                     what + "); make a map inside it " + local);
        reject("E0644", *leaf,
               "is inside " + wg->labelAt() + " but not inside a `" + local +
                   "`: every work-item of the group would run all its iterations (" + what +
                   "); make it, or a map around it, " + local,
               wg, "the enclosing work-group map");
      }
  }

  // ---- rule 6 -----------------------------------------------------------------------

  void hierarchy() {
    for (const MapNode* m : maps_) {
      if (m->domain != MapDomain::WorkGroup)
        continue;
      if (const MapNode* l = outerOf(*m, MapDomain::Local))
        reject("E0645", *m,
               "inside " + l->labelAt() + ": work-groups contain work-items, not the reverse (" +
                   rule(6, "local/work-group hierarchy") +
                   "); swap the two maps (mapWorkGroup outside, mapLocal inside)",
               l, "the enclosing local map");
    }
  }

  // ---- one hierarchy per kernel (§4.4) -----------------------------------------------

  void oneHierarchy() {
    const MapNode* global = nullptr;
    const MapNode* group = nullptr;
    for (const MapNode* m : maps_) {
      if (m->domain == MapDomain::Global)
        global = global ? global : m;
      else if (isHierarchy(*m))
        group = group ? group : m;
      if (global && group) {
        const MapNode* second = m == global ? global : group;
        const MapNode* first = m == global ? group : global;
        indexing_.addMixedHierarchies(error(
            "E0647", *second,
            "and " + first->labelAt() +
                " in one kernel: a kernel distributes its iterations either over all "
                "work-items (mapGlobal) or over work-groups and their work-items "
                "(mapWorkGroup, mapLocal), not both (§4.4 of the mapping constraints: one "
                "parallelism hierarchy per kernel); use mapGlobal only, or mapWorkGroup and "
                "mapLocal only, or make each a kernel phase of its own (docs/dpia.md, \"Kernel "
                "phases\")",
            first, "the map of the other hierarchy"));
        return;
      }
    }
  }

  // ---- rule 7 -----------------------------------------------------------------------

  void exhaustiveIndexing() {
    std::vector<std::pair<MapDomain, int>> used;
    for (const MapNode* m : maps_)
      if (isOpenCL(*m) &&
          std::find(used.begin(), used.end(), std::pair(m->domain, m->dim)) == used.end())
        used.push_back({m->domain, m->dim});
    // After lowerToC a plain `map` is a view (index arithmetic where its
    // result is read, e.g. the `map(padCst(...))` and `map(slide(...))` of a
    // 2-D stencil's input): a nest of views runs no iterations of its own.
    auto loops = [](const std::vector<const MapNode*>& chain) {
      return std::any_of(chain.begin(), chain.end(),
                         [](const MapNode* m) { return m->kind != rise::Prim::Map; });
    };
    for (const auto& chain : chains_)
      for (const auto& [d, dim] : used) {
        if (!loops(chain) || findMap(chain, d, dim))
          continue;
        const MapNode* user = nullptr;
        for (const MapNode* m : maps_)
          if (m->domain == d && m->dim == dim) {
            user = m;
            break;
          }
        std::string label = mapLabel(d, dim);
        CompileError e = error(
            "E0646", *chain.back(),
            "does not use " + domainName(d) + " dimension " + std::to_string(dim) + ", but " +
                user->labelAt() + " does: every work-item would run all its iterations (" +
                rule(7, "exhaustive thread indexing") + "); make a map of its nest " + label +
                ", or make the nest a kernel phase of its own (docs/dpia.md, \"Kernel phases\")",
            user, "the map that uses the dimension");
        indexing_.add({gridOf(d, dim), std::move(e)});
      }
  }
};

} // namespace

IndexingViolations checkMappingLegality(const TypedDef& lowered) {
  MapNesting n = MapNesting::build(lowered.expr, MemorySpace::Private, true);
  Checker c(n);
  c.run();
  return c.indexing();
}

// ---- rule 7 per kernel phase ----------------------------------------------------------

void IndexingViolations::rejectFirst() const {
  if (!mixed_.empty())
    throw mixed_.front();
  if (!violations_.empty())
    throw violations_.front().error;
}

void IndexingViolations::rejectMixed() const {
  if (!mixed_.empty())
    throw mixed_.front();
  throw violations_.front().error;
}

void IndexingViolations::reject(const GridLoop& g) const {
  for (const Violation& v : violations_)
    if (v.unused == g)
      throw v.error;
  throw violations_.front().error;
}

namespace {

/// The statements of a kernel's outermost sequence: through sequences and
/// `new` blocks, down to the first command that is neither.
void statements(const dpia::Phrase& c, std::vector<dpia::Phrase>& out) {
  if (c->isPrim(dpia::primitive::seq())) {
    for (const dpia::Phrase& x : c->args())
      statements(x, out);
  } else if (c->isPrim(dpia::primitive::newVar())) {
    for (const dpia::Phrase& f : c->args())
      if (f->kind() == dpia::PhraseKind::Lambda)
        statements(f->body(), out);
  } else if (!c->isPrim(dpia::primitive::skip())) {
    out.push_back(c);
  }
}

/// The grid loops in `c`, at any depth.
void gridLoops(const dpia::Phrase& c, std::set<GridLoop>& out) {
  if (c->isPrim(dpia::primitive::parFor()) && gridKind(c))
    out.insert(gridLoop(c));
  dpia::mapChildren(c, [&](const dpia::Phrase& x) {
    gridLoops(x, out);
    return x;
  });
}

} // namespace

void checkIndexingPerPhase(const dpia::Phrase& command, const IndexingViolations& violations) {
  if (violations.empty())
    return;
  std::vector<dpia::Phrase> flat;
  statements(command, flat);
  std::vector<std::vector<dpia::Phrase>> phases(1);
  for (const dpia::Phrase& s : flat)
    if (isPhaseBoundary(s))
      phases.emplace_back();
    else if (!s->isPrim(dpia::primitive::barrier()))
      phases.back().push_back(s);
  if (phases.size() == 1)
    violations.rejectFirst(); // one kernel: the violations stand
  // per phase, the grid loops of each statement and of all of them
  struct PhaseLoops {
    std::vector<std::set<GridLoop>> used;
    std::set<GridLoop> all;
  };
  std::vector<PhaseLoops> loops;
  for (const auto& phase : phases) {
    PhaseLoops& p = loops.emplace_back();
    p.used.resize(phase.size());
    for (std::size_t i = 0; i < phase.size(); ++i) {
      gridLoops(phase[i], p.used[i]);
      p.all.insert(p.used[i].begin(), p.used[i].end());
    }
  }
  for (const PhaseLoops& p : loops) { // one hierarchy per phase (E0647)
    bool global = false, group = false;
    for (const GridLoop& g : p.all)
      (g.kind == GridKind::Global ? global : group) = true;
    if (global && group)
      violations.rejectMixed();
  }
  for (const PhaseLoops& p : loops)            // rule 7: every statement in every
    for (const std::set<GridLoop>& u : p.used) // dimension of its phase
      for (const GridLoop& g : p.all)
        if (!u.count(g))
          violations.reject(g);
}

} // namespace risec::codegen::opencl
