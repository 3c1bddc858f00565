// Scalar operators, built-in math functions, conversions and foreign
// functions: read-only computations on scalars, translated by translating
// their arguments (conT) and rebuilding the operation on the results.
#include "dpia/primitives/Common.h"

namespace risec::dpia {

using namespace prims;

namespace {

/// A computation on scalars; a RISE primitive's access (every argument and
/// the result read) comes from the table, `foreign` takes any arguments.
void scalar(PrimitiveRegistry& r, std::optional<rise::Prim> p, const std::string& name) {
  PrimitiveDef& d = r.add(name, p);
  d.conT = [](Translator& t, const Phrase& e, const Continuation& k) { return t.conTArgs(e, k); };
}

} // namespace

void registerScalars(PrimitiveRegistry& r) {
  using P = rise::Prim;
  // every scalar operator and math function
  for (P p : rise::allPrims())
    if (rise::isScalarPrimitive(p))
      scalar(r, p, std::string(rise::primName(p)));
  for (P p : {P::Cast, P::IndexAsNat, P::NatAsIndex, P::VectorFromScalar})
    scalar(r, p, std::string(rise::primName(p)));
  // foreign(args...): the tag names the function; any number of arguments
  scalar(r, std::nullopt, "foreign");
}

} // namespace risec::dpia
