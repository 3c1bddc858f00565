// The pieces shared by the vectorised-reduction rules (VectorReduce.cpp,
// VectorReduceRows.cpp): matching `reduce(op)(init)(map(f)(xs))` and building
// its vector accumulation, lane sum and scalar tail. docs/strategies.md,
// "Vectorised reductions".
#pragma once

#include "rules/Rule.h"

namespace risec::rules {

/// A matched `reduce(op)(init)(map(f)(xs))`, xs one float array or the zip of two.
struct Reduction {
  Prim op;
  Expr init;
  std::vector<Expr> arrays; ///< one (xs) or two (zip(a, b)), in zip order
  rise::Nat length;
  std::string x;   ///< f's parameter
  Expr body;       ///< f's body
  Expr liftedBody; ///< the body lifted to vectors
};

/// `op` as a primitive: `add`, or `fun(a, b => a + b)`.
std::optional<Prim> binaryPrim(const Expr& op);

/// Whether `init` may start every lane of every vector accumulator of a
/// reduction with `p` on floats (add with 0, mul with 1, max/min with any
/// literal): also whether two parts of a reduction may each start from it.
bool laneInit(Prim p, const Expr& init);
/// laneInit, with integer literals too where `floatsOnly` is false (a
/// blocked scan's blocks may start from `0` of an i32 add).
bool partInit(Prim p, const Expr& init, bool floatsOnly);

/// Why a reduction with `op` from `init` may not be split into parts that
/// each start from `init` and are combined afterwards (the condition of the
/// vector, chunked and work-group reductions: binaryPrim and laneInit), or
/// empty where it may. For RuleContext::refuse.
std::string whyNotSplittable(const Expr& op, const Expr& init);

/// `e` as a vectorisable reduction: op add with 0, mul with 1, or max/min with
/// any literal on f32/f64, of `map(f)(xs)` or of `xs` itself,
/// f scalar arithmetic that lifts to vectors, the arrays views of the input.
std::optional<Reduction> matchReduction(const Expr& e, RuleContext& ctx);

/// `P(k)(a)` (P take or drop) of every array, each then `asVector(lanes)` if
/// lanes > 0, zipped again if two.
Expr viewOfArrays(const std::vector<Expr>& arrays, Prim p, const rise::Nat& k,
                  std::int64_t lanes = 0);

/// `fun(a, b => a OP b)`.
Expr opLambda(const Reduction& red, RuleContext& ctx);

/// A view of the input: variables, fst/snd, take/drop, transpose, join,
/// split and zip of views (no computation that a rewrite would duplicate).
bool isView(const Expr& e);

/// `zip(accs, blk) |> mapSeqUnroll(fun(q => op(fst(q))(f'(snd(q)))))`.
Expr vectorUpdate(const Reduction& red, const Expr& accs, const Expr& blk, RuleContext& ctx);

/// `fun(accs, blk => zip(accs, blk) |> mapSeqUnroll(fun(q => op(fst(q))(f'(snd(q))))))`:
/// one step of k vector accumulators over a block of k vectors (or pairs).
Expr vectorStep(const Reduction& red, RuleContext& ctx);

/// `vectorFromScalar(init)` in every one of k accumulators.
Expr vectorZeros(const Reduction& red, RuleContext& ctx);

/// The sum of k vector accumulators `accs: k.vec[s, w]`: added as vectors,
/// then their w lanes as scalars.
Expr laneSum(const Reduction& red, std::int64_t k, const Expr& accs, RuleContext& ctx);

/// `fun(acc, y => acc OP f(y))`.
Expr scalarStep(const Reduction& red, RuleContext& ctx);

/// Builds a rule that takes integer parameters.
RuleInfo vectoriseRule(std::string name, std::size_t nparams, std::string before, std::string after,
                       std::function<RuleFn(const std::vector<std::int64_t>&)> make);

} // namespace risec::rules
