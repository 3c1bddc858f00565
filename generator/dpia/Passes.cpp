#include "dpia/Passes.h"

#include "dpia/Imperative.h"
#include "dpia/Parallel.h"
#include "dpia/Primitive.h"
#include "support/Diagnostic.h"

#include <set>

namespace risec::dpia {

Phrase unrollLoops(const Phrase& command) {
  Phrase c = mapChildren(command, unrollLoops);
  if (!c->isPrim(primitive::forLoop()) || !forUnroll(c))
    return c;
  const rise::Nat& n = forCount(c);
  if (!n->isConst() || n->value() > kMaxUnroll)
    return c; // stays a loop (still marked unroll in --dump=imperative)
  std::vector<Phrase> copies;
  for (std::int64_t k = 0; k < n->value(); ++k) {
    rise::TypeSubst s;
    s.nats[forIndex(c)->var().id] = rise::natConst(k);
    copies.push_back(substitute(c->args()[0], s));
  }
  return seq(std::move(copies));
}

namespace {

class Hoister {
public:
  Hoister(const std::function<bool(const Phrase&)>& hoist, std::vector<HoistedAllocation>& out)
      : hoist_(hoist), out_(out) {}

  Phrase run(const Phrase& c) {
    if (isLoop(c)) {
      std::uint64_t id = forIndex(c)->var().id;
      inner_.insert(id);
      std::uint64_t outerParallel = parallel_;
      if (isParallelLoop(c)) {
        parallel_ = id;
        loops_.push_back(c);
      }
      Phrase r = mapChildren(c, [&](const Phrase& x) { return run(x); });
      if (isParallelLoop(c))
        loops_.pop_back();
      parallel_ = outerParallel;
      inner_.erase(id);
      return r;
    }
    if (c->isPrim(primitive::newVar()) && hoist_(c)) {
      const rise::Type& dt = c->dataArg(0);
      std::function<void(const rise::Type&)> check = [&](const rise::Type& t) {
        if (t->kind() == rise::TypeKind::Array) {
          rise::natForEachVar(t->size(), [&](const rise::NatVarInfo& v) {
            if (inner_.count(v.id))
              throw InternalError("hoistAllocations: the size of `" + c->tag() +
                                  "` depends on the loop index `" + v.name + "`");
          });
          check(t->elem());
        }
      };
      check(dt);
      const Phrase& f = c->args()[0];
      out_.push_back({f->param(), dt, c->tag(), parallel_, c, loops_});
      return run(f->body());
    }
    return mapChildren(c, [&](const Phrase& x) { return run(x); });
  }

private:
  const std::function<bool(const Phrase&)>& hoist_;
  std::vector<HoistedAllocation>& out_;
  std::vector<Phrase> loops_; ///< enclosing parallel loops
  std::set<std::uint64_t> inner_;
  std::uint64_t parallel_ = 0; ///< index of the innermost parallel loop
};

} // namespace

Phrase hoistAllocations(const Phrase& command, const std::function<bool(const rise::Type&)>& hoist,
                        std::vector<HoistedAllocation>& out) {
  std::function<bool(const Phrase&)> onNew = [&](const Phrase& c) { return hoist(c->dataArg(0)); };
  return Hoister(onNew, out).run(command);
}

Phrase hoistAllocationsIf(const Phrase& command, const std::function<bool(const Phrase&)>& hoist,
                          std::vector<HoistedAllocation>& out) {
  return Hoister(hoist, out).run(command);
}

} // namespace risec::dpia
