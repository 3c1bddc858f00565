// The DPIA primitive registry. Each primitive is defined once, in the file of
// its family (dpia/primitives/*.cpp), with
//   - its read/write-annotated type (`access`, `result`, `writableView`),
//     used by the RISE->DPIA translation (FromRise.h) to check that every
//     memory choice was made: for a RISE primitive taken from its row of the
//     primitive table (the `uses(...)` of RISEC_PRIMITIVES, rise/ast/
//     Primitive.h) when it is registered, never written here; `type`;
//   - its acceptor translation `accT` and continuation translation `conT`
//     (RISE & Shine, Listings 8, 9 and 14);
//   - for views and acceptors, how it transforms an access path (`view`),
//     used to resolve views into memory indices (View.h).
// Translation code never switches over primitive names.
#pragma once

#include "dpia/Phrase.h"
#include "rise/ast/Primitive.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace risec::dpia {

class Translator;
struct Path;

/// The access a RISE primitive demands of one value argument.
struct ArgAccess {
  enum class Kind {
    Rd,   ///< must be readable (Exp[dt, Rd])
    Wr,   ///< must be writable (Exp[dt, Wr])
    Poly, ///< a view: any access, the same for every Poly argument and the result
    Fun,  ///< a function: parameters Rd, body `body`
  } kind = Kind::Rd;
  Access body = Access::Rd; ///< Fun: the access its body must have
  int arity = 1;            ///< Fun: number of (value) parameters
  bool depNat = false;      ///< Fun: a dependent function over one Nat first (iterate)
  bool anyBody = false;     ///< Fun: the body may have any access (let)
};

/// The access of a primitive's result: fixed, or that of its Poly arguments.
struct ResultAccess {
  enum class Kind {
    Fixed,   ///< always `access`
    Poly,    ///< that of the Poly arguments (views)
    FunBody, ///< that of the body of the function argument `arg` (let)
  } kind = Kind::Fixed;
  Access access = Access::Rd;
  std::size_t arg = 0;
};

using Continuation = std::function<Phrase(const Phrase&)>;

/// The read/write annotation of a RISE primitive's DPIA definition.
struct AccessSignature {
  std::vector<ArgAccess> args; ///< per value argument
  ResultAccess result;
  bool writableView = false; ///< a Wr version of a Poly view is allowed (zip yes, slide no)
};

/// The annotation of RISE primitive `p`, from its row of RISEC_PRIMITIVES:
/// its `uses(...)` (rise::PrimAccess), or for a scalar operator or built-in
/// math function every argument read and the result read. Throws an
/// InternalError for a primitive whose row declares none (`reduce`, which
/// lowerToC always replaces).
AccessSignature accessFromTable(rise::Prim p);

struct PrimitiveDef {
  std::string name;
  /// The RISE primitive this DPIA primitive translates (nullopt: DPIA only).
  std::optional<rise::Prim> rise;
  /// Per value argument (functional primitives); for a RISE primitive,
  /// accessFromTable(*rise).args, set by PrimitiveRegistry::add.
  std::vector<ArgAccess> access;
  ResultAccess result; ///< for a RISE primitive, from the table
  /// Whether a Wr version of a Poly view is allowed (zip yes, slide no); for
  /// a RISE primitive, from the table.
  bool writableView = false;

  /// The phrase type of an application; null: the caller supplies it.
  std::function<PhraseType(const std::vector<rise::TypeArg>&, const std::vector<Phrase>&)> type;
  /// accT(e, out): a command writing `e` (an application of this primitive)
  /// into the acceptor `out`.
  std::function<Phrase(Translator&, const Phrase& e, const Phrase& out)> accT;
  /// conT(e, k): a command that computes `e` and continues with `k` applied to
  /// an expression from which the value can be read.
  std::function<Phrase(Translator&, const Phrase& e, const Continuation& k)> conT;
  /// Resolution of a view or acceptor: consumes/extends `path` and returns the
  /// phrase to continue with (View.h). Null for primitives that are not views.
  std::function<Phrase(const Phrase& e, Path& path)> view;
};

/// Looks a primitive up by its DPIA name; null if unknown.
const PrimitiveDef* findPrimitive(const std::string& name);
/// Typed handles of the primitives that passes after the translation
/// recognise (dpia/Passes.cpp, codegen/): `c->isPrim(primitive::parFor())`
/// instead of a name, so that a misspelt or renamed primitive is a compile
/// error, not a pass that silently never matches.
namespace primitive {
const PrimitiveDef& arrayLiteral();
const PrimitiveDef& assign();
const PrimitiveDef& barrier();
const PrimitiveDef& circularBuffer();
const PrimitiveDef& discardTailAcc();
const PrimitiveDef& forLoop();
const PrimitiveDef& foreign();
const PrimitiveDef& indexAsNat();
const PrimitiveDef& natAsIndex();
const PrimitiveDef& newVar();
const PrimitiveDef& parFor();
const PrimitiveDef& parForCombine();
const PrimitiveDef& parForReduce();
const PrimitiveDef& rotateValues();
const PrimitiveDef& seq();
const PrimitiveDef& skip();
} // namespace primitive

/// The DPIA primitive of a RISE primitive (after lowering); null if none.
const PrimitiveDef* primitiveForRise(rise::Prim p);
/// Every registered primitive, sorted by name (for documentation and tests).
std::vector<const PrimitiveDef*> allPrimitives();

/// Used by the family files to add their primitives.
class PrimitiveRegistry {
public:
  /// A new definition; that of a RISE primitive `rise` comes with its
  /// access from the table (accessFromTable).
  PrimitiveDef& add(std::string name, std::optional<rise::Prim> rise = std::nullopt);
};

// One registration function per family (dpia/primitives/*.cpp).
void registerMaps(PrimitiveRegistry& r);
void registerReduces(PrimitiveRegistry& r);
void registerViews(PrimitiveRegistry& r);
void registerMemory(PrimitiveRegistry& r);
void registerScalars(PrimitiveRegistry& r);
void registerIterate(PrimitiveRegistry& r);
void registerImperative(PrimitiveRegistry& r);
void registerAcceptors(PrimitiveRegistry& r);
void registerBuffers(PrimitiveRegistry& r);
void registerParallel(PrimitiveRegistry& r);

} // namespace risec::dpia
