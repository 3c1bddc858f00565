#include "codegen/opencl/PrivateMemory.h"

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

} // namespace

void PrivateMemoryCheck::declare(std::uint64_t id, const dpia::Phrase& newCommand,
                                 const std::string& name, const std::vector<GridLoopRef>& around) {
  if (temporaries_.emplace(id, Temporary{newCommand, name, around.size(), {}}).second)
    order_.push_back(id);
}

void PrivateMemoryCheck::access(std::uint64_t id, const rise::Nat& index,
                                const std::string& spelled, bool read, bool write,
                                const std::vector<GridLoopRef>& around) {
  auto it = temporaries_.find(id);
  if (it == temporaries_.end())
    return;
  Temporary& t = it->second;
  Access a{index, spelled, read || !write, write || !read, {}};
  a.loops.assign(around.begin() + static_cast<std::ptrdiff_t>(std::min(t.depth, around.size())),
                 around.end());
  t.accesses.push_back(std::move(a));
}

void PrivateMemoryCheck::check() const {
  for (std::uint64_t id : order_) {
    const Temporary& t = temporaries_.at(id);
    auto distributedWrite = std::find_if(t.accesses.begin(), t.accesses.end(), [](const Access& a) {
      return a.write && !a.loops.empty();
    });
    if (distributedWrite == t.accesses.end())
      continue; // every work-item writes its whole copy itself
    const GridLoopRef& owner = distributedWrite->loops.front();
    std::string head = describeTemporary(t.command) + " (`" + t.name +
                       "`) is private memory, one copy per work-item, and the `" + owner.origin +
                       "` loop writes its elements on different work-items; but ";
    std::string fix =
        " (" + rule1() +
        "); keep it in memory the work-items share (toLocal or oclToMem(Local) inside a "
        "mapWorkGroup, oclIterate(Local) for iterate's buffers, toGlobal), or make the loops "
        "that write and read it sequential (mapSeq), or declare it inside the loop (one "
        "temporary per iteration)";
    for (const Access& a : t.accesses) {
      if (a.loops.empty()) {
        if (a.read)
          throw CompileError("E0648", t.command->loc(),
                             head +
                                 "it is also read outside that loop, where each work-item "
                                 "sees only the elements it wrote itself" +
                                 fix);
        continue; // written whole by every work-item
      }
      if (a.loops.size() > 1 || a.loops.front().origin != owner.origin)
        throw CompileError("E0648", t.command->loc(),
                           head + "it is also accessed inside `" + a.loops.back().origin +
                               "`, whose iterations run on other work-items" + fix);
      const GridLoopRef& loop = a.loops.front();
      if (!atOwnIndex(a.index, loop))
        throw CompileError("E0648", t.command->loc(),
                           head + "the `" + loop.origin + "` loop over `" + loop.name + "` " +
                               (a.write && !a.read ? "writes" : "reads") + " `" + t.name +
                               (a.spelled.empty() ? "`" : "[" + a.spelled + "]`") +
                               ", not only its own element `" + t.name + "[" + loop.name +
                               "]`, so it may see an element another work-item wrote" + fix);
    }
  }
}

} // namespace risec::codegen::opencl
