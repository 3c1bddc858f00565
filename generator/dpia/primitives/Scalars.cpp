// Scalar operators, built-in math functions, conversions and foreign
// functions: read-only computations on scalars, translated by translating
// their arguments (conT) and rebuilding the operation on the results.
#include "dpia/primitives/Common.h"

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
  for (P p : {P::Add, P::Sub, P::Mul, P::Div, P::Mod, P::Min, P::Max, P::And, P::Or, P::Equal,
              P::NotEqual, P::Lt, P::Le, P::Gt, P::Ge, P::Pow})
    scalar(r, p, std::string(rise::primName(p)), 2);
  for (P p : {P::Neg, P::Not, P::Sqrt, P::Exp, P::Log, P::Fabs, P::Floor, P::Sin, P::Cos, P::Tanh,
              P::Cast, P::IndexAsNat, P::NatAsIndex})
    scalar(r, p, std::string(rise::primName(p)), 1);
  scalar(r, P::Select, "select", 3);
  scalar(r, P::VectorFromScalar, "vectorFromScalar", 1);
  // foreign(args...): the tag names the function; any number of arguments
  scalar(r, std::nullopt, "foreign", 0);
}

} // namespace risec::dpia
