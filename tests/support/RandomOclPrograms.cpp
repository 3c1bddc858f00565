#include "RandomOclPrograms.h"

#include <algorithm>
#include <functional>
#include <set>
#include <sstream>

namespace risec::testsupport {

using rise::interp::SizeEnv;

std::string RandomOclProgram::describe() const {
  std::ostringstream os;
  os << text;
  if (!sizeNames.empty()) {
    os << "// sizes:";
    for (const SizeEnv& s : sizes) {
      os << " ";
      bool first = true;
      for (const auto& [k, v] : s) {
        os << (first ? "" : ",") << k << "=" << v;
        first = false;
      }
    }
    os << "\n";
  }
  os << "// launches:";
  for (std::size_t i = 0; i < launches.size(); ++i)
    os << " [" << launches[i].str()
       << (i < launchNotes.size() && !launchNotes[i].empty() ? ", " + launchNotes[i] : "") << "]";
  os << "\n";
  if (!bent.empty()) {
    os << "// bent:";
    for (const std::string& b : bent)
      os << " [" << b << "]";
    os << "\n";
  }
  return os.str();
}

namespace {

/// The largest value a size parameter takes in a run (RandomOclProgram::sizes).
constexpr std::int64_t kMaxSizeValue = 4;

/// A size: coef*sym + off, or the constant `off` when `sym` is empty.
struct Dim {
  std::int64_t coef = 0;
  std::int64_t off = 0;
  std::string sym;

  static Dim constant(std::int64_t v) { return Dim{0, v, ""}; }
  static Dim symbolic(std::int64_t coef, const std::string& sym) { return Dim{coef, 0, sym}; }
  bool isConst() const { return sym.empty(); }
  /// The size as written in a RISE type: `8`, `n`, `(4*n)`, `(n + 2)`.
  std::string text() const {
    if (isConst())
      return std::to_string(off);
    std::string s = coef == 1 ? sym : std::to_string(coef) + "*" + sym;
    if (off > 0)
      s += " + " + std::to_string(off);
    else if (off < 0)
      s += " - " + std::to_string(-off);
    return coef == 1 && off == 0 ? s : "(" + s + ")";
  }
  /// The largest value in a run, for element budgets.
  std::int64_t upper() const { return isConst() ? off : coef * kMaxSizeValue + off; }
  bool operator==(const Dim& o) const { return coef == o.coef && off == o.off && sym == o.sym; }
};

using Dims = std::vector<Dim>;

std::string typeText(const Dims& dims) {
  std::string t;
  for (const Dim& d : dims)
    t += d.text() + ".";
  return t + "f32";
}

std::int64_t upperElements(const Dims& dims) {
  std::int64_t n = 1;
  for (const Dim& d : dims)
    n *= std::max<std::int64_t>(d.upper(), 1);
  return n;
}

bool allConst(const Dims& dims) {
  return std::all_of(dims.begin(), dims.end(), [](const Dim& d) { return d.isConst(); });
}

/// A RISE expression with the shape of its value: an array of `dims` of f32,
/// or, when `zipped`, `dims[0]` pairs of arrays of dims[1..] (a zip of two
/// arrays of `dims`), or a scalar (pair) when `dims` is empty.
struct Term {
  std::string text;
  Dims dims;
  bool zipped = false;

  std::size_t rank() const { return dims.size(); }
};

/// Where a sequential body runs: it decides which temporaries are legal.
enum class Ctx {
  Top,       ///< at kernel level, outside every parallel map
  Global,    ///< in a mapGlobal
  WorkGroup, ///< in a mapWorkGroup, outside its mapLocals
  Local,     ///< in a mapLocal
};

class Generator {
public:
  Generator(Rng& rng, const OclGeneratorOptions& opts) : rng_(rng), opts_(opts) {}

  RandomOclProgram program();

private:
  // ---- deliberate rule breaks ----
  /// Whether to take a deliberately illegal choice here; records `what`.
  bool bend(const std::string& what) {
    if (!bending_ || !rng_.chance(static_cast<std::uint64_t>(opts_.bendPercent), 100))
      return false;
    bent_.push_back(what);
    return true;
  }

  std::string fresh(const std::string& base) { return base + std::to_string(counter_++); }
  static std::string paren(const std::string& s) { return "(" + s + ")"; }

  // ---- inputs ----
  Dim randomDim(std::int64_t lo, std::int64_t hi, bool allowSym);
  Term input(const std::string& name, Dims dims);

  // ---- expressions ----
  std::pair<std::string, Term> enter(const Term& t);
  std::string scalarOf(const Term& e);
  std::string reduceToScalar(const Term& t, Ctx ctx);
  Term mapSeqAll(const Term& t);
  Term seqBody(const Term& t, Ctx ctx, int depth);
  std::string space(Ctx ctx, const Dims& stored);
  std::string iterateStep(const std::string& map, int k, const std::string& iter);
  std::string iterPrimitive(const std::string& legalSpace);
  std::string mapLevel(const std::string& kind, int dim);
  Term parNest(const Term& t, const std::vector<std::string>& levels,
               const std::function<Term(const Term&)>& leaf);

  // ---- views ----
  bool view(Term& t, bool allowRankChange);
  bool split(Term& t);
  bool join(Term& t);
  bool transpose(Term& t);
  bool slide(Term& t);
  bool pad(Term& t);
  bool tile(Term& t);
  bool innerView(Term& t);

  // ---- kernel shapes ----
  Term globalKernel();
  Term workGroupKernel();
  Term groupBody(const Term& chunk, const std::vector<int>& wgDims);
  /// (`rank`: of the array the levels map over.)
  std::vector<std::string> localLevels(const std::vector<int>& wgDims, std::size_t rank);
  Term oddKernel();

  void chooseLaunches(RandomOclProgram& p);

  Rng& rng_;
  const OclGeneratorOptions& opts_;
  int counter_ = 0;
  bool bending_ = false;
  std::vector<std::string> bent_;
  std::set<int> usedDims_;        ///< the dimensions of the parallel maps
  std::vector<std::string> syms_; ///< size parameters in use
  Term x_, y_;                    ///< the inputs: x always, y when `useY_`
  bool useY_ = false, useA_ = false, haveA_ = false;
};

// ---- inputs ------------------------------------------------------------------------

Dim Generator::randomDim(std::int64_t lo, std::int64_t hi, bool allowSym) {
  if (allowSym && !syms_.empty() && rng_.chance(1, 2)) {
    static const std::vector<std::int64_t> kCoefs = {1, 1, 2, 4};
    return Dim::symbolic(rng_.pick(kCoefs), rng_.pick(syms_));
  }
  return Dim::constant(rng_.range(lo, hi));
}

Term Generator::input(const std::string& name, Dims dims) {
  return Term{name, std::move(dims), false};
}

// ---- expressions -----------------------------------------------------------------------

/// The binder of a map over `t` and the term its function sees.
std::pair<std::string, Term> Generator::enter(const Term& t) {
  std::string b = fresh(t.zipped ? "p" : (t.rank() > 1 ? "r" : "v"));
  Term e;
  e.dims.assign(t.dims.begin() + 1, t.dims.end());
  e.zipped = t.zipped;
  e.text = t.zipped && !e.dims.empty() ? "zip(fst(" + b + "), snd(" + b + "))" : b;
  return {b, e};
}

/// A scalar expression of the rank-0 term `e` (a pair of scalars when zipped).
std::string Generator::scalarOf(const Term& e) {
  const std::string& v = e.text;
  if (e.zipped) {
    static const std::vector<std::string> kPair = {"fst(@) + snd(@)", "fst(@) * snd(@)",
                                                   "fst(@) - 2.0f * snd(@)", "max(fst(@), snd(@))"};
    std::string f = rng_.pick(kPair), out;
    for (char c : f)
      out += c == '@' ? v : std::string(1, c);
    return out;
  }
  std::vector<std::string> forms = {
      "@", "@ * 2.0f", "@ + 1.0f", "@ * @", "max(@, 0.0f)", "fabs(@) - 0.5f", "0.5f * @ - 1.0f"};
  if (haveA_)
    forms.push_back("a * @");
  std::string f = rng_.pick(forms), out;
  for (char c : f)
    out += c == '@' ? v : std::string(1, c);
  if (out.find("a * ") == 0)
    useA_ = true;
  return out;
}

/// The sum of f(element) over all elements of `t`, as nested sequential
/// reductions (a scalar expression).
std::string Generator::reduceToScalar(const Term& t, Ctx ctx) {
  if (t.rank() == 0)
    return scalarOf(t);
  auto [b, e] = enter(t);
  std::string acc = fresh("acc");
  std::string where = "Private";
  // The accumulator in another address space: local memory is only legal
  // inside a mapWorkGroup, outside its mapLocals; global memory anywhere.
  if (rng_.chance(1, 10))
    where = ctx == Ctx::WorkGroup ? "Local" : "Global";
  else if (ctx != Ctx::WorkGroup && bend("oclReduceSeq(Local) outside a work-group's body"))
    where = "Local";
  return paren(t.text + " |> oclReduceSeq(" + where + ")(fun(" + acc + ", " + b + " => " + acc +
               " + " + paren(reduceToScalar(e, ctx)) + "))(0.0f)");
}

/// `t` with every element mapped by a scalar function (sequential loops).
Term Generator::mapSeqAll(const Term& t) {
  if (t.rank() == 0)
    return Term{scalarOf(t), {}, false};
  auto [b, e] = enter(t);
  Term inner = mapSeqAll(e);
  Term out{t.text + " |> mapSeq(fun(" + b + " => " + inner.text + "))", {t.dims[0]}, false};
  out.dims.insert(out.dims.end(), inner.dims.begin(), inner.dims.end());
  return out;
}

/// ` |> toPrivate` and the like: the address space of a temporary of shape
/// `stored` written in context `ctx`, mostly a legal one.
std::string Generator::space(Ctx ctx, const Dims& stored) {
  const bool smallConst = allConst(stored) && upperElements(stored) * 4 <= 1024;
  if (ctx == Ctx::WorkGroup) {
    if (bend("a work-group temporary in private memory"))
      return " |> toPrivate";
    if (!allConst(stored) && bend("a local temporary of symbolic size"))
      return " |> toLocal";
    if (!allConst(stored) || rng_.chance(1, 5))
      return rng_.chance(1, 2) ? " |> toGlobal" : " |> oclToMem(Global)";
    return rng_.chance(3, 4) ? " |> toLocal" : " |> oclToMem(Local)";
  }
  if (bend("local memory in a work-item's code"))
    return " |> toLocal";
  if (!smallConst && !bend("a large or symbolic private temporary"))
    return " |> toGlobal";
  if (rng_.chance(1, 4))
    return " |> toGlobal";
  return rng_.chance(3, 4) ? " |> toPrivate" : " |> oclToMem(Private)";
}

/// A sequential body for `t` in context `ctx` (no parallel maps).
Term Generator::seqBody(const Term& t, Ctx ctx, int depth) {
  if (t.rank() == 0) {
    std::string s = scalarOf(t);
    if (rng_.chance(1, 8))
      s = "toPrivate(" + s + ")";
    return Term{s, {}, false};
  }
  // In a work-group's body outside the mapLocals every map would be run by
  // all its work-items (rule 5), so only reductions go there.
  std::uint64_t choice = ctx == Ctx::WorkGroup ? 1 : rng_.below(depth >= 2 ? 2 : 7);
  switch (choice) {
  case 0:
  case 2:
  case 3: { // a sequential map
    auto [b, e] = enter(t);
    Term inner = seqBody(e, ctx, depth + 1);
    Term out{t.text + " |> mapSeq(fun(" + b + " => " + inner.text + "))", {t.dims[0]}, false};
    out.dims.insert(out.dims.end(), inner.dims.begin(), inner.dims.end());
    return out;
  }
  case 1:
  case 4: // a reduction to a scalar
    return Term{reduceToScalar(t, ctx), {}, false};
  case 5: { // a temporary, then a reduction or another map
    Term stored = mapSeqAll(t);
    Term tmp{stored.text + space(ctx, stored.dims), stored.dims, false};
    if (rng_.chance(1, 2))
      return Term{reduceToScalar(tmp, ctx), {}, false};
    return mapSeqAll(tmp);
  }
  default: { // a sequential tree reduction with iterate
    if (t.zipped || t.rank() != 1)
      return Term{reduceToScalar(t, ctx), {}, false};
    const Dim& d = t.dims[0];
    std::int64_t c = d.isConst() ? d.off : (d.off == 0 ? d.coef : 1);
    int k = 0;
    while (k < 3 && c % (std::int64_t{2} << k) == 0)
      ++k;
    if (k == 0)
      return Term{reduceToScalar(t, ctx), {}, false};
    k = static_cast<int>(rng_.range(1, k));
    Dim r = d;
    if (d.isConst())
      r.off = d.off >> k;
    else
      r.coef = d.coef >> k;
    return Term{t.text + " |> " + iterateStep("mapSeq", k, "iterate"), {r}, false};
  }
  }
}

/// `ITER(k)(depFun(l: Nat => fun(ys => ys |> split(2) |> MAP(reduce))))`:
/// k halving steps.
std::string Generator::iterateStep(const std::string& map, int k, const std::string& iter) {
  std::string l = fresh("l"), ys = fresh("ys"), w = fresh("w");
  return iter + "(" + std::to_string(k) + ")(depFun(" + l + ": Nat => fun(" + ys + " => " + ys +
         " |> split(2) |> " + map + "(fun(" + w + " => " + w +
         " |> oclReduceSeq(Private)(add)(0.0f))))))";
}

/// `iterate`, or `oclIterate(SPACE)` when the front end knows it.
std::string Generator::iterPrimitive(const std::string& legalSpace) {
  if (!opts_.oclIterate || rng_.chance(1, 4)) {
    if (legalSpace != "Private")
      bent_.push_back("iterate (private buffers) with parallel steps");
    return "iterate";
  }
  static const std::vector<std::string> kSpaces = {"Private", "Local", "Global"};
  std::string s = legalSpace;
  if (bend("oclIterate in another address space"))
    s = rng_.pick(kSpaces);
  return "oclIterate(" + s + ")";
}

/// `mapGlobal(d)`, recording the dimension.
std::string Generator::mapLevel(const std::string& kind, int dim) {
  if (kind != "mapSeq" && dim >= 0 && dim <= 2)
    usedDims_.insert(dim);
  return kind == "mapSeq" ? kind : kind + "(" + std::to_string(dim) + ")";
}

/// `t |> L0(fun(b0 => b0' |> L1(fun(b1 => ... leaf(element) ...))))`.
Term Generator::parNest(const Term& t, const std::vector<std::string>& levels,
                        const std::function<Term(const Term&)>& leaf) {
  if (levels.empty() || t.rank() == 0)
    return leaf(t);
  auto [b, e] = enter(t);
  Term inner = parNest(e, std::vector<std::string>(levels.begin() + 1, levels.end()), leaf);
  Term out{
      t.text + " |> " + levels[0] + "(fun(" + b + " => " + inner.text + "))", {t.dims[0]}, false};
  out.dims.insert(out.dims.end(), inner.dims.begin(), inner.dims.end());
  return out;
}

// ---- views ---------------------------------------------------------------------------------

bool Generator::view(Term& t, bool allowRankChange) {
  if (t.zipped || t.rank() == 0)
    return false;
  std::vector<std::function<bool()>> ops = {[&] { return transpose(t); },
                                            [&] { return innerView(t); }};
  if (allowRankChange) {
    ops.push_back([&] { return split(t); });
    ops.push_back([&] { return join(t); });
    ops.push_back([&] { return slide(t); });
    ops.push_back([&] { return tile(t); });
  }
  ops.push_back([&] { return pad(t); });
  rng_.shuffle(ops);
  for (auto& op : ops)
    if (op())
      return true;
  return false;
}

bool Generator::split(Term& t) {
  if (t.rank() == 0 || t.rank() >= 4)
    return false;
  const Dim d = t.dims[0];
  if (!d.isConst() && d.off != 0)
    return false;
  std::vector<std::int64_t> ks = divisors(d.isConst() ? std::max<std::int64_t>(d.off, 1) : d.coef);
  std::int64_t k = rng_.pick(ks);
  if (d.isConst() && d.off % k != 0)
    return false;
  t.text += " |> split(" + std::to_string(k) + ")";
  Dim outer = d;
  if (d.isConst())
    outer.off = d.off / k;
  else
    outer.coef = d.coef / k;
  t.dims[0] = Dim::constant(k);
  t.dims.insert(t.dims.begin(), outer);
  return true;
}

bool Generator::join(Term& t) {
  if (t.rank() < 2)
    return false;
  const Dim a = t.dims[0], b = t.dims[1];
  Dim j;
  if (a.isConst() && b.isConst())
    j = Dim::constant(a.off * b.off);
  else if (a.isConst() && b.off == 0)
    j = Dim::symbolic(b.coef * a.off, b.sym);
  else if (b.isConst() && a.off == 0)
    j = Dim::symbolic(a.coef * b.off, a.sym);
  else
    return false;
  if (!j.isConst() && j.coef == 0) // a zero constant times a size
    return false;
  t.text += " |> join";
  t.dims.erase(t.dims.begin());
  t.dims[0] = j;
  return true;
}

bool Generator::transpose(Term& t) {
  if (t.rank() < 2)
    return false;
  t.text += " |> transpose";
  std::swap(t.dims[0], t.dims[1]);
  return true;
}

bool Generator::slide(Term& t) {
  if (t.rank() == 0 || t.rank() >= 3)
    return false;
  const Dim d = t.dims[0];
  std::int64_t rest = upperElements(Dims(t.dims.begin() + 1, t.dims.end()));
  if (d.isConst()) {
    std::vector<std::pair<std::int64_t, std::int64_t>> fits;
    for (std::int64_t sz = 2; sz <= std::min<std::int64_t>(d.off, 3); ++sz)
      for (std::int64_t sp = 1; sp <= sz; ++sp)
        if ((d.off - sz) % sp == 0 && ((d.off - sz) / sp + 1) * sz * rest <= opts_.maxElements)
          fits.push_back({sz, sp});
    if (fits.empty())
      return false;
    auto [sz, sp] = rng_.pick(fits);
    t.text += " |> slide(" + std::to_string(sz) + ", " + std::to_string(sp) + ")";
    t.dims[0] = Dim::constant(sz);
    t.dims.insert(t.dims.begin(), Dim::constant((d.off - sz) / sp + 1));
    return true;
  }
  // a symbolic length: step 1 (the window count is `n - sz + 1`, n >= sz)
  std::int64_t sz = rng_.range(2, 3);
  if (d.upper() * sz * rest > opts_.maxElements)
    return false;
  t.text += " |> slide(" + std::to_string(sz) + ", 1)";
  Dim windows = d;
  windows.off = d.off - sz + 1;
  t.dims[0] = Dim::constant(sz);
  t.dims.insert(t.dims.begin(), windows);
  return true;
}

bool Generator::pad(Term& t) {
  if (t.rank() != 1)
    return false;
  std::int64_t l = rng_.range(0, 2), r = rng_.range(1, 2);
  t.text += " |> padCst(" + std::to_string(l) + ", " + std::to_string(r) + ", 0.5f)";
  t.dims[0].off += l + r;
  return true;
}

/// 2-D tiles: `split(a) |> map(map(split(b))) |> map(transpose)` makes an
/// R.C array (R/a).(C/b).a.b.
bool Generator::tile(Term& t) {
  if (t.rank() != 2)
    return false;
  auto pickDivisor = [&](const Dim& d) -> std::int64_t {
    if (!d.isConst() && d.off != 0)
      return 0;
    std::int64_t n = d.isConst() ? d.off : d.coef;
    return n >= 1 ? rng_.pick(divisors(n)) : 0;
  };
  std::int64_t a = pickDivisor(t.dims[0]), b = pickDivisor(t.dims[1]);
  if (a == 0 || b == 0)
    return false;
  t.text += " |> split(" + std::to_string(a) + ") |> map(map(split(" + std::to_string(b) +
            "))) |> map(transpose)";
  Dim r = t.dims[0], c = t.dims[1];
  (r.isConst() ? r.off : r.coef) /= a;
  (c.isConst() ? c.off : c.coef) /= b;
  t.dims = {r, c, Dim::constant(a), Dim::constant(b)};
  return true;
}

/// A view of the rows: `map(transpose)` or `map(split(k))`.
bool Generator::innerView(Term& t) {
  if (t.rank() >= 3 && rng_.chance(1, 2)) {
    t.text += " |> map(transpose)";
    std::swap(t.dims[1], t.dims[2]);
    return true;
  }
  if (t.rank() < 2 || t.rank() >= 4)
    return false;
  const Dim d = t.dims[1];
  if (!d.isConst() || d.off < 1)
    return false;
  std::int64_t k = rng_.pick(divisors(d.off));
  t.text += " |> map(split(" + std::to_string(k) + "))";
  t.dims[1] = Dim::constant(d.off / k);
  t.dims.insert(t.dims.begin() + 2, Dim::constant(k));
  return true;
}

// ---- kernel shapes ---------------------------------------------------------------------------

/// mapGlobal over 1 to 3 distinct dimensions around a sequential body.
Term Generator::globalKernel() {
  static const std::vector<int> kDepths = {1, 1, 2, 2, 3};
  int p = rng_.pick(kDepths);
  int rank = static_cast<int>(rng_.range(p, std::min(p + 2, 4)));
  Dims dims;
  for (int i = 0; i < rank; ++i)
    dims.push_back(randomDim(1, rank >= 3 ? 4 : 7, i < 2));
  while (upperElements(dims) > opts_.maxElements) { // shrink the largest size
    auto big = std::max_element(dims.begin(), dims.end(),
                                [](const Dim& a, const Dim& b) { return a.upper() < b.upper(); });
    *big = Dim::constant(std::max<std::int64_t>(1, big->upper() / 2));
  }
  x_ = input("x", dims);
  Term t = x_;
  if (rng_.chance(1, 3)) { // zip with a second input of the same shape
    y_ = input("y", dims);
    useY_ = true;
    t = Term{"zip(x, y)", dims, true};
  } else {
    if (rank >= 2 && rng_.chance(1, 3))
      y_ = input("y", Dims(dims.begin() + 1, dims.end())); // a row: mv-like bodies
    for (int v = static_cast<int>(rng_.below(3)); v > 0; --v)
      view(t, true);
  }
  p = std::min<int>(p, static_cast<int>(t.rank()));
  std::vector<int> ds = {0, 1, 2};
  rng_.shuffle(ds);
  std::vector<std::string> levels;
  for (int i = 0; i < p; ++i) {
    std::string kind = "mapGlobal";
    int d = ds[i];
    if (i > 0 && bend("a dimension scheduled twice"))
      d = ds[i - 1];
    if (bend("mapLocal in a mapGlobal kernel"))
      kind = "mapLocal";
    else if (bend("mapWorkGroup in a mapGlobal kernel"))
      kind = "mapWorkGroup";
    levels.push_back(mapLevel(kind, d));
  }
  auto leaf = [&](const Term& e) -> Term {
    // mv-like: the row against the second input
    if (!useY_ && !y_.text.empty() && e.rank() == 1 && !e.zipped && e.dims == y_.dims &&
        rng_.chance(2, 3)) {
      useY_ = true;
      std::string acc = fresh("acc"), q = fresh("q");
      return Term{"zip(" + e.text + ", y) |> oclReduceSeq(Private)(fun(" + acc + ", " + q + " => " +
                      acc + " + fst(" + q + ") * snd(" + q + ")))(0.0f)",
                  {},
                  false};
    }
    if (e.rank() >= 1 && bend("a parallel map in a mapGlobal's sequential body"))
      return parNest(e, {mapLevel(rng_.chance(1, 2) ? "mapGlobal" : "mapLocal", ds[0])},
                     [&](const Term& s) { return seqBody(s, Ctx::Global, 1); });
    return seqBody(e, Ctx::Global, 0);
  };
  Term out = parNest(t, levels, leaf);
  // a second phase through a temporary
  if (out.rank() >= 1 && rng_.chance(1, 5)) {
    Term tmp = out;
    if (bend("a global phase's result in private memory"))
      tmp.text += " |> toPrivate";
    else if (bend("a global phase's result in local memory"))
      tmp.text += " |> toLocal";
    else if (!bend("a global phase's result stored where lowerToC chooses"))
      tmp.text += " |> toGlobal";
    if (rng_.chance(1, 3))
      view(tmp, false); // read back by other work-items: a barrier across work-groups
    std::vector<std::string> levels2;
    for (int i = 0; i < std::min<int>(p, static_cast<int>(tmp.rank())); ++i)
      levels2.push_back(mapLevel("mapGlobal", ds[i]));
    out = parNest(tmp, levels2, [&](const Term& e) { return seqBody(e, Ctx::Global, 1); });
  }
  if (out.rank() >= 2 && rng_.chance(1, 5))
    rng_.chance(1, 2) ? join(out) : transpose(out);
  return out;
}

/// The mapLocal levels of a work-group body: each work-group dimension once,
/// in any order.
std::vector<std::string> Generator::localLevels(const std::vector<int>& wgDims, std::size_t rank) {
  std::vector<int> ds = wgDims;
  rng_.shuffle(ds);
  std::vector<std::string> levels;
  for (std::size_t i = 0; i < ds.size(); ++i) {
    if (bend("mapSeq instead of mapLocal"))
      levels.push_back("mapSeq");
    else if (bend("mapLocal of a dimension without mapWorkGroup"))
      levels.push_back(mapLevel("mapLocal", (ds[i] + 1) % 3));
    else if (bend("mapGlobal in a work-group"))
      levels.push_back(mapLevel("mapGlobal", ds[i]));
    else
      levels.push_back(mapLevel("mapLocal", ds[i]));
  }
  if (rank > ds.size() && bend("mapWorkGroup inside mapLocal"))
    levels.push_back(mapLevel("mapWorkGroup", wgDims[0]));
  return levels;
}

/// What one work-group computes from its chunk.
Term Generator::groupBody(const Term& chunk, const std::vector<int>& wgDims) {
  const std::size_t q = wgDims.size();
  auto localLeaf = [&](const Term& e) { return seqBody(e, Ctx::Local, 1); };
  auto scalarLeaf = [&](const Term& e) {
    return e.rank() == 0 ? Term{scalarOf(e), {}, false} : seqBody(e, Ctx::Local, 1);
  };
  const bool oneDimConst = q == 1 && chunk.rank() == 1 && !chunk.zipped && chunk.dims[0].isConst();
  std::uint64_t choice = rng_.below(11);
  if (choice == 10 && (q < 2 || chunk.rank() < 2))
    choice = 2;
  if (choice == 6 && !oneDimConst)
    choice = 1;
  if (choice == 7 && !oneDimConst)
    choice = 0;
  if ((choice == 8 || choice == 9) && (chunk.rank() != q + 1 || chunk.zipped))
    choice = 1;
  switch (choice) {
  case 10: { // two phases inside one mapLocal iteration: its work-items share the temporary
    std::vector<std::string> levels = localLevels(wgDims, chunk.rank());
    std::vector<std::string> inner(levels.begin() + 1, levels.end());
    auto [row, e] = enter(chunk);
    Term first = parNest(e, inner, scalarLeaf);
    Term tmp = first;
    static const std::vector<std::string> kSpaces = {" |> toGlobal", " |> toGlobal", " |> toLocal",
                                                     " |> toPrivate"};
    tmp.text += rng_.pick(kSpaces);
    bent_.push_back("a temporary shared by the work-items inside a mapLocal");
    if (tmp.rank() >= 2 && rng_.chance(1, 2))
      transpose(tmp);
    Term second = parNest(tmp, inner, localLeaf);
    Term out{chunk.text + " |> " + levels[0] + "(fun(" + row + " => " + second.text + "))",
             {chunk.dims[0]},
             false};
    out.dims.insert(out.dims.end(), second.dims.begin(), second.dims.end());
    return out;
  }
  case 0:
  case 5: // mapLocal over the chunk
    return parNest(chunk, localLevels(wgDims, chunk.rank()), localLeaf);
  case 1:
  case 2:
  case 3: { // two phases through a temporary, with a view between them
    Term first = parNest(chunk, localLevels(wgDims, chunk.rank()), scalarLeaf);
    Term tmp = first;
    tmp.text += space(Ctx::WorkGroup, first.dims);
    if (bend("the first phase's result stored where lowerToC chooses"))
      tmp.text = first.text;
    std::uint64_t v = rng_.below(4);
    if (v == 0 && tmp.rank() == 1 && tmp.dims[0].isConst()) { // a stencil
      tmp.text += " |> padCst(1, 1, 0.0f) |> slide(3, 1)";
      tmp.dims.push_back(Dim::constant(3));
    } else if (v == 1 && tmp.rank() >= 2) {
      transpose(tmp);
    } else if (v == 2) {
      view(tmp, true);
    }
    if (tmp.rank() < q)
      return Term{reduceToScalar(tmp, Ctx::WorkGroup), {}, false};
    return parNest(tmp, localLevels(wgDims, tmp.rank()), localLeaf);
  }
  case 4: { // a reduction of the whole tile, by every work-item
    Term first = parNest(chunk, localLevels(wgDims, chunk.rank()), scalarLeaf);
    Term tmp = first;
    tmp.text += space(Ctx::WorkGroup, first.dims);
    return Term{reduceToScalar(tmp, Ctx::WorkGroup), {}, false};
  }
  case 6: { // two-level reduction: parts by the work-items, then their sums
    std::int64_t len = chunk.dims[0].off;
    std::int64_t k = rng_.pick(divisors(std::max<std::int64_t>(len, 1)));
    if (len % k != 0)
      k = 1;
    std::vector<std::string> levels = localLevels(wgDims, 0);
    std::string w = fresh("w");
    Term parts{chunk.text + " |> split(" + std::to_string(k) + ") |> " + levels[0] + "(fun(" + w +
                   " => " + w + " |> oclReduceSeq(Private)(add)(0.0f)))",
               {Dim::constant(len / k)},
               false};
    parts.text += space(Ctx::WorkGroup, parts.dims);
    return Term{reduceToScalar(parts, Ctx::WorkGroup), {}, false};
  }
  case 7: { // a tree reduction with iterate: each step halves the tile
    std::int64_t len = chunk.dims[0].off;
    int k = 0;
    while (k < 3 && len % (std::int64_t{2} << k) == 0)
      ++k;
    if (k == 0)
      return parNest(chunk, localLevels(wgDims, chunk.rank()), localLeaf);
    k = static_cast<int>(rng_.range(1, k));
    std::vector<std::string> levels = localLevels(wgDims, 0);
    return Term{chunk.text + " |> " + iterateStep(levels[0], k, iterPrimitive("Local")),
                {Dim::constant(len >> k)},
                false};
  }
  default: { // an accumulator tile updated by the work-items, row by row
    auto [row, e] = enter(chunk);
    std::string acc = fresh("acc");
    std::string where = "Local";
    if (bend("an accumulator tile in private memory"))
      where = "Private";
    else if (rng_.chance(1, 6))
      where = "Global";
    Term pairs{"zip(" + acc + ", " + e.text + ")", e.dims, true};
    Term update = parNest(pairs, localLevels(wgDims, pairs.rank()), [&](const Term& pr) {
      static const std::vector<std::string> kUpdates = {
          "fst(@) + snd(@)", "fst(@) + snd(@) * snd(@)", "max(fst(@), snd(@))"};
      std::string f = rng_.pick(kUpdates), out;
      for (char c : f)
        out += c == '@' ? pr.text : std::string(1, c);
      return Term{out, {}, false};
    });
    std::string zero = "0.0f";
    for (std::size_t i = 0; i < e.rank(); ++i)
      zero = "generate(fun(" + fresh("ix") + " => " + zero + "))";
    Term init{zero, e.dims, false};
    Term initCopy = parNest(init, localLevels(wgDims, init.rank()), [&](const Term& z) {
      return Term{z.text, {}, false};
    });
    Term reduced{chunk.text + " |> oclReduceSeq(" + where + ")(fun(" + acc + ", " + row + " => " +
                     update.text + "))(" + initCopy.text + ")",
                 e.dims, false};
    return parNest(reduced, localLevels(wgDims, reduced.rank()), [&](const Term& z) {
      return Term{z.rank() == 0 ? z.text : reduceToScalar(z, Ctx::Local), {}, false};
    });
  }
  }
}

/// mapWorkGroup over 1 to 3 distinct dimensions around a work-group body.
Term Generator::workGroupKernel() {
  static const std::vector<int> kDepths = {1, 1, 1, 2, 2, 3};
  const int q = rng_.pick(kDepths);
  std::vector<int> ds = {0, 1, 2};
  rng_.shuffle(ds);
  std::vector<int> wgDims(ds.begin(), ds.begin() + q);
  // x: the group counts, then the tile, then maybe a row per element
  Dims outer, tileDims;
  for (int i = 0; i < q; ++i)
    outer.push_back(randomDim(1, 3, true));
  static const std::vector<std::int64_t> kTiles = {1, 2, 3, 4, 4, 5, 6, 8, 8};
  for (int i = 0; i < q; ++i)
    tileDims.push_back(Dim::constant(q == 3 ? rng_.range(1, 3) : rng_.pick(kTiles)));
  if (!syms_.empty() && bend("a tile of symbolic size"))
    tileDims[0] = Dim::symbolic(1, syms_[0]);
  Dims extra;
  if (rng_.chance(1, 3))
    extra.push_back(Dim::constant(rng_.range(1, 4)));
  auto elements = [&] {
    Dims all = outer;
    all.insert(all.end(), tileDims.begin(), tileDims.end());
    all.insert(all.end(), extra.begin(), extra.end());
    return upperElements(all);
  };
  // shrink: no rows per element, then fewer groups, then smaller tiles
  while (elements() > opts_.maxElements) {
    if (!extra.empty()) {
      extra.clear();
      continue;
    }
    auto big = std::max_element(outer.begin(), outer.end(),
                                [](const Dim& a, const Dim& b) { return a.upper() < b.upper(); });
    if (big->upper() > 1) {
      *big = Dim::constant(1);
      continue;
    }
    bool shrunk = false;
    for (Dim& d : tileDims)
      if (d.upper() > 1) {
        d = Dim::constant(std::max<std::int64_t>(1, d.upper() / 2));
        shrunk = true;
      }
    if (!shrunk)
      break;
  }
  Term t;
  if (q == 1 && extra.empty() && rng_.chance(1, 2) && tileDims[0].isConst() &&
      (outer[0].isConst() || outer[0].coef == 1)) {
    // x: (T*G).f32 |> split(T)
    Dim flat = outer[0].isConst() ? Dim::constant(outer[0].off * tileDims[0].off)
                                  : Dim::symbolic(tileDims[0].off, outer[0].sym);
    x_ = input("x", {flat});
    t = Term{"x |> split(" + std::to_string(tileDims[0].off) + ")", {outer[0], tileDims[0]}, false};
  } else if (q == 2 && extra.empty() && rng_.chance(1, 2) && allConst(tileDims)) {
    // x: (a*G1).(b*G2).f32 in tiles
    Dims flat;
    for (int i = 0; i < 2; ++i)
      flat.push_back(outer[i].isConst()
                         ? Dim::constant(outer[i].off * tileDims[i].off)
                         : Dim::symbolic(outer[i].coef * tileDims[i].off, outer[i].sym));
    x_ = input("x", flat);
    t = Term{"x |> split(" + std::to_string(tileDims[0].off) + ") |> map(map(split(" +
                 std::to_string(tileDims[1].off) + "))) |> map(transpose)",
             {outer[0], outer[1], tileDims[0], tileDims[1]},
             false};
  } else {
    Dims all = outer;
    all.insert(all.end(), tileDims.begin(), tileDims.end());
    all.insert(all.end(), extra.begin(), extra.end());
    x_ = input("x", all);
    t = x_;
    if (rng_.chance(1, 4)) {
      y_ = input("y", all);
      useY_ = true;
      t = Term{"zip(x, y)", all, true};
    }
  }
  std::vector<std::string> levels;
  for (int d : wgDims) {
    if (bend("mapGlobal in a mapWorkGroup kernel"))
      levels.push_back(mapLevel("mapGlobal", d));
    else
      levels.push_back(mapLevel("mapWorkGroup", bend("a work-group dimension twice") ? ds[0] : d));
  }
  Term out = parNest(t, levels, [&](const Term& chunk) { return groupBody(chunk, wgDims); });
  if (out.rank() >= 1 && rng_.chance(1, 8)) {
    // a second phase over the first one's result: other work-groups read it
    Term tmp = out;
    tmp.text += rng_.chance(1, 2) ? " |> toGlobal" : " |> toLocal";
    if (tmp.rank() >= 2 && rng_.chance(1, 2))
      transpose(tmp);
    bent_.push_back("a second work-group phase");
    out = parNest(tmp, {mapLevel("mapWorkGroup", wgDims[0])}, [&](const Term& e) {
      return e.rank() == 0 ? Term{scalarOf(e), {}, false}
                           : parNest(e, {mapLevel("mapLocal", wgDims[0])},
                                     [&](const Term& s) { return seqBody(s, Ctx::Local, 1); });
    });
  }
  if (out.rank() >= 2 && rng_.chance(1, 4))
    join(out);
  return out;
}

/// Kernels of unusual shapes.
Term Generator::oddKernel() {
  Dims dims;
  int rank = static_cast<int>(rng_.range(1, 3));
  for (int i = 0; i < rank; ++i)
    dims.push_back(randomDim(1, 6, true));
  x_ = input("x", dims);
  switch (rng_.below(6)) {
  case 0: // no parallel map at all: every work-item computes everything
    return seqBody(x_, Ctx::Top, 0);
  case 1: // a temporary at kernel level
  {
    Term stored = mapSeqAll(x_);
    Term tmp{stored.text + space(Ctx::Top, stored.dims), stored.dims, false};
    return Term{reduceToScalar(tmp, Ctx::Top), {}, false};
  }
  case 2: // mapLocal without mapWorkGroup
    bent_.push_back("mapLocal without mapWorkGroup");
    return parNest(x_, {mapLevel("mapLocal", static_cast<int>(rng_.below(2)))},
                   [&](const Term& e) { return seqBody(e, Ctx::Local, 1); });
  case 3: // mapWorkGroup without mapLocal
    bent_.push_back("mapWorkGroup without mapLocal");
    return parNest(x_, {mapLevel("mapWorkGroup", 0)},
                   [&](const Term& e) { return seqBody(e, Ctx::WorkGroup, 1); });
  default: { // iterate with mapGlobal steps over a 1-D input
    static const std::vector<std::int64_t> kCoefs = {2, 4, 8};
    std::int64_t c = rng_.pick(kCoefs);
    int k =
        c == 2 ? 1
               : (c == 4 ? static_cast<int>(rng_.range(1, 2)) : static_cast<int>(rng_.range(1, 3)));
    Dim d = !syms_.empty() && rng_.chance(1, 2) ? Dim::symbolic(c, syms_[0])
                                                : Dim::constant(c * rng_.range(1, 3));
    x_ = input("x", {d});
    Dim r = d;
    (d.isConst() ? r.off : r.coef) >>= k;
    return Term{
        "x |> " + iterateStep(mapLevel("mapGlobal", 0), k, iterPrimitive("Global")), {r}, false};
  }
  }
}

// ---- launches ----------------------------------------------------------------------------------

void Generator::chooseLaunches(RandomOclProgram& p) {
  int highest = usedDims_.empty() ? 0 : *usedDims_.rbegin();
  p.dims = static_cast<unsigned>(highest + 1);
  static const std::vector<std::size_t> kLocal = {1, 1, 2, 2, 3, 4, 4, 5, 8};
  for (int i = 0; i < opts_.launches; ++i) {
    Launch l;
    l.dims = p.dims;
    std::size_t items = 1;
    for (unsigned d = 0; d < p.dims; ++d) {
      // one work-item in a dimension no map uses: the launch contract
      // (docs/host.md, E0515; fuzz finding F2 showed why)
      if (!usedDims_.count(static_cast<int>(d)))
        continue;
      std::size_t local = rng_.pick(kLocal);
      if (usedDims_.size() == 3)
        local = std::min<std::size_t>(local, 4);
      // few work-groups (fewer work-items than work) or several (more)
      std::size_t groups = static_cast<std::size_t>(i == 0 ? rng_.range(1, 2) : rng_.range(1, 4));
      l.local[d] = local;
      l.global[d] = local * groups;
      items *= l.global[d];
    }
    if (items > 512) // keep PoCL's work small
      for (unsigned d = 0; d < p.dims; ++d)
        l.global[d] = l.local[d];
    p.launches.push_back(l);
    p.launchNotes.push_back("");
  }
}

// ---- the program -----------------------------------------------------------------------------

RandomOclProgram Generator::program() {
  RandomOclProgram p;
  bending_ = rng_.chance(1, 2);
  if (rng_.chance(2, 5)) {
    syms_ = {"n"};
    if (rng_.chance(1, 3))
      syms_.push_back("m");
  }
  haveA_ = rng_.chance(1, 5);
  std::uint64_t which = rng_.below(20);
  Term body;
  if (which < 8) {
    p.shape = "global";
    body = globalKernel();
  } else if (which < 18) {
    p.shape = "work-group";
    body = workGroupKernel();
  } else {
    p.shape = "odd";
    body = oddKernel();
  }
  // the parameters: size parameters that occur in an input, x, y, a
  std::string params = "x: " + typeText(x_.dims);
  if (useY_)
    params += ", y: " + typeText(y_.dims);
  if (useA_)
    params += ", a: f32";
  std::string text = "fun(" + params + " =>\n  " + body.text + ")";
  std::set<std::string> used;
  for (const Term* t : {&x_, &y_})
    if (t == &x_ || useY_)
      for (const Dim& d : t->dims)
        if (!d.isConst())
          used.insert(d.sym);
  for (const std::string& s : syms_)
    if (used.count(s))
      p.sizeNames.push_back(s);
  if (!p.sizeNames.empty()) {
    std::string binders;
    for (const std::string& s : p.sizeNames)
      binders += (binders.empty() ? "" : ", ") + s + ": Nat";
    text = "depFun((" + binders + ") =>\n" + text + ")";
    for (int i = 0; i < 4; ++i) {
      SizeEnv env;
      for (const std::string& s : p.sizeNames)
        env[s] = rng_.chance(1, 10) ? 0 : rng_.range(1, kMaxSizeValue);
      p.sizes.push_back(env);
    }
  } else {
    p.sizes.push_back({});
  }
  p.entry = opts_.entry;
  p.text = "def " + p.entry + " = " + text + "\n";
  p.bent = bent_;
  chooseLaunches(p);
  return p;
}

} // namespace

RandomOclProgram randomOclProgram(Rng& rng, const OclGeneratorOptions& opts) {
  return Generator(rng, opts).program();
}

} // namespace risec::testsupport
