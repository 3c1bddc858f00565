// The elaboration walk of inference: resolves names, inlines defs, inserts
// the DepApp nodes of implicit and explicit dependent arguments, and assigns
// every node a type (possibly still containing unknowns, which the Unifier
// solves). See Infer.h for the shape of the result.
#pragma once

#include "rise/infer/Unifier.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace risec::rise {

class Elaborator {
public:
  /// `program` may be null (standalone expressions); `visibleDecls` is the
  /// number of declarations (in Program::order) visible to the expression.
  Elaborator(const Program* program, std::size_t visibleDecls, Unifier& unifier)
      : program_(program), visibleDecls_(visibleDecls), u_(unifier) {}

  Expr elaborate(const Expr& e);

private:
  struct ValueBinding {
    std::string name;
    Type type;
  };

  Expr elabVar(const Expr& e);
  Expr elabApp(const Expr& e);
  Expr elabDepApp(const Expr& e);
  Expr elabLambda(const Expr& e);
  Expr elabDepLambda(const Expr& e);
  Expr instantiatePrimitive(Prim p, const SourceLocation& loc);
  Expr instantiateImplicits(Expr fn);
  Expr applyDep(Expr fn, const TypeArg& arg, bool implicit, const SourceLocation& loc);
  /// `fn` applied to `arg` where fn's depFun comes after `pending` value
  /// arguments that `fn` is applied to, pushed under them (null if `fn`
  /// has another form).
  Expr applyDepUnder(const Expr& fn, std::size_t pending, const TypeArg& arg, bool implicit,
                     const SourceLocation& loc);
  Expr inlineDef(const Def& def, std::size_t index, const SourceLocation& useLoc);

  /// Reads a call argument as a type-level value of kind `k`, if it is one.
  std::optional<TypeArg> asTypeArg(const Expr& arg, Kind k) const;
  std::optional<Nat> asNat(const Expr& arg) const;
  const DepBinder* lookupDep(const std::string& name) const;
  void checkExplicitArg(Prim p, int position, const TypeArg& arg, const SourceLocation& loc);
  [[noreturn]] void unknownName(const Expr& e) const;

  const Program* program_;
  std::size_t visibleDecls_;
  Unifier& u_;
  std::vector<ValueBinding> values_; ///< lambda binders in scope, innermost last
  std::vector<DepBinder> deps_;      ///< depFun binders in scope, innermost last
  /// Names of inlined defs by their elaborated node, for messages about
  /// applying them (`the size argument k = 5 of \`chunks\``).
  std::map<const ExprNode*, std::string> inlinedNames_;
};

/// "the 2nd argument of `zip`" for an application spine.
std::string describeArgument(const Expr& fnSpine, int valueIndex);

} // namespace risec::rise
