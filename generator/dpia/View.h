// Views: resolving a chain of view primitives (split, join, transpose, zip,
// ...) applied to memory into an access of the memory itself. A Path lists
// the steps that select a scalar from a value, outermost step last; each view
// primitive rewrites the path (PrimitiveDef::view), e.g. `split(k)` turns
// [.., j, i] into [.., i*k + j]. The code generator walks a phrase with a
// path until it reaches an identifier (memory) or a scalar computation.
#pragma once

#include "dpia/Phrase.h"

#include <functional>
#include <vector>

namespace risec::dpia {

struct PathElem {
  enum class Kind { Index, Fst, Snd } kind = Kind::Index;
  rise::Nat index; ///< Index
};

struct Path {
  std::vector<PathElem> elems; ///< back() is the next (outermost) step
  /// Turns an index phrase (`Exp[idx[n], Rd]`) into a Nat; supplied by the
  /// code generator (run-time indices become opaque Nat variables).
  std::function<rise::Nat(const Phrase&)> indexOf;
  /// Conditions `index < bound` that a write through this path must meet:
  /// an acceptor that discards part of what it is given (discardTailAcc)
  /// adds one; reads never do.
  struct Bound {
    rise::Nat index, bound;
  };
  std::vector<Bound> writeBounds;

  bool empty() const { return elems.empty(); }
  void pushIndex(rise::Nat i) { elems.push_back({PathElem::Kind::Index, std::move(i)}); }
  void pushFst() { elems.push_back({PathElem::Kind::Fst, nullptr}); }
  void pushSnd() { elems.push_back({PathElem::Kind::Snd, nullptr}); }
  /// Removes and returns the next step, which must be an index.
  rise::Nat popIndex();
  /// Removes the next step, which must be Fst or Snd; true for Fst.
  bool popFst();
  PathElem::Kind next() const;
};

} // namespace risec::dpia
