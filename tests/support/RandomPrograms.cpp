#include "RandomPrograms.h"

#include <functional>

namespace risec::testsupport {

std::uint64_t Rng::below(std::uint64_t n) {
  // The largest multiple of n that fits: values above it would favour small results.
  const std::uint64_t limit = n * (~std::uint64_t{0} / n);
  std::uint64_t v;
  do
    v = engine_();
  while (v >= limit);
  return v % n;
}

std::int64_t Rng::range(std::int64_t lo, std::int64_t hi) {
  return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo + 1)));
}

std::vector<std::int64_t> divisors(std::int64_t n) {
  std::vector<std::int64_t> d;
  for (std::int64_t k = 1; k <= n; ++k)
    if (n % k == 0)
      d.push_back(k);
  return d;
}

namespace {

/// The data type of an intermediate: `dims.f32`, or `dims.(f32, f32)` right
/// after a zip; a scalar f32 when dims is empty.
struct Shape {
  std::vector<std::int64_t> dims;
  bool pair = false;

  std::size_t rank() const { return dims.size(); }
  std::int64_t elements() const {
    std::int64_t n = 1;
    for (std::int64_t d : dims)
      n *= d;
    return n;
  }
  Shape row() const { return Shape{std::vector<std::int64_t>(dims.begin() + 1, dims.end()), pair}; }
  bool operator==(const Shape& o) const { return dims == o.dims && pair == o.pair; }
};

std::string typeText(const Shape& s) {
  std::string t;
  for (std::int64_t d : s.dims)
    t += std::to_string(d) + ".";
  return t + (s.pair ? "(f32, f32)" : "f32");
}

/// An expression with its shape. `text` is a pipeline (`a |> f |> g`), so it
/// is parenthesised where it is used as an operand.
struct Term {
  std::string text;
  Shape shape;
};

using Scope = std::vector<Term>; ///< variables in scope (lambda and entry parameters)

// Moderate constants keep magnitudes small after a few operations.
const std::vector<std::string> kConstants = {"0.5f", "2.0f", "1.0f", "0.25f", "1.5f", "3.0f"};
constexpr std::size_t kMaxRank = 3;

class Generator {
public:
  Generator(Rng& rng, const GeneratorOptions& opts) : rng_(rng), opts_(opts) {}

  RandomProgram program();

private:
  Term pipeline(Term t, int ops, int nesting, std::int64_t budget, const Scope& scope);
  bool step(Term& t, int nesting, std::int64_t budget, const Scope& scope);

  // The operations; each returns false when it does not fit `t`.
  bool mapElements(Term& t, int nesting, std::int64_t budget, const Scope& scope);
  bool mapPairs(Term& t, const Scope& scope);
  bool reduce(Term& t);
  bool zip(Term& t, const Scope& scope);
  bool cartesian(Term& t, std::int64_t budget, const Scope& scope);
  bool split(Term& t);
  bool join(Term& t);
  bool transpose(Term& t);
  bool slide(Term& t, std::int64_t budget);
  bool pad(Term& t, std::int64_t budget);

  std::string scalarLambda(const Scope& scope);
  std::string scalarExpr(const std::vector<std::string>& leaves, int depth);
  std::vector<std::string> outerLeaves(const Scope& scope);

  std::string fresh(const std::string& base) { return base + std::to_string(counter_++); }
  static void append(Term& t, const std::string& op) { t.text += " |> " + op; }

  Rng& rng_;
  const GeneratorOptions& opts_;
  int counter_ = 0;
};

RandomProgram Generator::program() {
  const std::int64_t n = rng_.range(1, opts_.maxDim), m = rng_.range(1, opts_.maxDim);
  Scope inputs;
  switch (rng_.below(4)) {
  case 0: // x: n.f32
    inputs = {{"x", {{n}}}};
    break;
  case 1: // x, y: n.f32 (zip partners)
    inputs = {{"x", {{n}}}, {"y", {{n}}}};
    break;
  case 2: // x: n.m.f32
    inputs = {{"x", {{n, m}}}};
    break;
  default: // x: n.m.f32, y: m.f32 (matrix-vector like)
    inputs = {{"x", {{n, m}}}, {"y", {{m}}}};
    break;
  }
  Term start = inputs[rng_.below(inputs.size())];
  if (start.shape.rank() < inputs[0].shape.rank() && rng_.chance(1, 2))
    start = inputs[0];
  Term body =
      pipeline(start, static_cast<int>(rng_.range(1, opts_.maxOps)), 0, opts_.maxElements, inputs);
  std::string text = body.text;
  for (auto it = inputs.rbegin(); it != inputs.rend(); ++it)
    text = "fun(" + it->text + ": " + typeText(it->shape) + " => " + text + ")";
  return RandomProgram{"def f = " + text + "\n", "f"};
}

Term Generator::pipeline(Term t, int ops, int nesting, std::int64_t budget, const Scope& scope) {
  for (int i = 0; i < ops; ++i)
    if (!step(t, nesting, budget, scope))
      break;
  // A pair array is only a zip's intermediate: combine it before anyone else sees it.
  if (t.shape.pair)
    mapPairs(t, scope);
  return t;
}

bool Generator::step(Term& t, int nesting, std::int64_t budget, const Scope& scope) {
  if (t.shape.pair)
    return mapPairs(t, scope);
  if (t.shape.rank() == 0)
    return false;
  std::vector<std::function<bool()>> ops = {
      [&] { return mapElements(t, nesting, budget, scope); },
      [&] { return mapElements(t, nesting, budget, scope); },
      [&] { return reduce(t); },
      [&] { return zip(t, scope); },
      [&] { return cartesian(t, budget, scope); },
      [&] { return split(t); },
      [&] { return join(t); },
      [&] { return transpose(t); },
      [&] { return slide(t, budget); },
      [&] { return pad(t, budget); },
  };
  rng_.shuffle(ops);
  for (auto& op : ops)
    if (op())
      return true;
  return false;
}

bool Generator::mapElements(Term& t, int nesting, std::int64_t budget, const Scope& scope) {
  if (t.shape.rank() == 1) {
    append(t, "map(" + scalarLambda(scope) + ")");
    return true;
  }
  // A point-free map nest is what the movement rules match (`map(map(f)) >> transpose`).
  if (nesting >= 2 * opts_.maxNesting || rng_.chance(1, 2)) {
    std::string f = scalarLambda(scope);
    for (std::size_t i = 0; i < t.shape.rank(); ++i)
      f = "map(" + f + ")";
    append(t, f);
    return true;
  }
  const std::string r = fresh("r");
  Scope inner = scope;
  inner.push_back({r, t.shape.row()});
  const std::int64_t rows = t.shape.dims[0];
  Term body = pipeline({r, t.shape.row()}, static_cast<int>(rng_.range(1, 2)), nesting + 1,
                       budget / rows, inner);
  append(t, "map(fun(" + r + " => " + body.text + "))");
  t.shape.dims.resize(1);
  t.shape.dims.insert(t.shape.dims.end(), body.shape.dims.begin(), body.shape.dims.end());
  return true;
}

bool Generator::mapPairs(Term& t, const Scope& scope) {
  const std::string p = fresh("p");
  std::vector<std::string> leaves = {"fst(" + p + ")", "snd(" + p + ")"};
  std::vector<std::string> outer = outerLeaves(scope);
  leaves.insert(leaves.end(), outer.begin(), outer.end());
  // Use both components so that the zip matters.
  static const std::vector<std::string> kOps = {" + ", " * ", " - "};
  std::string body = "fst(" + p + ")" + rng_.pick(kOps) + scalarExpr(leaves, 1);
  if (rng_.chance(1, 4)) // a pair built and projected at once (the rule projectPair's shape)
    body = rng_.chance(1, 2) ? "fst((" + body + ", " + scalarExpr(leaves, 1) + "))"
                             : "snd((" + scalarExpr(leaves, 1) + ", " + body + "))";
  append(t, "map(fun(" + p + " => " + body + "))");
  t.shape.pair = false;
  return true;
}

bool Generator::reduce(Term& t) {
  if (t.shape.rank() != 1)
    return false;
  std::uint64_t which = rng_.below(6);
  if (which == 0 && t.shape.dims[0] <= 4)
    append(t, "reduce(mul)(1.0f)");
  else if (which == 1)
    append(t, "reduce(max)(-100.0f)");
  else
    append(t, "reduce(add)(0.0f)");
  t.shape.dims.clear();
  return true;
}

bool Generator::zip(Term& t, const Scope& scope) {
  if (t.shape.rank() != 1)
    return false;
  std::vector<std::string> partners;
  for (const Term& v : scope)
    if (v.shape == t.shape)
      partners.push_back(v.text);
  std::string partner = !partners.empty() && rng_.chance(2, 3)
                            ? rng_.pick(partners)
                            : t.text + " |> map(" + scalarLambda(scope) + ")";
  if (rng_.chance(1, 2))
    t.text = "zip(" + t.text + ")(" + partner + ")";
  else
    t.text = "zip(" + partner + ")(" + t.text + ")";
  t.shape.pair = true;
  return true;
}

/// Every element of t with every element of a vector in scope: the
/// cartesian map nest `map(fun(a => v |> map(fun(b => e))))` of mm and of
/// the tiling rules (tile, padTile, loopInterchange).
bool Generator::cartesian(Term& t, std::int64_t budget, const Scope& scope) {
  if (t.shape.rank() != 1)
    return false;
  std::vector<Term> partners;
  for (const Term& v : scope)
    if (v.shape.rank() == 1 && !v.shape.pair && t.shape.dims[0] * v.shape.dims[0] <= budget)
      partners.push_back(v);
  if (partners.empty())
    return false;
  const Term& v = rng_.pick(partners);
  const std::string a = fresh("a"), b = fresh("b");
  std::vector<std::string> leaves = {a, b};
  static const std::vector<std::string> kOps = {" + ", " * ", " - "};
  std::string body = a + rng_.pick(kOps) + b;
  if (rng_.chance(1, 2))
    body = "(" + body + ")" + rng_.pick(kOps) + scalarExpr(leaves, 1);
  append(t, "map(fun(" + a + " => " + v.text + " |> map(fun(" + b + " => " + body + "))))");
  t.shape.dims.push_back(v.shape.dims[0]);
  return true;
}

bool Generator::split(Term& t) {
  if (t.shape.rank() == 0 || t.shape.rank() >= kMaxRank)
    return false;
  std::vector<std::int64_t> ks = divisors(t.shape.dims[0]);
  std::int64_t k = rng_.pick(ks);
  append(t, "split(" + std::to_string(k) + ")");
  std::int64_t n = t.shape.dims[0];
  t.shape.dims[0] = k;
  t.shape.dims.insert(t.shape.dims.begin(), n / k);
  return true;
}

bool Generator::join(Term& t) {
  if (t.shape.rank() < 2)
    return false;
  append(t, "join");
  t.shape.dims[1] *= t.shape.dims[0];
  t.shape.dims.erase(t.shape.dims.begin());
  return true;
}

bool Generator::transpose(Term& t) {
  if (t.shape.rank() < 2)
    return false;
  append(t, "transpose");
  std::swap(t.shape.dims[0], t.shape.dims[1]);
  return true;
}

bool Generator::slide(Term& t, std::int64_t budget) {
  if (t.shape.rank() == 0 || t.shape.rank() >= kMaxRank)
    return false;
  const std::int64_t n = t.shape.dims[0], rest = t.shape.elements() / n;
  std::vector<std::pair<std::int64_t, std::int64_t>> fits;
  for (std::int64_t sz = 1; sz <= std::min<std::int64_t>(n, 4); ++sz)
    for (std::int64_t sp = 1; sp <= sz; ++sp)
      if ((n - sz) % sp == 0 && ((n - sz) / sp + 1) * sz * rest <= budget)
        fits.push_back({sz, sp});
  if (fits.empty())
    return false;
  auto [sz, sp] = rng_.pick(fits);
  append(t, "slide(" + std::to_string(sz) + ", " + std::to_string(sp) + ")");
  t.shape.dims[0] = sz;
  t.shape.dims.insert(t.shape.dims.begin(), (n - sz) / sp + 1);
  return true;
}

bool Generator::pad(Term& t, std::int64_t budget) {
  if (t.shape.rank() != 1)
    return false;
  std::int64_t l = rng_.range(0, 2), r = rng_.range(0, 2);
  if (t.shape.dims[0] + l + r > budget)
    return false;
  static const std::vector<std::string> kPads = {"0.0f", "1.0f", "0.5f"};
  append(t,
         "padCst(" + std::to_string(l) + ", " + std::to_string(r) + ", " + rng_.pick(kPads) + ")");
  t.shape.dims[0] += l + r;
  return true;
}

/// `fun(v => e)` over an f32, or a primitive used point-free.
std::string Generator::scalarLambda(const Scope& scope) {
  if (rng_.chance(1, 8))
    return rng_.chance(1, 2) ? "neg" : "fabs";
  const std::string v = fresh("v");
  std::vector<std::string> leaves = {v, v};
  std::vector<std::string> outer = outerLeaves(scope);
  leaves.insert(leaves.end(), outer.begin(), outer.end());
  return "fun(" + v + " => " + scalarExpr(leaves, static_cast<int>(rng_.range(0, 2))) + ")";
}

/// Values computed from enclosing binders: free variables of the lambdas, so
/// that fission, fusion and substitution meet captured names.
std::vector<std::string> Generator::outerLeaves(const Scope& scope) {
  std::vector<std::string> leaves;
  for (const Term& v : scope)
    if (v.shape.rank() == 1 && !v.shape.pair && v.shape.dims[0] <= 8 && rng_.chance(1, 4))
      leaves.push_back("(" + v.text + " |> reduce(add)(0.0f))");
  return leaves;
}

std::string Generator::scalarExpr(const std::vector<std::string>& leaves, int depth) {
  if (depth <= 0 || rng_.chance(1, 4))
    return rng_.chance(3, 4) ? rng_.pick(leaves) : rng_.pick(kConstants);
  switch (rng_.below(5)) {
  case 0:
    return "(" + scalarExpr(leaves, depth - 1) + " + " + scalarExpr(leaves, depth - 1) + ")";
  case 1:
    return "(" + scalarExpr(leaves, depth - 1) + " - " + scalarExpr(leaves, depth - 1) + ")";
  case 2:
    return "fabs(" + scalarExpr(leaves, depth - 1) + ")";
  default: // a product with a constant keeps magnitudes moderate
    return "(" + scalarExpr(leaves, depth - 1) + " * " + rng_.pick(kConstants) + ")";
  }
}

} // namespace

RandomProgram randomProgram(Rng& rng, const GeneratorOptions& opts) {
  return Generator(rng, opts).program();
}

} // namespace risec::testsupport
