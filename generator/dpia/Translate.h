// Functional -> imperative DPIA: the acceptor translation `accT` and the
// continuation translation `conT` (RISE & Shine, Listings 8, 9 and 14).
// The rules of each primitive live with the primitive (Primitive.h); this
// class dispatches to them and handles the phrase forms that are not
// primitives (identifiers, literals, let-style applications of lambdas).
#pragma once

#include "dpia/Primitive.h"
#include "dpia/Program.h"

namespace risec::dpia {

class Translator {
public:
  /// A command that writes the value of `e` (an `Exp[dt, _]`) into `out` (an `Acc[dt]`).
  Phrase accT(const Phrase& e, const Phrase& out);
  /// A command that computes `e` (an `Exp[dt, Rd]`) and continues with `k`
  /// applied to an expression that reads the value (a view of memory).
  Phrase conT(const Phrase& e, const Continuation& k);

  /// conT of every expression argument of `e` in order, then `k` applied to
  /// `e` rebuilt with the translated arguments (views and scalar operators).
  Phrase conTArgs(const Phrase& e, const Continuation& k);
  /// conT of each phrase of `es` in order, then `k` of the translated list.
  Phrase conTList(const std::vector<Phrase>& es,
                  const std::function<Phrase(const std::vector<Phrase>&)>& k);
};

/// Sets `p.output` (the identifier `output: Acc[outputType]`) and
/// `p.command = accT(p.body, output)`.
void translateToImperative(Program& p);

} // namespace risec::dpia
