// Builders for imperative DPIA (RISE & Shine, Listing 7, and §VI): commands
// and acceptors. Each is a primitive of the registry
// (dpia/primitives/Imperative.cpp, Acceptors.cpp).
#pragma once

#include "dpia/Phrase.h"

#include <functional>
#include <string>

namespace risec::dpia {

// ---- commands ----------------------------------------------------------------

/// `lhs = rhs` (lhs: Acc[dt], rhs: Exp[dt, Rd]).
Phrase assign(const Phrase& lhs, const Phrase& rhs);
/// `c1; c2; ...` (nested sequences are flattened, `skip` dropped).
Phrase seq(std::vector<Phrase> commands);
Phrase skip();
/// `new(dt, fun(v => body))`: a variable of data type `dt`; `body` receives
/// the pair v = (Exp[dt, Rd] x Acc[dt]); read with proj1(v), write with proj2(v).
/// `origin`: the RISE primitive that made it (reduceSeq's accumulator, toMem).
Phrase newVar(const rise::Type& dt, const std::string& name,
              const std::function<Phrase(const Phrase& v)>& body, const SourceLocation& loc = {},
              Origin origin = {});
/// `new` in an OpenCL address space (docs/dpia.md, "OpenCL"), made by the
/// RISE primitive `origin` at `loc` (toLocal, toGlobal, oclToMem(a),
/// oclReduceSeq(a), oclIterate(a)).
Phrase newVarIn(const rise::AddrSpace& space, const SourceLocation& loc, const rise::Type& dt,
                const std::string& name, const std::function<Phrase(const Phrase& v)>& body,
                Origin origin = {});
/// The address space of a `new`: Private unless newVarIn chose another.
rise::AddrSpace newAddrSpace(const Phrase& newCommand);
/// OpenCL `barrier(flags)`: `local`/`global` say which fences; `why` is
/// printed as a comment above it.
Phrase barrier(bool local, bool global, const std::string& why);
bool barrierLocal(const Phrase& b);
bool barrierGlobal(const Phrase& b);
/// `for(n, fun(i => body))`: i is a Nat variable in [0, n), given to `body` as
/// an `Exp[idx[n], Rd]`. `origin` names the RISE primitive (loop comment).
Phrase forLoop(const rise::Nat& n, const std::string& indexName,
               const std::function<Phrase(const Phrase& i)>& body, const std::string& origin,
               bool unroll = false);
/// The loop index variable and trip count of a `for`.
const rise::Nat& forCount(const Phrase& loop);
const rise::Nat& forIndex(const Phrase& loop);
bool forUnroll(const Phrase& loop);

// ---- acceptors ---------------------------------------------------------------

Phrase idxAcc(const Phrase& index, const Phrase& acc);
Phrase joinAcc(const rise::Nat& n, const rise::Nat& m, const Phrase& acc);
Phrase splitAcc(const rise::Nat& k, const rise::Nat& m, const Phrase& acc);
Phrase transposeAcc(const rise::Nat& n, const rise::Nat& m, const Phrase& acc);
Phrase zipAcc1(const Phrase& acc);
Phrase zipAcc2(const Phrase& acc);
Phrase unzipAcc(const Phrase& acc);
Phrase pairAcc1(const Phrase& acc);
Phrase pairAcc2(const Phrase& acc);
Phrase takeAcc(const rise::Nat& n, const rise::Nat& m, const Phrase& acc);
Phrase dropAcc(const rise::Nat& n, const rise::Nat& m, const Phrase& acc);
/// An acceptor of (n + m) elements that writes the first n into `acc` (of n
/// elements) and discards the other m: `take(n)` in acceptor position, the
/// write-back of a computation padded to a multiple of a tile.
Phrase discardTailAcc(const rise::Nat& n, const rise::Nat& m, const Phrase& acc);
/// acc: Acc[m.vec[s, k]] as an Acc[(m*k).s] (for writing asVector(k, x)).
Phrase asVectorAcc(const rise::Nat& k, const Phrase& acc);
/// acc: Acc[(m*k).s] as an Acc[m.vec[s, k]] (for writing asScalar(x)).
Phrase asScalarAcc(const rise::Nat& k, const Phrase& acc);

/// `idx(i, x)` as an expression (x: Exp[n.t, Rd]).
Phrase idxExp(const Phrase& index, const Phrase& x);

} // namespace risec::dpia
