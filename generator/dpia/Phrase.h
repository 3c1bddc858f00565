// DPIA phrases (RISE & Shine, Fig. 4): identifiers, lambdas, applications,
// dependent lambdas and applications, literals, Nats used as expressions,
// phrase pairs and their projections, and fully applied primitives. The
// same node type holds functional (`mapSeq`, `zip`, ...) and imperative
// (`assign`, `seq`, `new`, `for`, acceptors such as `idxAcc`) primitives;
// which ones a phrase may contain is a property of the stage
// (functional DPIA after RISE->DPIA, imperative DPIA after accT/conT).
#pragma once

#include "dpia/Origin.h"
#include "dpia/PhraseType.h"
#include "rise/types/Scalar.h"
#include "support/SourceLocation.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace risec::dpia {

class PhraseNode;
using Phrase = std::shared_ptr<const PhraseNode>;
struct PrimitiveDef;

enum class PhraseKind {
  Ident,     ///< x
  Lambda,    ///< fun(x => body)
  Apply,     ///< f(arg)
  DepLambda, ///< depFun(l: Nat => body)
  DepApply,  ///< f(N)
  Literal,   ///< 0.0f
  Natural,   ///< a Nat as an expression of type natType or idx[n]
  Pair,      ///< (p, q)
  Proj1,     ///< p.1
  Proj2,     ///< p.2
  Prim,      ///< a fully applied primitive: name(typeArgs..., args...)
};

class PhraseNode {
public:
  PhraseKind kind() const { return kind_; }
  const PhraseType& type() const { return type_; }
  /// The RISE source of the phrase (primitives: the application), if known.
  const SourceLocation& loc() const { return loc_; }

  // Ident
  const std::string& name() const { return name_; }
  std::uint64_t id() const { return id_; }
  // Lambda: param() is an Ident; Lambda / DepLambda: body()
  const Phrase& param() const { return a_; }
  const Phrase& body() const { return b_; }
  // Apply / DepApply: fn(), arg() (Apply)
  const Phrase& fn() const { return a_; }
  const Phrase& arg() const { return b_; }
  // Pair: first(), second(); Proj1/Proj2: of()
  const Phrase& first() const { return a_; }
  const Phrase& second() const { return b_; }
  const Phrase& of() const { return a_; }
  // DepLambda
  const rise::DepBinder& binder() const { return binder_; }
  // DepApply
  const rise::TypeArg& typeArg() const { return typeArg_; }
  // Literal
  const rise::ScalarValue& value() const { return value_; }
  // Natural
  const rise::Nat& nat() const { return nat_; }
  // Prim
  const PrimitiveDef& prim() const { return *prim_; }
  const std::string& primName() const;
  const std::vector<rise::TypeArg>& typeArgs() const { return typeArgs_; }
  const std::vector<Phrase>& args() const { return args_; }
  const rise::Nat& natArg(std::size_t i) const;
  const rise::Type& dataArg(std::size_t i) const;
  /// This phrase applies `p` (a handle of dpia/Primitive.h, primitive::).
  bool isPrim(const PrimitiveDef& p) const { return kind_ == PhraseKind::Prim && prim_ == &p; }
  /// Prim: a free-form annotation kept through the passes: the RISE primitive
  /// behind a loop (`mapSeq`), the name hint of a `new`, a foreign function's
  /// name.
  const std::string& tag() const { return tag_; }
  /// Prim: the RISE primitive this command was made from (Origin.h).
  const Origin& origin() const { return origin_; }

  struct Fields;
  explicit PhraseNode(Fields f);

private:
  PhraseKind kind_;
  PhraseType type_;
  SourceLocation loc_;
  std::string name_;
  std::uint64_t id_ = 0;
  Phrase a_, b_;
  rise::DepBinder binder_;
  rise::TypeArg typeArg_;
  rise::ScalarValue value_;
  rise::Nat nat_;
  const PrimitiveDef* prim_ = nullptr;
  std::vector<rise::TypeArg> typeArgs_;
  std::vector<Phrase> args_;
  std::string tag_;
  Origin origin_;
};

// ---- construction -------------------------------------------------------------

/// A fresh identifier (a new unique id) of the given type.
Phrase freshIdent(const std::string& name, PhraseType type);
Phrase lambda(Phrase param, Phrase body);
/// fun(x => body(x)) with a fresh x of type `paramType`.
Phrase lambda(const std::string& name, PhraseType paramType,
              const std::function<Phrase(const Phrase&)>& body);
Phrase apply(Phrase fn, Phrase arg);
Phrase depLambda(rise::DepBinder binder, Phrase body);
Phrase depApply(Phrase fn, rise::TypeArg arg);
Phrase literal(rise::ScalarValue v, SourceLocation loc = {});
/// A Nat as an `Exp[natType, Rd]` (dt null) or `Exp[idx[n], Rd]`.
Phrase natural(rise::Nat n, rise::Type dt = nullptr);
Phrase phrasePair(Phrase a, Phrase b);
Phrase proj1(Phrase p);
Phrase proj2(Phrase p);
/// A primitive by name (see Primitive.h); its type is computed by the
/// primitive's definition. Throws InternalError for an unknown name.
Phrase prim(const std::string& name, std::vector<rise::TypeArg> typeArgs, std::vector<Phrase> args,
            SourceLocation loc = {});
/// A primitive with an explicitly given result type.
Phrase primTyped(const PrimitiveDef& def, std::vector<rise::TypeArg> typeArgs,
                 std::vector<Phrase> args, PhraseType type, SourceLocation loc,
                 std::string tag = "", Origin origin = {});
/// The same primitive application with another tag.
Phrase withTag(const Phrase& p, std::string tag);

// ---- operations -----------------------------------------------------------------

/// Replaces the identifier with id `id` by `value` (no capture: ids are unique).
Phrase substitute(const Phrase& p, std::uint64_t id, const Phrase& value);
/// Replaces Nat, data and address-space variables everywhere (types, Nats,
/// type arguments).
Phrase substitute(const Phrase& p, const rise::TypeSubst& s);
/// Beta reduction: `fn` applied to `arg`, substituting when `fn` is a lambda.
Phrase betaApply(const Phrase& fn, const Phrase& arg);
/// Beta reduction of a dependent application.
Phrase betaDepApply(const Phrase& fn, const rise::TypeArg& arg);
/// The data type of an Exp or Acc phrase.
const rise::Type& dataType(const Phrase& p);

/// Applies `f` to every direct sub-phrase and rebuilds the node if any changed.
/// True if the identifier with this id occurs in `p`.
bool mentions(const Phrase& p, std::uint64_t id);

Phrase mapChildren(const Phrase& p, const std::function<Phrase(const Phrase&)>& f);

} // namespace risec::dpia
