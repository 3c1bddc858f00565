// Scans (docs/strategies.md, "Scans"): the high-level inclusive `scan`
// lowered to the sequential `scanSeq` (scanToSeq), or rewritten into a
// blocked scan whose two large steps are parallel maps (scanBlocked(b)):
//   1. the n/b whole blocks of b reduced block by block (a map: one total
//      per block, stored);
//   2. the block totals scanned sequentially from init; with init before them
//      (padCst), element i of that scan is the fold of the blocks before
//      block i, its offset (stored), and the last one the fold of them all;
//   3. each block scanned from its offset (a map), the blocks joined, then
//      the last n % b elements scanned from the fold of every block (a tail
//      of at most b - 1 elements, peeled: the loops over whole blocks have
//      no bounds checks).
// Steps 1 and 3 read the input twice but never store the block scans: the
// "reduce, then scan" form of a blocked scan. It combines the elements in
// another order and starts every block from init, so it
// needs op associative with init neutral (add with 0, mul with 1) or op
// idempotent (max, min with any literal).
#include "rules/Rule.h"
#include "rules/VectorReduction.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// Why a blocked scan may not combine `op` and `init` as it does, or "": it
/// needs add with 0, mul with 1, or max/min with any literal, on floats
/// (laneInit) or integers.
std::string whyNotBlockable(const Expr& op, const Expr& init) {
  std::optional<Prim> p = binaryPrim(op);
  if (!p || (*p != Prim::Add && *p != Prim::Mul && *p != Prim::Max && *p != Prim::Min))
    return "its operator is not `add`, `mul`, `max` or `min` (or a lambda applying one), the "
           "associative operators whose elements a blocked scan may combine block by block";
  if (partInit(*p, init, false))
    return "";
  std::string name(primName(*p));
  if (*p == Prim::Max || *p == Prim::Min)
    return "its initial value is not a literal (every block of a `" + name +
           "` scan starts from it)";
  return std::string("its initial value is not ") + (*p == Prim::Add ? "0" : "1") +
         ", the neutral element of `" + name + "` (every block of the scan starts from it)";
}

/// scan(op)(init) -> scanSeq(op)(init), applied to its array or not.
std::optional<Expr> scanToSeq(const Expr& e, RuleContext&) {
  Spine s = spineOf(e);
  if (!isPrim(s.head, Prim::Scan) || !s.depArgs.empty())
    return std::nullopt;
  return withHead(s, Prim::ScanSeq, {});
}

/// scan(op)(init)(xs), xs: n.t, with M = n/b whole blocks of b, W = b*M:
///   -> let(toMem(map(fun(c => reduce(op)(init)(c)))(split(b)(take(W)(xs)))))(fun(tot =>
///        let(toMem(scan(op)(init)(padCst(1, 0)(init)(tot))))(fun(offs =>
///          concat(zip(take(M)(offs))(split(b)(take(W)(xs)))
///                   |> map(fun(q => scan(op)(fst(q))(snd(q)))) |> join)
///                (scan(op)(reduceSeq(op)(init)(drop(M)(offs)))(drop(W)(xs)))))))
/// The last n % b elements (the tail) are scanned from the fold of every
/// block, offs[M]. Where b divides n (a constant n), no take and no tail.
///
/// scanBlockedPadded(b) pads instead of peeling, with M = (n + b - 1)/b
/// blocks and P = padCst(0, b*M - n)(init)(xs):
///   -> let(toMem(map(fun(c => reduce(op)(init)(c)))(split(b)(P))))(fun(tot =>
///        let(toMem(scan(op)(init)(padCst(1, 0)(init)(tot))))(fun(offs =>
///          zip(take(M)(offs))(split(b)(P)) |> map(fun(q => scan(op)(fst(q))(snd(q))))
///            |> join |> take(n)))))
/// The padding's elements (init) only reach outputs that take(n) drops. Every
/// read has a bounds check, but there is no tail: on OpenCL, a tail after
/// the blocks' mapGlobal would be scanned by every work-item.
RuleFn scanBlocked(std::int64_t b, bool pad) {
  return [b, pad](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (b < 1 || !isPrim(s.head, Prim::Scan) || !s.depArgs.empty() || s.args.size() != 3)
      return std::nullopt;
    const Expr &op = s.args[0], &init = s.args[1], &xs = s.args[2];
    if (!xs->type() || !isArray(xs->type()))
      return std::nullopt;
    if (std::string why = whyNotBlockable(op, init); !why.empty())
      return ctx.refuse(why);
    const Nat n = xs->type()->size();
    const bool whole = n->isConst() && n->value() % b == 0;
    const Nat blocks = whole || !pad ? n / natConst(b) : (n + natConst(b - 1)) / natConst(b);
    const Nat covered = wholeMultiple(n, b);
    Expr body = xs;
    if (!whole && pad)
      body =
          app(depArg(depArg(prim(Prim::PadCst), natConst(0)), natConst(b) * blocks - n), init, xs);
    else if (!whole)
      body = app(depArg(prim(Prim::Take), covered), xs);
    auto split = [&] { return app(depNat(prim(Prim::Split), b), body); };
    std::string c = ctx.names.fresh("c"), tot = ctx.names.fresh("tot"),
                offs = ctx.names.fresh("offs"), q = ctx.names.fresh("q");
    Expr totals = app(prim(Prim::Map), lam(c, app(prim(Prim::Reduce), op, init, var(c))), split());
    Expr offsets =
        app(prim(Prim::Scan), op, init,
            app(depArg(depArg(prim(Prim::PadCst), natConst(1)), natConst(0)), init, var(tot)));
    Expr blockScan = lam(
        q, app(prim(Prim::Scan), op, app(prim(Prim::Fst), var(q)), app(prim(Prim::Snd), var(q))));
    Expr scanned =
        app(prim(Prim::Join),
            app(prim(Prim::Map), blockScan,
                app(prim(Prim::Zip), app(depArg(prim(Prim::Take), blocks), var(offs)), split())));
    if (!whole && pad) {
      scanned = app(depArg(prim(Prim::Take), n), scanned);
    } else if (!whole) {
      Expr carry =
          app(prim(Prim::ReduceSeq), op, init, app(depArg(prim(Prim::Drop), blocks), var(offs)));
      Expr tail = app(prim(Prim::Scan), op, carry, app(depArg(prim(Prim::Drop), covered), xs));
      scanned = app(prim(Prim::Concat), scanned, tail);
    }
    return app(prim(Prim::Let), app(prim(Prim::ToMem), totals),
               lam(tot, app(prim(Prim::Let), app(prim(Prim::ToMem), offsets), lam(offs, scanned))));
  };
}

} // namespace

void registerScanRules(RuleRegistry& r) {
  r.add(simpleRule("scanToSeq", "lowering", "scan(op)(init)", "scanSeq(op)(init)", scanToSeq));
  r.add(RuleInfo{
      "scanBlocked",
      "algorithmic",
      {ParamKind::Int},
      "scan(op)(init)(xs)   (xs: n.t; op add with 0, mul with 1, or max/min with a literal)",
      "let(toMem(split(b)(take(W)(xs)) |> map(reduce(op)(init))))(fun(tot => "
      "let(toMem(scan(op)(init)(padCst(1, 0)(init)(tot))))(fun(offs => "
      "concat(zip(take(M)(offs))(split(b)(take(W)(xs))) |> map(fun(q => "
      "scan(op)(fst(q))(snd(q)))) |> join)(scan(op)(reduceSeq(op)(init)(drop(M)(offs)))"
      "(drop(W)(xs)))))))   (M = n/b whole blocks, W = b*M; no take and no tail where b "
      "divides a constant n)",
      [](const std::vector<RuleArg>& a) { return scanBlocked(intArg(a, 0), false); }});
  r.add(RuleInfo{
      "scanBlockedPadded",
      "algorithmic",
      {ParamKind::Int},
      "scan(op)(init)(xs)   (as scanBlocked)",
      "let(toMem(split(b)(P) |> map(reduce(op)(init))))(fun(tot => "
      "let(toMem(scan(op)(init)(padCst(1, 0)(init)(tot))))(fun(offs => "
      "zip(take(M)(offs))(split(b)(P)) |> map(fun(q => scan(op)(fst(q))(snd(q)))) |> join |> "
      "take(n))))   (M = (n+b-1)/b blocks, P = padCst(0, b*M - n)(init)(xs): the last block "
      "padded with init instead of a peeled tail)",
      [](const std::vector<RuleArg>& a) { return scanBlocked(intArg(a, 0), true); }});
}

} // namespace risec::rules
