#include "dpia/View.h"

#include "support/Diagnostic.h"

namespace risec::dpia {

rise::Nat Path::popIndex() {
  if (elems.empty() || elems.back().kind != PathElem::Kind::Index)
    throw InternalError("view resolution: expected an array index in the access path");
  rise::Nat i = elems.back().index;
  elems.pop_back();
  return i;
}

bool Path::popFst() {
  if (elems.empty() || elems.back().kind == PathElem::Kind::Index)
    throw InternalError("view resolution: expected a pair component in the access path");
  bool fst = elems.back().kind == PathElem::Kind::Fst;
  elems.pop_back();
  return fst;
}

PathElem::Kind Path::next() const {
  if (elems.empty())
    throw InternalError("view resolution: the access path is empty");
  return elems.back().kind;
}

} // namespace risec::dpia
