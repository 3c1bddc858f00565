#include "rise/interp/Primitives.h"

#include "rise/interp/RuntimeError.h"

namespace risec::rise::interp {

std::int64_t PrimCall::nat(std::size_t i) const {
  const DepArg& d = deps.at(i);
  if (d.kind != Kind::Nat)
    throw InternalError("interpreter: argument " + std::to_string(i) + " of `" +
                        std::string(primName(prim)) + "` is not a Nat");
  std::string text = d.natExpr ? natToString(d.natExpr) : "?";
  if (!d.nat)
    runtimeError(errc::kBadSizeArgument, loc,
                 "cannot evaluate the size `" + text + "` of `" + std::string(primName(prim)) +
                     "` (an unbound size variable or a division by zero)");
  if (*d.nat < 0)
    runtimeError(errc::kBadSizeArgument, loc,
                 "the size `" + text + "` of `" + std::string(primName(prim)) + "` is negative (" +
                     std::to_string(*d.nat) + ")");
  return *d.nat;
}

const Type& PrimCall::type(std::size_t i) const {
  const DepArg& d = deps.at(i);
  if (d.kind != Kind::Data || !d.type)
    throw InternalError("interpreter: argument " + std::to_string(i) + " of `" +
                        std::string(primName(prim)) + "` is not a data type");
  return d.type;
}

Value runPrimitive(const PrimCall& call) {
  return isScalarPrimitive(call.prim) ? runScalarPrimitive(call) : runDataPrimitive(call);
}

} // namespace risec::rise::interp
