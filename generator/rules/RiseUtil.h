// Helpers shared by the rewrite rules: the "stripped" view of an elaborated
// program (implicit DepApps removed, types kept), application spines,
// builders of untyped nodes, free variables, capture-avoiding substitution and
// deterministic fresh names.
//
// Rules pattern-match on the stripped view and build new nodes without types;
// the rewriter re-infers the whole program after every successful rewrite
// (retype), so every node is typed again for the next rule.
#pragma once

#include "rise/ast/Expr.h"
#include "rise/ast/Spine.h"
#include "rise/infer/Infer.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace risec::rules {

using rise::Expr;
using rise::Prim;

// ---- the stripped view -------------------------------------------------------

/// Removes every DepApp marked implicitArg(); keeps all other nodes and types.
Expr stripImplicit(const Expr& e);

/// Re-infers `body` as the def `name` in the context of `context` (for its
/// foreign declarations). Throws CompileError if it does not type-check.
rise::TypedDef retype(const rise::Program& context, const std::string& name, const Expr& body);

/// The program with only the foreign declarations of `context` and the def.
rise::Program singleDefProgram(const rise::Program& context, const std::string& name,
                               const Expr& body);

// ---- spines ---------------------------------------------------------------------

/// `head(dep...)(args...)`: the application spine of a stripped expression.
using rise::Spine;
/// The spine of a stripped expression (implicit type-level arguments left out).
Spine spineOf(const Expr& e);
bool isPrim(const Expr& e, Prim p);
/// The primitive at the head of the spine of `e`, if it is one.
std::optional<Prim> headPrim(const Expr& e);
/// `p` applied to exactly `nargs` value arguments (any explicit dep args).
bool isCall(const Expr& e, Prim p, std::size_t nargs);
/// A store of one value: toMem, or toGlobal/toLocal/toPrivate (the OpenCL
/// forms that take no address space argument).
bool isStore(const Expr& e);

using rise::isMapLike;
using rise::isReduceLike;

// ---- builders (untyped, synthesised locations) ---------------------------------

Expr prim(Prim p);
Expr var(const std::string& name);
Expr app(Expr f, Expr a);
Expr app(Expr f, Expr a, Expr b);
Expr app(Expr f, Expr a, Expr b, Expr c);
Expr lam(const std::string& x, Expr body);
Expr depNat(Expr f, std::int64_t n);
Expr depArg(Expr f, const rise::TypeArg& a);
/// Rebuilds a spine with a new head (keeping dep and value arguments).
Expr rebuild(Expr head, const std::vector<rise::TypeArg>& depArgs, const std::vector<Expr>& args);
/// `p(f)` for a map-like p, keeping its explicit dep args from `like`.
Expr withHead(const Spine& s, Prim p, std::vector<rise::TypeArg> depArgs);

// ---- sizes ----------------------------------------------------------------------

/// A known array type (rules check the shape of their focus with it).
bool isArray(const rise::Type& t);

/// `w*(n/w)`: the largest multiple of w not above n (the part that chunks or
/// vectors of w cover; the tail is n % w).
rise::Nat wholeMultiple(const rise::Nat& n, std::int64_t w);
/// w*((n + w - 1)/w) - n: the elements that pad n to a whole number of blocks of w.
rise::Nat paddingToMultiple(const rise::Nat& n, std::int64_t w);
/// Why an array of `size` elements cannot be cut into chunks (or vectors) of
/// `w`, or nullopt if it can: a constant that w does not divide, or a size
/// computed with a division or a modulo (a padded size such as 7*((k + 6)/7))
/// that w does not provably divide: a precondition would then constrain a
/// padding, not a size of the program, and sizes derived from it would no
/// longer be provably equal (fuzz findings L2, L3). A plain symbolic size
/// (n, m*k) may be cut under a precondition (n%4 == 0).
std::optional<std::string> whyNotChunked(const rise::Nat& size, std::int64_t w);

// ---- variables -------------------------------------------------------------------

std::set<std::string> freeVars(const Expr& e);
bool occursFree(const std::string& x, const Expr& e);
/// Every name bound or used in `e`.
void collectNames(const Expr& e, std::set<std::string>& out);

/// Deterministic fresh names: base + counter, avoiding every name in use.
class NameSupply {
public:
  void reserve(const Expr& e) { collectNames(e, used_); }
  std::string fresh(const std::string& base);

private:
  std::set<std::string> used_;
  int counter_ = 0;
};

/// Capture-avoiding substitution `e[x := v]`.
Expr substitute(const Expr& e, const std::string& x, const Expr& v, NameSupply& names);

/// `e` with the type-level variables of `s` (a dependent function's binder
/// bound to its argument) replaced in its explicit type arguments and
/// parameter annotations: the body of `depFun(n => e)(N)` as `e[n := N]`.
/// Binders are unique by id, so nothing can be captured.
Expr substituteTypeLevel(const Expr& e, const rise::TypeSubst& s);
/// `depFun(n => b)(N)` -> `b[n := N]`, a dependent function applied to a
/// size (explicitly: not an inferred argument); nullopt for anything else.
/// The dependent half of betaReduction and of Shine's gentleBetaReduction.
std::optional<Expr> depBetaReduction(const Expr& e);

} // namespace risec::rules

namespace risec::rules {

/// Every unannotated lambda parameter of `e` whose type is known gets its
/// type as annotation. Inference then sees sizes before it reaches the body
/// (it cannot always solve `4*m = k` when m is met first; see the report of
/// issue 4).
Expr annotateParams(const Expr& e);

/// `typed` (an elaborated expression, possibly with implicit DepApps) with
/// the lambda annotations of `shape` (its stripped structure) restored; null
/// where inference changed the structure (the caller then retypes `shape`
/// without the annotations).
Expr restoreAnnotations(const Expr& shape, const Expr& typed);

} // namespace risec::rules
