#include "codegen/c/Unswitch.h"
#include "codegen/c/CPrinter.h"
#include "codegen/c/UnswitchInternal.h"

#include <cstdlib>
#include <optional>
#include <set>
#include <string>

namespace risec::codegen::c {

using Kind = ExprNode::Kind;

namespace {

bool nonZeroLiteral(const CExpr& e) {
  return e->kind() == Kind::Literal && intValue(e).value_or(0) != 0;
}

} // namespace

/// An integer literal's value (decimal digits, optionally negated).
std::optional<std::int64_t> intValue(const CExpr& e) {
  if (e->kind() == Kind::Literal && !e->text().empty() &&
      e->text().find_first_not_of("0123456789") == std::string::npos && e->text().size() < 18)
    return std::stoll(e->text());
  if (e->kind() == Kind::Unary && e->op() == COp::Neg)
    if (std::optional<std::int64_t> v = intValue(e->operands()[0]))
      return -*v;
  return std::nullopt;
}

/// Integer arithmetic that may be evaluated once before the loop instead of
/// in every iteration: no memory, no side effect, nothing that can trap.
bool pureGuard(const CExpr& e) {
  auto operandsPure = [&] { return !anyChild(e, [](const CExpr& o) { return !pureGuard(o); }); };
  switch (e->kind()) {
  case Kind::Ident:
    return true;
  case Kind::Literal: // a pre-rendered size may hold a division by a size
    return e->text().find_first_of("/%") == std::string::npos;
  case Kind::Unary:
    return (e->op() == COp::Neg || e->op() == COp::Not || e->op() == COp::BitNot) && operandsPure();
  case Kind::Binary:
    if (isAssignment(e))
      return false;
    if ((e->op() == COp::Div || e->op() == COp::Mod) && !nonZeroLiteral(e->operands()[1]))
      return false;
    return operandsPure();
  case Kind::Ternary:
    return operandsPure();
  case Kind::Call:
    return (e->text() == "risec_min" || e->text() == "risec_max") && operandsPure();
  default: // Index, Member, Cast, Compound
    return false;
  }
}

/// Whether a statement in `body` (a loop's) declares a variable: a loop
/// that computes values of its own per iteration (harris' fused stages) is a
/// long body, in which a guard costs little, and which two copies would make
/// hard to read.
bool declares(const std::vector<CStmt>& body) {
  for (const CStmt& s : body)
    if (s->kind() == StmtNode::Kind::Decl || declares(s->body()) || declares(s->elseBody()))
      return true;
  return false; // a loop's own index is its init statement, not in its body
}

/// The variables `s` declares or assigns (loop indices included).
void changedIn(const CStmt& s, std::set<std::string>& out) {
  if (s->kind() == StmtNode::Kind::Decl)
    out.insert(s->name());
  auto onExpr = [&](const CExpr& e, auto& self) -> void {
    bool incDec = e->kind() == Kind::Unary && (e->op() == COp::PreInc || e->op() == COp::PreDec);
    if (isAssignment(e) || incDec)
      if (const ExprNode* v = writtenVariable(e->operands()[0].get()))
        out.insert(v->text());
    forEachChild(e, [&](const CExpr& o) { self(o, self); });
  };
  forEachChild(
      s, [&](const CExpr& e) { onExpr(e, onExpr); }, [&](const CStmt& c) { changedIn(c, out); });
}

namespace {

/// An invariant guard and the value the copy takes it as: the one whose
/// branch reads memory (`c ? 0.0f : xs[i]` is taken as false), true when
/// both or neither do.
struct Guard {
  CExpr condition;
  bool value = true;
};

bool readsMemory(const CExpr& e) {
  if (e->kind() == Kind::Index || (e->kind() == Kind::Unary && e->op() == COp::Deref))
    return true;
  return anyChild(e, readsMemory);
}

/// The first guard in `e` (the condition of a ternary) that is pure and reads
/// none of `changed`.
std::optional<Guard> invariantGuard(const CExpr& e, const std::set<std::string>& changed) {
  if (e->kind() == Kind::Ternary) {
    const CExpr& c = e->operands()[0];
    std::set<std::string> used = identifiersUsed({exprStmt(c)});
    bool invariant = !used.empty();
    for (const std::string& v : used)
      invariant = invariant && !changed.count(v);
    if (invariant && pureGuard(c))
      return Guard{c, readsMemory(e->operands()[1]) || !readsMemory(e->operands()[2])};
  }
  std::optional<Guard> found;
  forEachChild(e, [&](const CExpr& o) {
    if (!found)
      found = invariantGuard(o, changed);
  });
  return found;
}

std::optional<Guard> invariantGuard(const CStmt& s, const std::set<std::string>& changed) {
  std::optional<Guard> found;
  forEachChild(
      s,
      [&](const CExpr& e) {
        if (!found)
          found = invariantGuard(e, changed);
      },
      [&](const CStmt& c) {
        if (!found)
          found = invariantGuard(c, changed);
      });
  return found;
}

/// `c` if `value`, else its negation (`a < b` -> `a >= b`).
CExpr taken(const CExpr& c, bool value) {
  if (value)
    return c;
  if (c->kind() == Kind::Binary) {
    static const std::pair<COp, COp> opposite[] = {{COp::Lt, COp::Ge}, {COp::Le, COp::Gt},
                                                   {COp::Gt, COp::Le}, {COp::Ge, COp::Lt},
                                                   {COp::Eq, COp::Ne}, {COp::Ne, COp::Eq}};
    for (const auto& [op, neg] : opposite)
      if (c->op() == op)
        return binary(neg, c->operands()[0], c->operands()[1]);
  }
  return unary(COp::Not, c);
}

/// `__builtin_convertvector(v, T)` (VectorTypes::exactly) of a `v` that has
/// type T already: a conversion to T or a compound literal of T. A ternary
/// that mixed a vector load with another vector converts both to the value
/// type; once it is resolved to the load, the two conversions nest.
CExpr withoutRedundantConversion(const CExpr& e) {
  if (e->kind() != Kind::Call || e->text() != "__builtin_convertvector" ||
      e->operands().size() != 2 || e->operands()[1]->kind() != Kind::Ident)
    return e;
  const CExpr& v = e->operands()[0];
  const std::string& to = e->operands()[1]->text();
  bool converted = v->kind() == Kind::Call && v->text() == e->text() && v->operands().size() == 2 &&
                   exprEqual(v->operands()[1], e->operands()[1]);
  bool literal = v->kind() == Kind::Compound && printType(v->type()) == to;
  return converted || literal ? v : e;
}

/// `e` with every ternary of condition `guard` replaced by the branch that
/// `value` selects.
CExpr resolve(const CExpr& e, const CExpr& guard, bool value) {
  if (e->kind() == Kind::Ternary && exprEqual(e->operands()[0], guard))
    return resolve(e->operands()[value ? 1 : 2], guard, value);
  return withoutRedundantConversion(
      mapChildren(e, [&](const CExpr& o) { return resolve(o, guard, value); }));
}

/// Whether a ternary in `s` chooses a read of memory (`c ? xs[i] : 0.0f`).
bool readsUnderAGuard(const CExpr& e) {
  if (e->kind() == Kind::Ternary &&
      (readsMemory(e->operands()[1]) || readsMemory(e->operands()[2])))
    return true;
  return anyChild(e, readsUnderAGuard);
}

bool readsUnderAGuard(const CStmt& s) {
  return anyChild(
      s, [](const CExpr& e) { return readsUnderAGuard(e); },
      [](const CStmt& c) { return readsUnderAGuard(c); });
}

/// Whether every read under a guard in `e` is under guards that `changed`
/// (what the innermost loop around it changes; null: no loop inside the one
/// being versioned) does not change, so that the inner loop is versioned on
/// them in turn.
bool guardsInvariantInner(const CExpr& e, const std::set<std::string>* changed) {
  if (e->kind() == Kind::Ternary &&
      (readsMemory(e->operands()[1]) || readsMemory(e->operands()[2]))) {
    const CExpr& c = e->operands()[0];
    std::set<std::string> used = identifiersUsed({exprStmt(c)});
    if (!changed || used.empty() || !pureGuard(c))
      return false;
    for (const std::string& v : used)
      if (changed->count(v))
        return false;
  }
  return !anyChild(e, [&](const CExpr& o) { return !guardsInvariantInner(o, changed); });
}

bool guardsInvariantInner(const CStmt& s, const std::set<std::string>* changed) {
  if (s->kind() == StmtNode::Kind::For) {
    if (declares(s->body())) // not versioned (unswitchLoop)
      return !readsUnderAGuard(s);
    std::set<std::string> inner;
    changedIn(s, inner);
    return !anyChildStatement(s, [&](const CStmt& c) { return !guardsInvariantInner(c, &inner); });
  }
  return !anyChild(
      s, [&](const CExpr& e) { return !guardsInvariantInner(e, changed); },
      [&](const CStmt& c) { return !guardsInvariantInner(c, changed); });
}

/// The loop `loop` versioned on its invariant guards, or null: the guards
/// taken one after the other, each as the value whose branch reads memory (a
/// guard inside the branch that another one removes is not taken), until
/// none is left, if that leaves no read under a guard but under guards that
/// an inner loop does not change (versioned there: the clamp of a vector
/// load, invariant in a loop over k, around padReduce's guard, invariant
/// in a loop inside it); then `if (g1 && !g2 ...) { that copy } else { loop }`.
CStmt unswitchLoop(const CStmt& loop) {
  if (declares(loop->body()) || !readsUnderAGuard(loop))
    return nullptr;
  std::set<std::string> changed;
  changedIn(loop, changed);
  CStmt fast = loop;
  CExpr conjunction;
  std::vector<Guard> takenGuards;
  for (;;) {
    std::optional<Guard> guard;
    for (const CStmt& s : fast->body())
      if (!guard)
        guard = invariantGuard(s, changed);
    if (!guard)
      break;
    fast = mapExpressions(
        fast, [&](const CExpr& e) { return resolve(e, guard->condition, guard->value); });
    CExpr c = taken(guard->condition, guard->value);
    conjunction = conjunction ? binary(COp::And, conjunction, c) : c;
    takenGuards.push_back(*guard);
  }
  if (!conjunction)
    return nullptr;
  // The copy run when the test fails: with one guard taken, that guard has
  // the other value there, so its choices are made too (and the loops inside
  // are not versioned on it again, a copy that could never run).
  CStmt other = loop;
  if (takenGuards.size() == 1) {
    const Guard& g = takenGuards.front();
    other = mapExpressions(loop, [&](const CExpr& e) { return resolve(e, g.condition, !g.value); });
  }
  if (!readsUnderAGuard(fast))
    return ifStmt(conjunction, {fast}, std::vector<CStmt>{mapBodies(other, unswitchLoops)});
  bool inner =
      !anyChildStatement(fast, [](const CStmt& c) { return !guardsInvariantInner(c, nullptr); });
  if (!inner)
    return nullptr;
  return ifStmt(conjunction, {mapBodies(fast, unswitchLoops)},
                std::vector<CStmt>{mapBodies(other, unswitchLoops)});
}

} // namespace

std::vector<CStmt> unswitchLoops(const std::vector<CStmt>& body) {
  std::vector<CStmt> out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    const CStmt& s = body[i];
    bool afterPragma = i > 0 && body[i - 1]->kind() == StmtNode::Kind::Pragma;
    if (s->kind() == StmtNode::Kind::For && afterPragma) {
      out.push_back(keepNest(s, collapsed(body[i - 1]), unswitchLoops));
      continue;
    }
    if (s->kind() == StmtNode::Kind::For)
      if (CStmt unswitched = unswitchLoop(s); unswitched || (unswitched = versionOnClamps(s))) {
        out.push_back(unswitched);
        continue;
      }
    out.push_back(mapBodies(s, unswitchLoops));
  }
  return out;
}

} // namespace risec::codegen::c
