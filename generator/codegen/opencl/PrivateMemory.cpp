#include "codegen/opencl/PrivateMemory.h"

#include "codegen/c/EmitC.h"
#include "codegen/c/EmitTypes.h"
#include "codegen/opencl/Temporaries.h"
#include "support/Diagnostic.h"

#include <algorithm>

namespace risec::codegen::opencl {

namespace {

/// Whether `index` is exactly the index variable of `loop`.
bool atOwnIndex(const rise::Nat& index, const GridLoopRef& loop) {
  return index && index->kind() == rise::NatKind::Var && index->var().id == loop.index;
}

std::string rule1() {
  return "rule 1 of the mapping constraints: private memory belongs to one work-item";
}

/// The array and vector dimensions of `t`, outermost first.
std::vector<rise::Type> dimensions(rise::Type t) {
  std::vector<rise::Type> r;
  for (; t->kind() == rise::TypeKind::Array || t->kind() == rise::TypeKind::Vec; t = t->elem())
    r.push_back(t);
  return r;
}

} // namespace

void PrivateMemoryCheck::declare(std::uint64_t id, const dpia::Phrase& newCommand,
                                 const std::string& name, const std::vector<GridLoopRef>& around) {
  if (temporaries_.emplace(id, Temporary{newCommand, name, around.size(), {}}).second)
    order_.push_back(id);
}

void PrivateMemoryCheck::access(std::uint64_t id, const std::vector<rise::Nat>& indices,
                                const std::string& spelled, bool read, bool write,
                                const std::vector<GridLoopRef>& around) {
  auto it = temporaries_.find(id);
  if (it == temporaries_.end())
    return;
  Temporary& t = it->second;
  Access a{indices, spelled, read || !write, write || !read, {}};
  a.loops.assign(around.begin() + static_cast<std::ptrdiff_t>(std::min(t.depth, around.size())),
                 around.end());
  t.accesses.push_back(std::move(a));
}

void PrivateMemoryCheck::access(std::uint64_t id, const rise::Nat& index,
                                const std::string& spelled, bool read, bool write,
                                const std::vector<GridLoopRef>& around) {
  access(id, index ? std::vector<rise::Nat>{index} : std::vector<rise::Nat>{}, spelled, read, write,
         around);
}

std::vector<const GridLoopRef*> PrivateMemoryCheck::owners(const Temporary& t, bool& whole) const {
  whole = false;
  auto distributedWrite = std::find_if(t.accesses.begin(), t.accesses.end(),
                                       [](const Access& a) { return a.write && !a.loops.empty(); });
  if (distributedWrite == t.accesses.end())
    return {}; // every work-item writes its whole copy itself
  const GridLoopRef& first = distributedWrite->loops.front();
  std::string head = describeTemporary(t.command) + " (`" + t.name +
                     "`) is private memory, one copy per work-item, and the `" + first.origin +
                     "` loop writes its elements on different work-items; but ";
  std::string fix =
      " (" + rule1() +
      "); keep it in memory the work-items share (toLocal or oclToMem(Local) inside a "
      "mapWorkGroup, oclIterate(Local) for iterate's buffers, toGlobal), or make the loops "
      "that write and read it sequential (mapSeq), or declare it inside the loop (one "
      "temporary per iteration)";
  std::size_t rank = dimensions(t.command->dataArg(0)).size();
  auto notOwn = [&](const Access& a, const GridLoopRef& loop, std::size_t dim) {
    std::string own = t.name;
    for (std::size_t d = 0; d < std::max<std::size_t>(rank, 1); ++d)
      own += d == dim || rank <= 1 ? "[" + loop.name + "]" : "[*]";
    return CompileError("E0648", t.command->loc(),
                        head + "the `" + loop.origin + "` loop over `" + loop.name + "` " +
                            (a.write && !a.read ? "writes" : "reads") + " `" + t.name +
                            (a.spelled.empty() ? "`" : "[" + a.spelled + "]`") + ", not only its " +
                            (rank > 1 ? "own elements `" : "own element `") + own +
                            "`, so it may see an element another work-item wrote" + fix);
  };
  // the dimension each loop of the first distributed write owns
  std::vector<const GridLoopRef*> owner(rank);
  std::vector<std::pair<GridLoop, std::size_t>> owned; // grid loop, dimension
  for (const GridLoopRef& loop : distributedWrite->loops) {
    const std::vector<rise::Nat>& ix = distributedWrite->indices;
    auto at =
        std::find_if(ix.begin(), ix.end(), [&](const rise::Nat& i) { return atOwnIndex(i, loop); });
    if (at == ix.end() || ix.size() != rank)
      throw notOwn(*distributedWrite, loop, 0);
    std::size_t dim = static_cast<std::size_t>(at - ix.begin());
    owner[dim] = &loop;
    owned.push_back({loop.grid, dim});
  }
  for (const Access& a : t.accesses) {
    if (a.loops.empty()) {
      if (a.read)
        throw CompileError("E0648", t.command->loc(),
                           head +
                               "it is also read outside that loop, where each work-item "
                               "sees only the elements it wrote itself" +
                               fix);
      whole = true; // written whole by every work-item
      continue;
    }
    for (const auto& [ownedGrid, dim] : owned) {
      const auto& grid = ownedGrid; // a lambda may not capture a structured binding (clang 14)
      auto loop = std::find_if(a.loops.begin(), a.loops.end(),
                               [&](const GridLoopRef& l) { return l.grid == grid; });
      if (loop == a.loops.end())
        throw CompileError("E0648", t.command->loc(),
                           head + "it is also accessed inside `" + a.loops.back().origin +
                               "`, whose iterations run on other work-items" + fix);
      if (a.indices.size() != rank || !atOwnIndex(a.indices[dim], *loop))
        throw notOwn(a, *loop, dim);
    }
    // a read inside a further grid loop runs on fewer work-items, each
    // reading its own elements; a write there would leave the elements of
    // the other work-items unwritten
    for (const GridLoopRef& loop : a.loops)
      if (a.write && std::none_of(owned.begin(), owned.end(),
                                  [&](const auto& o) { return o.first == loop.grid; }))
        throw CompileError("E0648", t.command->loc(),
                           head + "it is also accessed inside `" + loop.origin +
                               "`, whose iterations run on other work-items" + fix);
  }
  return owner;
}

void PrivateMemoryCheck::check() const {
  for (std::uint64_t id : order_) {
    bool whole = false;
    owners(temporaries_.at(id), whole);
  }
}

std::map<std::uint64_t, PrivateLayout>
PrivateMemoryCheck::layouts(const std::map<GridLoop, std::int64_t>& strides) const {
  std::map<std::uint64_t, PrivateLayout> r;
  for (std::uint64_t id : order_) {
    const Temporary& t = temporaries_.at(id);
    const rise::Type& type = t.command->dataArg(0);
    if (type->kind() != rise::TypeKind::Array)
      continue; // scalars, vectors and pairs: placed before (Temporaries.h)
    bool whole = false;
    std::vector<const GridLoopRef*> owner = owners(t, whole);
    std::vector<rise::Type> dims = dimensions(type);
    PrivateLayout layout;
    bool distributed = false, couldBe = false;
    std::int64_t count = 1;
    for (std::size_t k = 0; k < dims.size(); ++k) {
      std::int64_t n = dims[k]->size()->isConst() ? dims[k]->size()->value() : -1;
      std::int64_t divisor = 1;
      if (!whole && k < owner.size() && owner[k] && dims[k]->kind() == rise::TypeKind::Array) {
        auto s = strides.find(owner[k]->grid);
        if (s != strides.end() && s->second > 0)
          divisor = s->second;
        else
          couldBe = true;
      }
      if (dims[k]->kind() == rise::TypeKind::Array)
        layout.divisors.push_back(divisor);
      distributed |= divisor > 1;
      count = n < 0 || count < 0 ? -1 : count * ((n + divisor - 1) / divisor);
    }
    std::int64_t bytes =
        count < 0 ? -1 : count * c::TypeMapper::bytes(c::TypeMapper::innermost(type));
    if (bytes < 0 || bytes > c::kStackLimitBytes) {
      std::string perItem =
          bytes < 0 ? "" : "; this one holds " + std::to_string(bytes) + " bytes per work-item";
      std::string own;
      if (couldBe) {
        std::string owners;
        for (const GridLoopRef* o : owner)
          if (o && owners.find(o->origin) == std::string::npos)
            owners += std::string(owners.empty() ? "" : ", ") + "`" + o->origin + "`";
        own = "; every work-item accesses only its own elements (those of its iterations of " +
              owners +
              "), so with a constant local size at compile time (`risec compile --launch "
              "'global=[...],local=[...]'`) each would hold only those";
      }
      throw CompileError(
          "E0631", t.command->loc(),
          "this value of type `" + rise::typeToString(type) + "` is stored in a private " +
              "temporary (" + describeTemporary(t.command) + ", `" + t.name +
              "`), which is too large for private memory (at most " +
              std::to_string(c::kStackLimitBytes) + " bytes of a constant size" + perItem + own +
              "); store it explicitly in local memory (`|> toLocal`, with a constant tile size) "
              "or global memory (`|> toGlobal`)");
    }
    if (distributed)
      r[id] = layout;
  }
  return r;
}

} // namespace risec::codegen::opencl
