// Run-time values of the reference interpreter.
//
// A value is one of
//   - a scalar        (ScalarValue: bool, i8..u64, f32, f64, natType)
//   - an array        n.dt   : its elements, in index order
//   - a pair          (a, b)
//   - a vector        vec[s, k] : k scalars ("lanes") of one scalar kind
//   - an index        idx[n] : a number i with 0 <= i < n
//   - a function      a closure, a partially applied primitive or a foreign
//                     function (functions are never stored in data)
// Values are immutable; arrays, pairs and vectors share their contents, so
// copying a Value is cheap.
#pragma once

#include "rise/types/Type.h"
#include "support/SourceLocation.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace risec::rise::interp {

class Value;
struct PairData;
class Callable;

/// An element of idx[bound].
struct IndexValue {
  std::int64_t value = 0;
  std::int64_t bound = 0;
  bool operator==(const IndexValue&) const = default;
};

class Value {
public:
  /// In the order of the alternatives of `Repr`.
  enum class Kind { Scalar, Array, Pair, Vector, Index, Function };

  Value() = default; ///< the i32 scalar 0

  static Value scalar(ScalarValue s);
  static Value array(std::vector<Value> elements);
  static Value pair(Value first, Value second);
  /// All lanes must have the same kind.
  static Value vector(std::vector<ScalarValue> lanes);
  static Value index(std::int64_t value, std::int64_t bound);
  static Value function(std::shared_ptr<const Callable> f);

  Kind kind() const { return static_cast<Kind>(repr_.index()); }
  bool isScalar() const { return kind() == Kind::Scalar; }
  bool isArray() const { return kind() == Kind::Array; }
  bool isPair() const { return kind() == Kind::Pair; }
  bool isVector() const { return kind() == Kind::Vector; }
  bool isIndex() const { return kind() == Kind::Index; }
  bool isFunction() const { return kind() == Kind::Function; }

  // Accessors throw InternalError when the value has another kind: the typed
  // AST guarantees the kind, so a mismatch is a bug in risec.
  const ScalarValue& asScalar() const;
  const std::vector<Value>& elements() const;            ///< Array
  std::size_t size() const { return elements().size(); } ///< Array length
  const Value& operator[](std::size_t i) const { return elements()[i]; }
  const Value& first() const;                    ///< Pair
  const Value& second() const;                   ///< Pair
  const std::vector<ScalarValue>& lanes() const; ///< Vector
  const IndexValue& asIndex() const;
  const Callable& function() const;

  /// Exact structural equality (floats compare with ==, NaN equals NaN);
  /// functions are equal only if they are the same object.
  bool operator==(const Value& o) const;

private:
  using Repr =
      std::variant<ScalarValue, std::shared_ptr<const std::vector<Value>>,
                   std::shared_ptr<const PairData>, std::shared_ptr<const std::vector<ScalarValue>>,
                   IndexValue, std::shared_ptr<const Callable>>;
  explicit Value(Repr r) : repr_(std::move(r)) {}
  Repr repr_;
};

struct PairData {
  Value first, second;
};

/// The evaluated argument of a dependent application (DepApp): a size, a data
/// type or an address space.
struct DepArg {
  Kind kind = Kind::Nat;
  /// Nat: the value, or nullopt if the Nat could not be evaluated (an unbound
  /// variable or a division by zero); `natExpr` keeps it for error messages.
  std::optional<std::int64_t> nat;
  Nat natExpr;
  Type type; ///< Data, with data variables bound in the environment replaced
  AddrSpace addr;
  SourceLocation loc; ///< the DepApp that supplied the argument (for errors)

  static DepArg ofNat(std::int64_t n);
};

/// A function value. `apply` takes one value argument, `applyDep` one
/// type-level argument (curried, like the AST).
class Callable {
public:
  virtual ~Callable() = default;
  virtual Value apply(const Value& arg) const = 0;
  virtual Value applyDep(const DepArg& arg) const = 0;
};

/// Applies a function value to a value / a dependent argument.
Value apply(const Value& f, const Value& arg);
Value applyDep(const Value& f, const DepArg& arg);

/// Compares two values structurally. Floats (also inside vectors) are close
/// if |a - b| <= atol + rtol * |b| (b is the expected value), or both are NaN,
/// or both are the same infinity; every other scalar must be equal exactly.
/// On a difference, `why` (if given) says where: "at [3][1]: 1.5 vs 1.25".
bool valuesClose(const Value& actual, const Value& expected, double rtol, double atol,
                 std::string* why = nullptr);

/// A short description of a value's kind for messages: "an array of 3
/// elements", "a pair", "an f32 scalar", "vec[f32, 4]", "an index", "a function".
std::string describeValue(const Value& v);

} // namespace risec::rise::interp
