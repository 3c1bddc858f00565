// The parallel reduction of a long array on OpenCL (docs/strategies.md,
// "Parallel reductions"): reduceToWorkGroups(groups, local) turns
// `reduce(op)(init)(xs)` into two phases that the OpenCL back end compiles
// to two kernels (docs/dpia.md, "Kernel phases"):
//   1. `groups` work-groups of `local` work-items; work-item (g, l) reduces
//      the elements i = g*local + l + k*groups*local (strided: neighbouring
//      work-items read neighbouring elements, coalesced on a GPU) into a
//      private accumulator, the `local` partial sums of a group are stored
//      in local memory and summed there, one partial per work-group into a
//      global temporary (toGlobal);
//   2. the `groups` partials, then the tail (the last n % (groups*local)
//      elements), reduced in order by one work-item.
// reduceToWorkGroupsBlocked(groups, local, block) is the form for CPU
// devices, which run each work-item's loop as written, one work-item after
// another: work-item w (of GL = groups*local) reduces the blocks w, w + GL,
// w + 2*GL, ... of `block` consecutive elements, so that it reads runs of
// `block` elements (a CPU's prefetchers follow a run; the strided form
// jumps by GL elements at every step), and its reduction is left a
// `reduce`, for the strategy's vectorReduce (a scalar accumulator waits for
// each addition). The tail is the last n % (GL*block) elements.
// Elements are combined in another order than reduce's left-to-right one:
// the rule needs op associative and commutative with init its neutral
// element (add with 0, mul with 1; max and min with any literal, which are
// idempotent too), on floats as the vectorised reductions do; it does not
// apply to any other reduction.
#include "rules/Rule.h"
#include "rules/VectorReduction.h"

namespace risec::rules {

using namespace risec::rise;

namespace {

/// reduce(op)(init)(map(f)(ys)), xs = map(f)(ys) (any number of maps, or none), n = |ys|,
/// GL = groups*local, whole = GL*(n/GL):
///   -> let(P)(fun(partials =>
///        reduceSeq(op)(reduceSeq(op)(init)(partials))(map(f)(drop(whole)(ys)))))
///   P = take(whole)(ys) |> split(GL) |> transpose |> split(local)
///     |> mapWorkGroup(0)(fun(group => group
///          |> mapLocal(0)(fun(row => reduceSeq(op)(init)(map(f)(row))))
///          |> toLocal |> reduceSeq(op)(init)))
///     |> toGlobal
/// (no tail when GL divides n for every n). The maps stay at the leaves, so
/// that fuseReduceMap fuses them into the sequential reductions.
/// The blocked partition (reduceToWorkGroupsBlocked), whole = GL*block*(n/(GL*block)):
///   P = take(whole)(ys) |> split(block) |> split(GL) |> transpose |> split(local)
///     |> mapWorkGroup(0)(fun(group => group
///          |> mapLocal(0)(fun(row => reduce(op)(init)(map(f)(join(row)))))
///          |> toLocal |> reduceSeq(op)(init)))
///     |> toGlobal
/// work-item l of group g reads element ((r*GL + g*local + l)*block + b.
enum class Partition { Strided, Blocked };

RuleFn reduceToWorkGroups(std::int64_t groups, std::int64_t local, Partition partition,
                          std::int64_t block = 1) {
  return [groups, local, partition, block](const Expr& e, RuleContext& ctx) -> std::optional<Expr> {
    Spine s = spineOf(e);
    if (groups < 1 || local < 1 || block < 1 || !isPrim(s.head, Prim::Reduce) ||
        !s.depArgs.empty() || s.args.size() != 3)
      return std::nullopt;
    const Expr &op = s.args[0], &init = s.args[1];
    if (std::string why = whyNotSplittable(op, init); !why.empty())
      return ctx.refuse(why);
    if (!isArray(s.args[2]->type()))
      return std::nullopt;
    // the maps computing the elements, outermost first, and the array under them
    std::vector<Expr> fs;
    Expr ys = s.args[2];
    for (Spine m = spineOf(ys); isPrim(m.head, Prim::Map) && m.depArgs.empty() &&
                                m.args.size() == 2 && isArray(m.args[1]->type());
         m = spineOf(ys)) {
      fs.push_back(m.args[0]);
      ys = m.args[1];
    }
    auto mapped = [&](Expr v) {
      for (auto it = fs.rbegin(); it != fs.rend(); ++it)
        v = app(prim(Prim::Map), *it, v);
      return v;
    };
    const std::int64_t all = groups * local;
    Nat n = ys->type()->size();
    Nat whole = wholeMultiple(n, all * block);
    auto reduceSeq = [&](Expr from, Expr over) {
      return app(prim(Prim::ReduceSeq), op, std::move(from), std::move(over));
    };
    std::string group = ctx.names.fresh("group"), row = ctx.names.fresh("row");
    // a work-item's runs as one array; an array of pairs (a zip's) as a zip of
    // its halves, `zip(fst(unzip(join(r))), snd(unzip(join(r))))`, which
    // vectorReduce loads component by component
    const bool pairs = ys->type()->elem()->kind() == TypeKind::Pair;
    auto runs = [&](Expr r) {
      Expr joined = app(prim(Prim::Join), std::move(r));
      if (!pairs)
        return joined;
      Expr halves = app(prim(Prim::Unzip), joined);
      return app(prim(Prim::Zip), app(prim(Prim::Fst), halves), app(prim(Prim::Snd), halves));
    };
    Expr kept = app(depArg(prim(Prim::Take), whole), ys);
    // strided: [groups][local][n/GL], element k*GL + g*local + l;
    // blocked: [groups][local][n/(GL*block)][block] joined, element
    // (r*GL + g*local + l)*block + b
    Expr parts =
        partition == Partition::Strided
            ? app(depNat(prim(Prim::Split), local),
                  app(prim(Prim::Transpose), app(depNat(prim(Prim::Split), all), kept)))
            : app(depNat(prim(Prim::Split), local),
                  app(prim(Prim::Transpose), app(depNat(prim(Prim::Split), all),
                                                 app(depNat(prim(Prim::Split), block), kept))));
    // the blocked form leaves each work-item's reduction a `reduce`, for a
    // vectorReduce of the strategy (a CPU device runs a work-item's loop as
    // written: a scalar accumulator would wait for each addition)
    Expr perItem = lam(row, partition == Partition::Strided
                                ? reduceSeq(init, mapped(var(row)))
                                : app(prim(Prim::Reduce), op, init, mapped(runs(var(row)))));
    // the temporaries at the reduction's location: the kernel's comments and
    // any diagnostic about them point at the program's `reduce`
    Expr toLocal = rise::makePrimitive(Prim::ToLocal, e->loc());
    Expr toGlobal = rise::makePrimitive(Prim::ToGlobal, e->loc());
    Expr perGroup = lam(group, reduceSeq(init, app(toLocal, app(depNat(prim(Prim::MapLocal), 0),
                                                                perItem, var(group)))));
    Expr partials = app(toGlobal, app(depNat(prim(Prim::MapWorkGroup), 0), perGroup, parts));
    // a let, so that phase 1 is a statement of the kernel's outermost
    // sequence (the global temporary is hoisted), where the back end may
    // end a kernel; as an argument of the reduction it would be nested in
    // the allocation of its accumulator
    std::string sums = ctx.names.fresh("partials");
    Expr result = reduceSeq(init, var(sums));
    if (!(n - whole)->isConst(0))
      result = reduceSeq(result, mapped(app(depArg(prim(Prim::Drop), whole), ys)));
    return app(prim(Prim::Let), partials, lam(sums, result));
  };
}

const char* const kBefore =
    "reduce(op)(init)(map(f)(xs))   (xs: n.t, any number of maps; op add with 0, mul with 1, "
    "or max/min: associative, commutative, init neutral)";

} // namespace

void registerReduceToWorkGroupsRules(RuleRegistry& r) {
  r.add(RuleInfo{
      "reduceToWorkGroups",
      "lowering",
      {ParamKind::Int, ParamKind::Int},
      kBefore,
      "let(take(w)(xs) |> split(g*l) |> transpose |> split(l) |> mapWorkGroup(0)(fun(grp => "
      "grp |> mapLocal(0)(fun(r => reduceSeq(op)(init)(map(f)(r)))) |> toLocal |> "
      "reduceSeq(op)(init))) |> toGlobal)(fun(ps => reduceSeq(op)(reduceSeq(op)(init)(ps))("
      "map(f)(drop(w)(xs)))))   (g = groups, l = local, w = g*l*(n/(g*l)); no drop where g*l "
      "divides n; two kernels: docs/dpia.md, \"Kernel phases\")",
      [](const std::vector<RuleArg>& a) {
        return reduceToWorkGroups(intArg(a, 0), intArg(a, 1), Partition::Strided);
      }});
  r.add(RuleInfo{
      "reduceToWorkGroupsBlocked",
      "lowering",
      {ParamKind::Int, ParamKind::Int, ParamKind::Int},
      kBefore,
      "let(take(w)(xs) |> split(b) |> split(g*l) |> transpose |> split(l) |> "
      "mapWorkGroup(0)(fun(grp => grp |> mapLocal(0)(fun(r => reduce(op)(init)(map(f)(join(r))))) "
      "|> toLocal |> reduceSeq(op)(init))) |> toGlobal)(fun(ps => "
      "reduceSeq(op)(reduceSeq(op)(init)(ps))(map(f)(drop(w)(xs)))))   (g = groups, l = local, b "
      "= block, w = g*l*b*(n/(g*l*b)): work-item j reads the runs of b elements j, j + g*l, ...; "
      "for CPU devices, each work-item's reduce left to vectorReduce)",
      [](const std::vector<RuleArg>& a) {
        return reduceToWorkGroups(intArg(a, 0), intArg(a, 1), Partition::Blocked, intArg(a, 2));
      }});
}

} // namespace risec::rules
