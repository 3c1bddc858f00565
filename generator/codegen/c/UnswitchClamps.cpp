// Stage 10, second half: the clamps of padClamp's scalar reads taken out of
// the innermost loops where they cannot bite (c/Unswitch.h).
#include "codegen/c/CPrinter.h"
#include "codegen/c/UnswitchInternal.h"

#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace risec::codegen::c {

namespace {

using Kind = ExprNode::Kind;

// padClamp's scalar reads index through a clamp, `xs[risec_min(n - 1, l + 32 * j)]`,
// which the C compiler vectorises, if at all, as one load per lane. Where the
// clamped index moves with the loop's index in one direction, the clamp does
// not bite in the whole loop if it does not bite at the end the index moves
// towards, a test made once before the loop.

/// A pre-rendered size expression (a Literal such as `l + 32 * j`, how
/// EmitNat prints a Nat) as the tree of its sums, differences and products of
/// names and integers; `e` itself if it is not a Literal or holds anything
/// else (a division, a call but risec_min and risec_max).
CExpr structured(const CExpr& e) {
  if (e->kind() != Kind::Literal)
    return e;
  const std::string& t = e->text();
  std::size_t at = 0;
  bool ok = true;
  auto skip = [&] {
    while (at < t.size() && t[at] == ' ')
      ++at;
  };
  auto peek = [&] {
    skip();
    return at < t.size() ? t[at] : '\0';
  };
  std::function<CExpr()> sum;
  std::function<CExpr()> factor = [&]() -> CExpr {
    char c = peek();
    if (c == '(') {
      ++at;
      CExpr inner = sum();
      ok = ok && peek() == ')';
      ++at;
      return inner;
    }
    if (c == '-') {
      ++at;
      return unary(COp::Neg, factor());
    }
    std::size_t start = at;
    while (at < t.size() && (std::isalnum(static_cast<unsigned char>(t[at])) || t[at] == '_'))
      ++at;
    ok = ok && at > start;
    std::string word = t.substr(start, at - start);
    if (ok && (word == "risec_min" || word == "risec_max") && peek() == '(') {
      ++at;
      CExpr first = sum();
      ok = ok && peek() == ',';
      ++at;
      CExpr second = sum();
      ok = ok && peek() == ')';
      ++at;
      return call(word, {first, second});
    }
    return !word.empty() && std::isdigit(static_cast<unsigned char>(word[0])) ? literal(word)
                                                                              : ident(word);
  };
  auto product = [&] {
    CExpr e = factor();
    while (ok && peek() == '*') {
      ++at;
      e = binary(COp::Mul, e, factor());
    }
    return e;
  };
  sum = [&] {
    CExpr e = product();
    while (ok && (peek() == '+' || peek() == '-')) {
      COp op = t[at++] == '+' ? COp::Add : COp::Sub;
      e = binary(op, e, product());
    }
    return e;
  };
  CExpr parsed = sum();
  ok = ok && peek() == '\0';
  return ok && parsed->kind() != Kind::Literal ? parsed : e; // a number stays itself
}

bool uses(const CExpr& e, const std::string& var) {
  return identifiersUsed({exprStmt(e)}).count(var) > 0;
}

/// How much `e` grows when `var` grows by one, if `e` is affine in `var`
/// with literal coefficients (`l + 32 * j`: 1 for l, 32 for j); nullopt if
/// it is not, or not pure (pureGuard).
std::optional<std::int64_t> slope(const CExpr& e, const std::string& var) {
  if (!pureGuard(e))
    return std::nullopt;
  if (!uses(e, var))
    return 0;
  if (CExpr parsed = structured(e); parsed != e)
    return slope(parsed, var);
  if (e->kind() == Kind::Ident)
    return 1; // `var` itself: uses() said so
  if (e->kind() == Kind::Unary && e->op() == COp::Neg)
    if (std::optional<std::int64_t> s = slope(e->operands()[0], var))
      return -*s;
  if (e->kind() != Kind::Binary)
    return std::nullopt; // a call, a ternary or a pre-rendered literal that uses var
  std::optional<std::int64_t> a = slope(e->operands()[0], var);
  std::optional<std::int64_t> b = slope(e->operands()[1], var);
  if (!a || !b)
    return std::nullopt;
  switch (e->op()) {
  case COp::Add:
    return *a + *b;
  case COp::Sub:
    return *a - *b;
  case COp::Mul:
    if (std::optional<std::int64_t> c = intValue(e->operands()[0]); c && *a == 0)
      return *c * *b;
    if (std::optional<std::int64_t> c = intValue(e->operands()[1]); c && *b == 0)
      return *c * *a;
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

/// `e` with the integer literals of its sum added into one term, last
/// (`31 + 32 * j` -> `32 * j + 31`, `128 * i + 7 + 8 * j` -> `128 * i + 8 * j + 7`).
CExpr constantLast(const CExpr& e) {
  std::vector<std::pair<bool, CExpr>> terms; // (negated, term)
  std::int64_t constant = 0;
  auto collect = [&](const CExpr& x, bool negated, auto& self) -> void {
    if (isBinary(x, COp::Add) || isBinary(x, COp::Sub)) {
      self(x->operands()[0], negated, self);
      self(x->operands()[1], negated != isBinary(x, COp::Sub), self);
    } else if (std::optional<std::int64_t> v = intValue(x)) {
      constant += negated ? -*v : *v;
    } else {
      terms.push_back({negated, x});
    }
  };
  collect(e, false, collect);
  if (terms.empty() || terms.front().first)
    return e;
  CExpr sum = terms.front().second;
  for (std::size_t i = 1; i < terms.size(); ++i)
    sum = binary(terms[i].first ? COp::Sub : COp::Add, sum, terms[i].second);
  if (constant != 0)
    sum = binary(constant > 0 ? COp::Add : COp::Sub, sum,
                 intLit(constant > 0 ? constant : -constant));
  return sum;
}

/// `lhs <= rhs`, as `lhs < y` when rhs is `y - 1`.
CExpr atMost(const CExpr& lhs, const CExpr& bound) {
  CExpr rhs = structured(bound);
  if (isBinary(rhs, COp::Sub))
    if (std::optional<std::int64_t> one = intValue(rhs->operands()[1]); one && *one == 1)
      return binary(COp::Lt, lhs, rhs->operands()[0]);
  return binary(COp::Le, lhs, bound);
}

/// A sum of integer multiples of terms (compared by their C text) and a
/// constant: enough to decide the tests of clamps whose sides cancel
/// (`w + 1 < w`, `-2 >= 0`).
struct Linear {
  std::map<std::string, std::int64_t> terms;
  std::int64_t constant = 0;
};

void addLinear(const CExpr& x, std::int64_t sign, Linear& out) {
  CExpr e = structured(x);
  if (std::optional<std::int64_t> v = intValue(e)) {
    out.constant += sign * *v;
  } else if (isBinary(e, COp::Add) || isBinary(e, COp::Sub)) {
    addLinear(e->operands()[0], sign, out);
    addLinear(e->operands()[1], isBinary(e, COp::Sub) ? -sign : sign, out);
  } else if (e->kind() == Kind::Unary && e->op() == COp::Neg) {
    addLinear(e->operands()[0], -sign, out);
  } else if (std::optional<std::int64_t> c =
                 isBinary(e, COp::Mul) ? intValue(e->operands()[0]) : std::nullopt) {
    addLinear(e->operands()[1], sign * *c, out);
  } else if (std::optional<std::int64_t> c =
                 isBinary(e, COp::Mul) ? intValue(e->operands()[1]) : std::nullopt) {
    addLinear(e->operands()[0], sign * *c, out);
  } else {
    out.terms[printExpr(e)] += sign;
  }
}

/// Whether `lhs < rhs` (`lhs <= rhs` if `orEqual`) holds for all values of
/// the variables: their difference is a constant, or it is once a
/// `risec_min(a, b)` added on the left is taken as `a` or as `b` (it is at
/// most either).
bool provedBelow(const CExpr& lhs, const CExpr& rhs, bool orEqual, int depth = 0) {
  Linear d;
  addLinear(rhs, 1, d);
  addLinear(lhs, -1, d);
  bool constant = true;
  for (const auto& [term, coefficient] : d.terms)
    constant = constant && coefficient == 0;
  if (constant)
    return orEqual ? d.constant >= 0 : d.constant > 0;
  if (depth > 2)
    return false;
  // the first risec_min among lhs's terms of coefficient +1
  std::optional<CExpr> min;
  auto find = [&](const CExpr& x, auto& self) -> void {
    CExpr e = structured(x);
    if (e->kind() == Kind::Call && e->text() == "risec_min" && e->operands().size() == 2)
      min = min ? min : e;
    else if (isBinary(e, COp::Add))
      for (const CExpr& o : e->operands())
        self(o, self);
    else if (isBinary(e, COp::Sub))
      self(e->operands()[0], self);
  };
  find(lhs, find);
  if (!min)
    return false;
  auto replaced = [&](const CExpr& by) {
    std::function<CExpr(const CExpr&)> go = [&](const CExpr& x) -> CExpr {
      if (exprEqual(x, *min))
        return by;
      return mapChildren(structured(x), go);
    };
    return mapChildren(structured(lhs), go);
  };
  return provedBelow(replaced((*min)->operands()[0]), rhs, orEqual, depth + 1) ||
         provedBelow(replaced((*min)->operands()[1]), rhs, orEqual, depth + 1);
}

/// A test `a < b`, `a <= b` or `a >= b` decided for all values, if it can be.
std::optional<bool> decided(const CExpr& test) {
  const CExpr& a = test->operands()[0];
  const CExpr& b = test->operands()[1];
  if (isBinary(test, COp::Ge))
    return provedBelow(b, a, true)    ? std::optional<bool>(true)
           : provedBelow(a, b, false) ? std::optional<bool>(false)
                                      : std::nullopt;
  bool orEqual = isBinary(test, COp::Le);
  if (provedBelow(a, b, orEqual))
    return true;
  if (provedBelow(b, a, !orEqual))
    return false;
  return std::nullopt;
}

/// A clamp of a subscript in the loop and the test under which it is its
/// moving argument.
struct Clamp {
  CExpr call;      ///< `risec_min(a, e)` or `risec_max(a, e)`
  CExpr unclamped; ///< e
  CExpr condition; ///< e at the end it moves towards, against a
};

std::optional<Clamp> clampOf(const CExpr& e, const CountingLoop& loop,
                             const std::set<std::string>& changed) {
  if (e->kind() != Kind::Call || (e->text() != "risec_min" && e->text() != "risec_max") ||
      e->operands().size() != 2)
    return std::nullopt;
  for (int side = 0; side < 2; ++side) {
    const CExpr& bound = e->operands()[side];
    const CExpr& moving = e->operands()[1 - side];
    bool invariant = pureGuard(bound);
    for (const std::string& v : identifiersUsed({exprStmt(bound)}))
      invariant = invariant && !changed.count(v);
    bool onlyTheIndex = true;
    for (const std::string& v : identifiersUsed({exprStmt(moving)}))
      onlyTheIndex = onlyTheIndex && (v == loop.var || !changed.count(v));
    std::optional<std::int64_t> s = slope(moving, loop.var);
    if (!invariant || !onlyTheIndex || !s || *s == 0)
      continue;
    bool min = e->text() == "risec_min";
    // min bites at the largest value of e, max at the smallest
    const CExpr& at = (*s > 0) == min ? loop.last : loop.first;
    CExpr extreme = constantLast(substituteFolded(moving, loop.var, at));
    CExpr test = min ? atMost(extreme, bound) : binary(COp::Ge, extreme, bound);
    // structured: a pre-rendered `p + 8 * j` in `k * risec_min(m - 1, ...)`
    // must print in parentheses
    return Clamp{e, structured(moving), test};
  }
  return std::nullopt;
}

/// `e` with each clamp of an expression in `var` taken as that expression.
CExpr withoutClampsOf(const CExpr& e, const std::string& var) {
  if (e->kind() == Kind::Call && (e->text() == "risec_min" || e->text() == "risec_max") &&
      e->operands().size() == 2 && uses(e->operands()[0], var) != uses(e->operands()[1], var))
    return withoutClampsOf(structured(e->operands()[uses(e->operands()[0], var) ? 0 : 1]), var);
  return mapChildren(structured(e), [&](const CExpr& o) { return withoutClampsOf(o, var); });
}

/// A clamp inside a subscript of `e` (`xs[... risec_min(...) ...]`) that is
/// not in `skipped`, with the subscript it is in.
std::optional<std::pair<Clamp, CExpr>> clampInSubscript(const CExpr& e, const CExpr& subscript,
                                                        const CountingLoop& loop,
                                                        const std::set<std::string>& changed,
                                                        const std::vector<CExpr>& skipped) {
  if (subscript)
    if (std::optional<Clamp> c = clampOf(e, loop, changed)) {
      bool skip = false;
      for (const CExpr& x : skipped)
        skip = skip || exprEqual(x, e);
      if (!skip)
        return std::pair{*c, subscript};
    }
  std::optional<std::pair<Clamp, CExpr>> found;
  const auto& ops = e->operands();
  for (std::size_t i = 0; i < ops.size() && !found; ++i) {
    const CExpr& inner = subscript                            ? subscript
                         : e->kind() == Kind::Index && i == 1 ? ops[i]
                                                              : nullptr;
    found = clampInSubscript(ops[i], inner, loop, changed, skipped);
  }
  return found;
}

/// `a + (b + c)` as `a + b + c` (and `a + (b - c)` as `a + b - c`): the
/// same index, printed without the parentheses that unclamping a call in
/// a sum would leave (`B[n * i + (l + 32 * j)]`).
CExpr leftAssociated(const CExpr& e) {
  if (e->kind() != Kind::Binary || e->op() != COp::Add)
    return e;
  const CExpr& rhs = e->operands()[1];
  if (rhs->kind() != Kind::Binary || (rhs->op() != COp::Add && rhs->op() != COp::Sub))
    return e;
  CExpr head = leftAssociated(binary(COp::Add, e->operands()[0], rhs->operands()[0]));
  return leftAssociated(binary(rhs->op(), head, rhs->operands()[1]));
}

CExpr unclamp(const CExpr& e, const Clamp& c) {
  if (exprEqual(e, c.call))
    return c.unclamped;
  return leftAssociated(mapChildren(e, [&](const CExpr& o) { return unclamp(o, c); }));
}

bool hasLoop(const std::vector<CStmt>& body) {
  for (const CStmt& s : body)
    if (s->kind() == StmtNode::Kind::For || hasLoop(s->body()) || hasLoop(s->elseBody()))
      return true;
  return false;
}

} // namespace

std::optional<CountingLoop> countingLoopOf(const CStmt& loop,
                                           const std::set<std::string>& changed) {
  const CStmt& init = loop->forInit();
  if (!init || init->kind() != StmtNode::Kind::Decl || !init->init() || !loop->expr() ||
      !loop->forStep())
    return std::nullopt;
  const std::string& var = init->name();
  const CExpr& cond = loop->expr();
  const CExpr& step = loop->forStep();
  bool byOne = isBinary(step, COp::AddAssign) && step->operands()[0]->kind() == Kind::Ident &&
               step->operands()[0]->text() == var && intValue(step->operands()[1]) == 1;
  if (!byOne || !isBinary(cond, COp::Lt) || cond->operands()[0]->kind() != Kind::Ident ||
      cond->operands()[0]->text() != var)
    return std::nullopt;
  CExpr first = init->init(), end = cond->operands()[1];
  for (const CExpr& bound : {first, end})
    for (const std::string& v : identifiersUsed({exprStmt(bound)}))
      if (changed.count(v) || !pureGuard(bound))
        return std::nullopt;
  CExpr last = substituteFolded(binary(COp::Sub, end, intLit(1)), var, intLit(0));
  return CountingLoop{var, first, last};
}

/// `e` with `var` replaced by `by` and integer literals folded where they
/// meet (`0 + 32 * j` -> `32 * j`, `(32 - 1)` -> `31`, a literal term last).
CExpr substituteFolded(const CExpr& e, const std::string& var, const CExpr& by) {
  if (e->kind() == Kind::Ident && e->text() == var)
    return by;
  if (CExpr parsed = structured(e); parsed != e)
    return substituteFolded(parsed, var, by);
  CExpr r = mapChildren(e, [&](const CExpr& o) { return substituteFolded(o, var, by); });
  if (r->kind() != Kind::Binary)
    return r;
  std::optional<std::int64_t> a = intValue(r->operands()[0]), b = intValue(r->operands()[1]);
  COp op = r->op();
  if (a && b && (op == COp::Add || op == COp::Sub || op == COp::Mul))
    return intLit(op == COp::Add ? *a + *b : op == COp::Sub ? *a - *b : *a * *b);
  if ((op == COp::Add && a && *a == 0) || (op == COp::Mul && a && *a == 1))
    return r->operands()[1];
  if (((op == COp::Add || op == COp::Sub) && b && *b == 0) || (op == COp::Mul && b && *b == 1))
    return r->operands()[0];
  if (op == COp::Mul && ((a && *a == 0) || (b && *b == 0)))
    return intLit(0);
  return r;
}

/// The innermost loop `loop` without the clamps of its subscripts that
/// cannot bite in it, versioned on those of the subscripts that step by one
/// element (the loads a C compiler vectorises once they are unclamped):
/// `if (32 * j + 31 < n) { the loop without them } else { loop }`; null if
/// there are none.
CStmt versionOnClamps(const CStmt& loop) {
  if (hasLoop(loop->body()) || declares(loop->body()))
    return nullptr;
  std::set<std::string> changed;
  changedIn(loop, changed);
  std::optional<CountingLoop> counting = countingLoopOf(loop, changed);
  if (!counting)
    return nullptr;
  std::vector<CStmt> kept = loop->body(); // without the clamps that cannot bite
  std::vector<CStmt> fast = kept;         // and without the versioned ones
  std::vector<CExpr> skipped;
  CExpr conjunction;
  for (;;) {
    std::optional<std::pair<Clamp, CExpr>> found;
    auto inStatement = [&](const CStmt& s, auto& self) -> void {
      forEachChild(
          s,
          [&](const CExpr& e) {
            if (!found)
              found = clampInSubscript(e, nullptr, *counting, changed, skipped);
          },
          [&](const CStmt& c) { self(c, self); });
    };
    for (const CStmt& s : fast)
      inStatement(s, inStatement);
    if (!found)
      break;
    // not a structured binding: Clang before 16 cannot capture one (the
    // libFuzzer build, tests/fuzz/run)
    const auto& clamp = found->first;
    const auto& subscript = found->second;
    auto without = [&](std::vector<CStmt>& body) {
      for (CStmt& s : body)
        s = mapExpressions(s, [&](const CExpr& e) { return unclamp(e, clamp); });
    };
    std::optional<bool> holds = decided(clamp.condition);
    std::optional<std::int64_t> step =
        slope(withoutClampsOf(subscript, counting->var), counting->var);
    if (holds == std::optional<bool>(true)) {
      without(kept);
      without(fast);
    } else if (!holds && step && (*step == 1 || *step == -1)) {
      without(fast);
      conjunction = conjunction ? binary(COp::And, conjunction, clamp.condition) : clamp.condition;
    } else {
      skipped.push_back(clamp.call); // always bites, or the loads would stay apart
    }
  }
  if (!conjunction && kept == loop->body())
    return nullptr;
  CStmt plain = replaceBodies(loop, kept, {});
  if (!conjunction)
    return plain;
  return ifStmt(conjunction, {replaceBodies(loop, std::move(fast), {})}, std::vector<CStmt>{plain});
}

} // namespace risec::codegen::c
