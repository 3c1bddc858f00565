// The reference interpreter: the meaning of an elaborated, typed RISE program
// on concrete values. It is the oracle that generated C, OpenMP and OpenCL
// code is compared with, so it is deliberately direct: one case per AST node
// kind, one function per primitive (Primitives.h), no optimisation.
//
// Evaluation is strict (call by value), in the order of the AST:
//   Var        the value bound to the name by the innermost enclosing lambda
//   Lambda     a closure capturing the environment
//   App        evaluate the function, then the argument, then apply
//   DepLambda  a closure over a Nat, Data or AddrSpace parameter
//   DepApp     evaluate the function and the type-level argument (Nats are
//              computed with the sizes in scope), then apply
//   Literal    its value
//   Primitive  a primitive waiting for its arguments: it collects its
//              dependent arguments (DepApp, in signature order) and then its
//              value arguments (App) and runs once it has all of them
//   Foreign    a foreign C function (Foreign.h), run once saturated
#pragma once

#include "rise/infer/Infer.h"
#include "rise/interp/Env.h"
#include "rise/interp/Value.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace risec::rise::interp {

/// Values of the size parameters of an entry, by name: {"n": 64, "m": 48}.
using SizeEnv = std::map<std::string, std::int64_t>;

/// Evaluates an expression in an environment. Throws CompileError (E04xx) on
/// a run-time error and InternalError on an ill-typed program.
Value evalExpr(const Expr& e, const Env& env = {});

/// The names of the size parameters of an entry, in order: the Nat binders
/// of its type (including sizes that inference generalised) and of the
/// leading depFun of its expression.
std::vector<std::string> sizeParameters(const TypedDef& def);

/// An entry instantiated with concrete sizes.
struct EntryInterface {
  std::vector<std::string> inputNames; ///< lambda binder names ("" when unnamed)
  std::vector<Type> inputTypes;        ///< data types with the sizes substituted
  Type outputType;                     ///< data type with the sizes substituted
};

/// Checks `sizes` against the entry (every size parameter given, no unknown
/// name, none negative: E0410) and the entry's preconditions (E0411), and
/// returns the concrete types of its inputs and output.
EntryInterface instantiateEntry(const TypedDef& def, const SizeEnv& sizes);

/// Runs an entry `depFun(n..) => fun(x..) => body` (or any def whose type has
/// that shape): binds the size parameters from `sizes` (by name), checks the
/// preconditions, checks the inputs against the parameter types (count E0412,
/// shape E0413), applies the entry to them and returns the result.
Value evaluate(const TypedDef& def, const SizeEnv& sizes, const std::vector<Value>& inputs);

/// Reads the entry's inputs from JSON texts (ValueIO.h), one per parameter.
std::vector<Value> parseInputs(const TypedDef& def, const SizeEnv& sizes,
                               const std::vector<std::string>& jsonInputs);

/// Reads all inputs from one JSON list with an element per input, e.g.
/// `[[1, 2, 3], 2.0]`. `source` names the text in messages ("--inputs").
/// Malformed JSON or a non-list is E0414, a wrong count E0412.
std::vector<Value> parseInputList(const TypedDef& def, const SizeEnv& sizes,
                                  std::string_view jsonList, const std::string& source);

/// "input 2 (`x`)": how messages name the i-th (0-based) input.
std::string inputLabel(std::size_t i, const std::string& name);

} // namespace risec::rise::interp
