// Scalar operators, built-in math functions, conversions and foreign
// functions: read-only computations on scalars, translated by translating
// their arguments (conT) and rebuilding the operation on the results.
#include "dpia/primitives/Common.h"
#include "rise/infer/Signatures.h"

namespace risec::dpia {

using namespace prims;

namespace {

void scalar(PrimitiveRegistry& r, std::optional<rise::Prim> p, const std::string& name, int arity) {
  PrimitiveDef& d = r.add(name, p);
  d.access.assign(static_cast<std::size_t>(arity), rd());
  d.result = fixed(Access::Rd);
  d.conT = [](Translator& t, const Phrase& e, const Continuation& k) { return t.conTArgs(e, k); };
}

} // namespace

void registerScalars(PrimitiveRegistry& r) {
  using P = rise::Prim;
  // every scalar operator and math function, with the arity of its signature
  for (P p : rise::allPrims())
    if (rise::isScalarPrimitive(p))
      scalar(r, p, std::string(rise::primName(p)), rise::valueArity(p));
  for (P p : {P::Cast, P::IndexAsNat, P::NatAsIndex, P::VectorFromScalar})
    scalar(r, p, std::string(rise::primName(p)), 1);
  // foreign(args...): the tag names the function; any number of arguments
  scalar(r, std::nullopt, "foreign", 0);
}

} // namespace risec::dpia
