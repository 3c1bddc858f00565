#include "codegen/opencl/Barriers.h"

#include "codegen/opencl/GridLoop.h"
#include "dpia/Imperative.h"
#include "dpia/Parallel.h"
#include "dpia/Primitive.h"
#include "support/Diagnostic.h"

#include <vector>

namespace risec::codegen::opencl {

using dpia::Phrase;
using dpia::PhraseKind;

namespace {

/// Who performs an access, relative to the statement containing it.
enum Spread : unsigned {
  kOneItem = 0,      ///< each work-item on its own (no parallel loop around it)
  kInGroup = 1,      ///< distributed over the work-items of a group (mapLocal)
  kAcrossGroups = 2, ///< distributed over work-groups (mapWorkGroup, mapGlobal)
};

struct Use {
  bool read = false, write = false;
  unsigned readSpread = 0, writeSpread = 0;
};
using Uses = std::map<std::uint64_t, Use>;

void merge(Uses& into, const Uses& from) {
  for (const auto& [id, u] : from) {
    Use& v = into[id];
    v.read |= u.read;
    v.write |= u.write;
    v.readSpread |= u.readSpread;
    v.writeSpread |= u.writeSpread;
  }
}

/// How the iterations of `loop` spread the accesses to `t` over
/// work-items. A loop the temporary was allocated in gives every iteration
/// its own copy (a slice; for local memory inside mapWorkGroup, the group's
/// own buffer), so it spreads nothing.
unsigned spreadOf(const Phrase& loop, const SharedTemporary& t) {
  if (!loop->isPrim(dpia::primitive::parFor()) || t.ownLoops.count(dpia::forIndex(loop)->var().id))
    return kOneItem;
  std::optional<GridKind> kind = gridKind(loop);
  if (kind == GridKind::Local)
    return kInGroup;
  if (kind == GridKind::WorkGroup)
    return t.local ? kOneItem : kAcrossGroups; // every group has its own local memory
  return t.local ? kInGroup : kAcrossGroups;   // mapGlobal
}

/// The conflicts between earlier and later accesses: the first one (for the
/// message; one across work-groups first) and the fences all of them need.
struct Conflict {
  std::uint64_t id = 0;
  bool found = false;
  bool readAfterWrite = false;
  unsigned spread = 0;
  bool localFence = false, globalFence = false;
};

Conflict conflict(const Uses& before, const Uses& after,
                  const std::map<std::uint64_t, SharedTemporary>& shared) {
  Conflict c;
  for (const auto& [id, a] : after) {
    auto it = before.find(id);
    if (it == before.end())
      continue;
    const Use& b = it->second;
    bool raw = b.write && a.read && (b.writeSpread | a.readSpread);
    bool war = b.read && a.write && (b.readSpread | a.writeSpread);
    if (!raw && !war)
      continue;
    unsigned spread =
        (raw ? b.writeSpread | a.readSpread : 0) | (war ? b.readSpread | a.writeSpread : 0);
    if (!c.found || ((spread & kAcrossGroups) && !(c.spread & kAcrossGroups))) {
      c.id = id;
      c.readAfterWrite = raw;
      c.spread = spread;
    }
    c.found = true;
    (shared.at(id).local ? c.localFence : c.globalFence) = true;
  }
  return c;
}

/// What a statement accesses before its first barrier (`head`) and after
/// its last one (`tail`); both are everything if it has no barrier.
struct Summary {
  Uses head, tail;
  /// Every access, wherever it is: a barrier orders the work-items of one
  /// group only, so accesses spread over work-groups stay in conflict with
  /// everything before and after them, barriers or not.
  Uses all;
  bool barrier = false; ///< every work-item passes a barrier inside it
};

/// The reads and writes in `u` spread over work-groups.
Uses acrossGroups(const Uses& u) {
  Uses out;
  for (const auto& [id, use] : u) {
    Use a;
    a.read = use.read && (use.readSpread & kAcrossGroups);
    a.write = use.write && (use.writeSpread & kAcrossGroups);
    a.readSpread = a.read ? use.readSpread : 0;
    a.writeSpread = a.write ? use.writeSpread : 0;
    if (a.read || a.write)
      out[id] = a;
  }
  return out;
}

class BarrierPass {
public:
  explicit BarrierPass(const std::map<std::uint64_t, SharedTemporary>& shared) : shared_(shared) {}

  /// Inserts the barriers inside `c` (into `out`) and summarises it.
  Summary run(const Phrase& c, Phrase& out) {
    bool root = root_;
    root_ = false;
    if (c->isPrim(dpia::primitive::seq()))
      return block(c->args(), out, root);
    if (dpia::isLoop(c))
      return loop(c, out);
    if (c->isPrim(dpia::primitive::newVar())) {
      Summary s;
      out = dpia::mapChildren(c, [&](const Phrase& f) {
        Phrase body;
        s = run(f->body(), body);
        return dpia::lambda(f->param(), body);
      });
      return s;
    }
    out = c;
    Summary s;
    uses(c, {}, s.head);
    s.tail = s.head;
    s.all = s.head;
    return s;
  }

private:
  const std::map<std::uint64_t, SharedTemporary>& shared_;
  std::vector<Phrase> loops_; ///< the loops around the current statement, outermost first
  bool root_ = true;          ///< the next statement run() sees is the kernel's command

  static const Phrase& bodyOf(const Phrase& loop) {
    if (loop->args().size() != 1)
      throw InternalError("OpenCL barriers: a loop with " + std::to_string(loop->args().size()) +
                          " bodies");
    return loop->args()[0];
  }

  static void flatten(const std::vector<Phrase>& in, std::vector<Phrase>& out) {
    for (const Phrase& x : in)
      if (x->isPrim(dpia::primitive::seq()))
        flatten(x->args(), out);
      else
        out.push_back(x);
  }

  Summary loop(const Phrase& c, Phrase& out) {
    loops_.push_back(c);
    Phrase body;
    Summary b = block({bodyOf(c)}, body);
    if (!c->isPrim(dpia::primitive::parFor())) // a later iteration against an earlier one
      rejectAcrossGroups(b.all, b.all);
    // the end of one iteration against the start of the next
    Conflict x = conflict(reused(b.tail, c), reused(b.head, c), shared_);
    if (x.found) {
      body = dpia::seq({body, barrierFor(x, true)});
      b.tail.clear();
      b.barrier = true;
    }
    loops_.pop_back();
    out = dpia::mapChildren(c, [&](const Phrase&) { return body; });
    widen(b.head, c);
    widen(b.tail, c);
    widen(b.all, c);
    if (!b.barrier) {
      merge(b.head, b.tail);
      b.tail = b.head;
    }
    // a loop that may run no iteration passes no barrier
    const rise::Nat& n = dpia::forCount(c);
    b.barrier = b.barrier && n->isConst() && n->value() > 0;
    return b;
  }

  /// E0635 when an access of `after` depends on one of `before` and one of
  /// the two is spread over work-groups: barriers between them do not help.
  void rejectAcrossGroups(const Uses& before, const Uses& after) const {
    Conflict c = acrossGroupsConflict(before, after);
    if (c.found)
      barrierFor(c, false);
  }

  Conflict acrossGroupsConflict(const Uses& before, const Uses& after) const {
    Conflict c = conflict(acrossGroups(before), after, shared_);
    if (!c.found)
      c = conflict(before, acrossGroups(after), shared_);
    return c;
  }

  /// The accesses in `u` that the next iteration of `loop` may conflict
  /// with. The iterations of a parallel loop are independent (a map), except
  /// that a work-group runs its mapWorkGroup iterations one after another in
  /// the same local memory; a sequential loop keeps everything.
  Uses reused(const Uses& u, const Phrase& loop) const {
    if (!loop->isPrim(dpia::primitive::parFor()))
      return u;
    Uses out;
    if (gridKind(loop) != GridKind::WorkGroup)
      return out;
    for (const auto& [id, use] : u) {
      const SharedTemporary& t = shared_.at(id);
      if (t.local && t.ownLoops.count(dpia::forIndex(loop)->var().id))
        out[id] = use;
    }
    return out;
  }

  /// Adds the spread of `loop` to accesses summarised inside its body.
  void widen(Uses& u, const Phrase& loop) const {
    for (auto& [id, use] : u) {
      unsigned s = spreadOf(loop, shared_.at(id));
      if (use.read)
        use.readSpread |= s;
      if (use.write)
        use.writeSpread |= s;
    }
  }

  /// `phases`: the kernel's outermost sequence, where a dependency between
  /// work-groups starts a new phase (a new kernel) instead of E0635.
  Summary block(const std::vector<Phrase>& items, Phrase& out, bool phases = false) {
    std::vector<Phrase> flat;
    flatten(items, flat);
    Summary b;
    std::vector<Phrase> stmts;
    Uses pending;
    std::vector<Uses> phaseUses;      // what each finished phase accesses
    std::vector<Conflict> boundaries; // why each boundary is there
    for (const Phrase& x : flat) {
      Phrase y;
      Summary s = run(x, y);
      if (phases) {
        Conflict c = acrossGroupsConflict(b.all, s.all);
        if (c.found) { // the kernel ends here: everything before is done when the next starts
          stmts.push_back(phaseBoundary(shared_.at(c.id).comment));
          phaseUses.push_back(b.all);
          boundaries.push_back(c);
          b = Summary{};
          pending.clear();
        }
      }
      rejectAcrossGroups(b.all, s.all);
      merge(b.all, s.all);
      Conflict c = conflict(pending, s.head, shared_);
      if (c.found) {
        stmts.push_back(barrierFor(c, false));
        pending.clear();
        b.barrier = true;
      }
      if (!b.barrier)
        merge(b.head, s.head);
      if (s.barrier) {
        if (!b.barrier)
          merge(b.head, s.tail); // conservatively: the head ends at the first barrier
        b.barrier = true;
        pending = s.tail;
      } else {
        merge(pending, s.tail);
      }
      stmts.push_back(y);
    }
    b.tail = pending;
    out = dpia::seq(stmts);
    if (!boundaries.empty()) {
      // local memory does not outlive a kernel
      phaseUses.push_back(b.all);
      for (std::size_t p = 0; p + 1 < phaseUses.size(); ++p)
        for (const auto& [id, use] : phaseUses[p])
          for (std::size_t q = p + 1; q < phaseUses.size(); ++q)
            if (shared_.at(id).local && phaseUses[q].count(id))
              barrierFor(boundaries[p], false); // E0635, as without phases
    }
    return b;
  }

  /// The accesses of shared temporaries in `c`, spread by `inside`, the
  /// loops around them within the statement.
  void uses(const Phrase& c, std::vector<Phrase> inside, Uses& out) const {
    auto record = [&](std::uint64_t id, bool read, bool write) {
      const SharedTemporary& t = shared_.at(id);
      unsigned spread = kOneItem;
      for (const Phrase& l : inside)
        spread |= spreadOf(l, t);
      Use& u = out[id];
      if (read) {
        u.read = true;
        u.readSpread |= spread;
      }
      if (write) {
        u.write = true;
        u.writeSpread |= spread;
      }
    };
    if ((c->kind() == PhraseKind::Proj1 || c->kind() == PhraseKind::Proj2) &&
        c->of()->kind() == PhraseKind::Ident && shared_.count(c->of()->id())) {
      record(c->of()->id(), c->kind() == PhraseKind::Proj1, c->kind() == PhraseKind::Proj2);
      return;
    }
    if (c->kind() == PhraseKind::Ident && shared_.count(c->id())) {
      record(c->id(), true, true);
      return;
    }
    if (c->kind() == PhraseKind::Prim && dpia::isLoop(c))
      inside.push_back(c);
    dpia::mapChildren(c, [&](const Phrase& x) {
      uses(x, inside, out);
      return x;
    });
  }

  Phrase barrierFor(const Conflict& c, bool loopEnd) const {
    const SharedTemporary& t = shared_.at(c.id);
    if (c.spread & kAcrossGroups)
      throw CompileError("E0635", t.loc,
                         "`" + t.description +
                             "` is written and read by different work-groups (a mapWorkGroup or "
                             "mapGlobal loop accesses it before or after another loop does): that "
                             "needs a barrier between all work-items, which OpenCL does not have "
                             "inside a kernel (synchronizability, §4.6); split the kernel "
                             "in two (a dependency between two statements of the program's "
                             "outermost sequence, e.g. through `let(... |> toGlobal)`, is split "
                             "into two kernels: docs/dpia.md, \"Kernel phases\"), or restructure "
                             "so that each work-group only reads what its own work-items wrote "
                             "(mapWorkGroup around mapLocal loops)");
    for (const Phrase& l : loops_)
      if (l->isPrim(dpia::primitive::parFor()) && gridKind(l) != GridKind::WorkGroup)
        throw CompileError(
            "E0634", t.loc,
            "`" + t.description + "` needs a barrier inside a `" + l->tag() +
                "` loop, where work-items run different numbers of iterations, so not every "
                "work-item would reach it (synchronizability, §4.6); move the allocation and the "
                "loops that write and read it out of the `" +
                l->tag() + "` loop (e.g. into a mapWorkGroup body), or keep it private");
    std::string why = "barrier: " + t.comment;
    if (loopEnd)
      why += " is written again by the next iteration while other work-items may still read it";
    else if (c.readAfterWrite)
      why += " is read by other work-items";
    else
      why += " is overwritten while other work-items may still read it";
    return dpia::barrier(c.localFence, c.globalFence, why);
  }
};

} // namespace

Phrase insertBarriers(const Phrase& command,
                      const std::map<std::uint64_t, SharedTemporary>& shared) {
  if (shared.empty())
    return command;
  Phrase out;
  BarrierPass(shared).run(command, out);
  return out;
}

bool hasBarrier(const Phrase& command) {
  if (command->kind() == PhraseKind::Prim && command->isPrim(dpia::primitive::barrier()))
    return !isPhaseBoundary(command);
  bool found = false;
  dpia::mapChildren(command, [&](const Phrase& x) {
    found = found || hasBarrier(x);
    return x;
  });
  return found;
}

Phrase phaseBoundary(const std::string& why) {
  return dpia::barrier(false, false, why);
}

bool isPhaseBoundary(const Phrase& command) {
  return command->kind() == PhraseKind::Prim && command->isPrim(dpia::primitive::barrier()) &&
         !dpia::barrierLocal(command) && !dpia::barrierGlobal(command);
}

} // namespace risec::codegen::opencl
