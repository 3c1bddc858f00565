// DPIA phrase types (RISE & Shine, Fig. 4): expressions `Exp[dt, Rd|Wr]`,
// acceptors `Acc[dt]`, commands `Comm`, phrase pairs, functions and dependent
// functions. Data types are RISE's data types (rise::Type).
#pragma once

#include "rise/types/Type.h"

#include <memory>
#include <string>

namespace risec::dpia {

/// The read/write annotation of an expression: `Rd` can be read where it is
/// (a variable, a view of memory, a scalar computation); `Wr` must first be
/// written to memory (the result of a `mapSeq`, ...).
enum class Access { Rd, Wr };
std::string_view accessName(Access a); ///< "Rd" | "Wr"

class PhraseTypeNode;
using PhraseType = std::shared_ptr<const PhraseTypeNode>;

enum class PhraseTypeKind { Exp, Acc, Comm, Pair, Fun, DepFun };

class PhraseTypeNode {
public:
  PhraseTypeKind kind() const { return kind_; }
  const rise::Type& data() const { return data_; }          ///< Exp, Acc
  Access access() const { return access_; }                 ///< Exp
  const PhraseType& first() const { return a_; }            ///< Pair
  const PhraseType& second() const { return b_; }           ///< Pair
  const PhraseType& param() const { return a_; }            ///< Fun
  const PhraseType& result() const { return b_; }           ///< Fun, DepFun
  const rise::DepBinder& binder() const { return binder_; } ///< DepFun

  bool isExp() const { return kind_ == PhraseTypeKind::Exp; }

  PhraseTypeNode(PhraseTypeKind k, rise::Type data, Access access, PhraseType a, PhraseType b,
                 rise::DepBinder binder)
      : kind_(k), data_(std::move(data)), access_(access), a_(std::move(a)), b_(std::move(b)),
        binder_(std::move(binder)) {}

private:
  PhraseTypeKind kind_;
  rise::Type data_;
  Access access_ = Access::Rd;
  PhraseType a_, b_;
  rise::DepBinder binder_;
};

PhraseType expType(rise::Type dt, Access a);
PhraseType accType(rise::Type dt);
PhraseType commType();
PhraseType pairPhraseType(PhraseType a, PhraseType b);
PhraseType funPhraseType(PhraseType param, PhraseType result);
PhraseType depFunPhraseType(rise::DepBinder binder, PhraseType body);

/// `Exp[n.f32, Rd]`, `Acc[f32]`, `Comm`, `Exp[f32, Rd] -> Exp[f32, Wr]`,
/// `(Exp[f32, Rd] x Acc[f32])`, `(l: Nat) -> ...`.
std::string phraseTypeToString(const PhraseType& t);

PhraseType substitute(const PhraseType& t, const rise::TypeSubst& s);

/// True when a value of data type `dt` is copied by a single C assignment
/// (scalars, vectors, indices and pairs of those): only such `Rd` expressions
/// may stand where `Wr` is needed: an array is never copied by a hidden loop
/// (docs/dpia.md, "3. RISE -> functional DPIA", E0602).
bool copiedByAssignment(const rise::Type& dt);

} // namespace risec::dpia
