// Guarded writes (codegen/c/Emitter.h; docs/dpia.md, "accT / conT"): a write
// through take(n) in acceptor position (discardTailAcc) happens only while
// `index < n`, and assignment guards it with `if`. A sequential loop whose
// writes (other than to its own locals) are all guarded stops at the first
// iteration from which they all fail: a constant, or a Nat of the sizes and
// the indices of the loops around it (fixed while it runs), simplified. The
// guards that hold in every iteration before that end are then dropped from
// its body, so that the code reads as a person writes it:
//
//   for (int j = 0; j < risec_min(32, h - 32 * i); j += 1)   // not j < 32
//     for (int k = 0; k < w; k += 1)
//       output[k + w * j + 32 * w * i] = ...;                 // no `if`
//
// which C compilers vectorise (a store under an `if` they do not), and in
// which they see every element of a temporary written (fuzz finding R3).
// OpenCL keeps its loops and guards as they are: a sequential loop there may
// hold a barrier, which every work-item of a work-group must reach the same
// number of times, and an end that depends on a work-item's indices would
// break that.
#include "codegen/c/Emitter.h"

namespace risec::codegen::c {

namespace {

/// `cond` without the conjuncts in `drop` (null when none is left); the
/// conjuncts left are the same nodes, so that another loop may drop them.
CExpr withoutConjuncts(const CExpr& cond, const std::set<const ExprNode*>& drop) {
  if (drop.count(cond.get()))
    return nullptr;
  if (!isBinary(cond, COp::And))
    return cond;
  CExpr l = withoutConjuncts(cond->operands()[0], drop);
  CExpr r = withoutConjuncts(cond->operands()[1], drop);
  if (!l || !r)
    return l ? l : r;
  return replaceOperands(cond, {l, r});
}

/// `body` with the conditions in `drop` taken out of its `if`s; an `if`
/// left with no condition becomes its statements.
std::vector<CStmt> withoutConditions(const std::vector<CStmt>& body,
                                     const std::set<const ExprNode*>& drop) {
  std::vector<CStmt> out;
  for (const CStmt& s : body) {
    CStmt t = mapBodies(s, [&](const std::vector<CStmt>& b) { return withoutConditions(b, drop); });
    if (t->kind() == StmtNode::Kind::If && !t->hasElse()) {
      CExpr cond = withoutConjuncts(t->expr(), drop);
      if (!cond) {
        out.insert(out.end(), t->body().begin(), t->body().end());
        continue;
      }
      if (cond != t->expr())
        t = ifStmt(cond, t->body());
    }
    out.push_back(t);
  }
  return out;
}

} // namespace

void Emitter::noteWrite(const std::vector<Path::Bound>& guards,
                        const std::vector<CExpr>& conditions, const std::string& target) {
  for (LoopWrites& loop : loopWrites_) {
    if (loop.locals.count(target))
      continue;
    if (guards.empty())
      loop.unguarded = true;
    // the write happens only before the first iteration where a guard fails
    Nat end = loop.count;
    for (std::size_t g = 0; g < guards.size(); ++g) {
      std::optional<GuardEnd> e = guardEnd(loop, guards[g]);
      if (!e)
        continue;
      end = rise::natMin(end, e->end);
      if (e->exact && g < conditions.size())
        loop.exact.push_back({conditions[g], e->end});
    }
    if (!loop.unguarded)
      loop.needed = loop.needed ? rise::natMax(loop.needed, end) : end;
  }
}

std::optional<Emitter::GuardEnd> Emitter::guardEnd(const LoopWrites& loop, const Path::Bound& g) {
  const std::uint64_t j = loop.index->var().id;
  if (!rise::natContainsVar(g.index, j) || rise::natContainsVar(g.bound, j))
    return std::nullopt;
  // index = a*j + rest with a > 0 and rest and the bound fixed during the
  // loop: the guard holds exactly while a*j < bound - rest, that is while
  // j < ceil((bound - rest)/a) (any sign: below 0 no iteration writes)
  auto fixed = [&](const Nat& n) {
    bool all = true;
    rise::natForEachVar(n, [&](const rise::NatVarInfo& v) { all = all && loop.fixed.count(v.id); });
    return all;
  };
  const Nat rest = rise::natSubstitute(g.index, {{j, rise::natConst(0)}});
  const Nat a = rise::natSubstitute(g.index, {{j, rise::natConst(1)}}) - rest;
  if (a->isConst() && a->value() > 0 && rise::natEqual(g.index, rest + a * loop.index) &&
      fixed(rest) && fixed(g.bound)) {
    const Nat room = g.bound - rest;
    return GuardEnd{a->isConst(1) ? room : (room + (a->value() - 1)) / a->value(), true};
  }
  if (!loop.count->isConst() || !g.bound->isConst())
    return std::nullopt;
  // otherwise, with constants: the guard is false for every iteration from
  // m on when index, with the loop's index m + w (w >= 0), is at least the
  // bound for every value of the other indices (their ranges: interval
  // analysis)
  const std::int64_t count = loop.count->value();
  const Nat w = rise::natVar("w", rise::natConst(0));
  auto falseFrom = [&](std::int64_t m) {
    auto low = rise::natConstLowerBound(rise::natSubstitute(g.index, {{j, rise::natConst(m) + w}}));
    return low && *low >= g.bound->value();
  };
  if (!falseFrom(count))
    return std::nullopt;
  std::int64_t lo = 0, hi = count; // falseFrom(hi)
  while (lo < hi) {
    std::int64_t mid = lo + (hi - lo) / 2;
    if (falseFrom(mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  if (!falseFrom(lo))
    return std::nullopt;
  return GuardEnd{rise::natConst(lo), false};
}

CExpr Emitter::boundedEnd(const LoopWrites& loop, std::vector<CStmt>& body) {
  if (opencl())
    return nats_.bare(loop.count);
  // iterations whose writes are all discarded are not run; an end that the
  // simplifier leaves as a max over the writes (or that runs no iteration)
  // is not worth it: such loops keep their count
  Nat end = loop.count;
  const Nat& needed = loop.needed;
  if (!loop.unguarded && needed && needed->kind() != rise::NatKind::Max &&
      !(needed->isConst() && needed->value() <= 0))
    end = needed;
  std::set<const ExprNode*> drop;
  for (const LoopWrites::Guard& g : loop.exact)
    if (rise::proveLessEqual(end, g.end))
      drop.insert(g.condition.get());
  if (!drop.empty())
    body = withoutConditions(body, drop);
  if (!natEqual(end, loop.count))
    resimplifySubscripts(loop, end, body);
  return nats_.bare(end);
}

void Emitter::resimplifySubscripts(const LoopWrites& loop, const Nat& end,
                                   std::vector<CStmt>& body) {
  // the index with its narrower range, for the simplifier; then back
  const rise::NatVarInfo& j = loop.index->var();
  const Nat narrowed = rise::natVar(j.name, rise::natConst(0), end);
  std::function<CExpr(const CExpr&)> again = [&](const CExpr& e) -> CExpr {
    auto it = clampedSubscripts_.find(e.get());
    if (it == clampedSubscripts_.end())
      return mapChildren(e, again);
    const Nat& before = it->second.second;
    if (!rise::natContainsVar(before, j.id))
      return e;
    Nat after = rise::natSubstitute(rise::natSubstitute(before, {{j.id, narrowed}}),
                                    {{narrowed->var().id, loop.index}});
    if (rise::natEqual(after, before))
      return e;
    CExpr printed = nats_.bare(after);
    if (rise::natContainsMinOrMax(after)) // an outer loop may narrow it further
      clampedSubscripts_[printed.get()] = {printed, after};
    return printed;
  };
  for (CStmt& s : body)
    s = mapExpressions(s, again);
}

} // namespace risec::codegen::c
