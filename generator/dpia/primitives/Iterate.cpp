// iterate (RISE & Shine, §VI, Listings 13 and 14):
//   iterate(k, n, m, t, f: (l: Nat) -> Exp[(l*n).t, Rd] -> Exp[l.t, Wr],
//           x: Exp[(m*n^k).t, Rd]): Exp[m.t, Wr]
// Step j (0-based) maps (m*n^(k-j)) elements to (m*n^(k-j-1)). The steps
// alternate between two buffers of the largest intermediate size, as the
// double buffer of Listing 12: the first step reads the input, the last
// writes the output, so there is no copy. With a constant k (the C back end
// requires it) the loop over the steps is unrolled, which turns the pointer
// swap into a static choice of buffer and keeps every size a plain Nat.
#include "dpia/primitives/Common.h"

namespace risec::dpia {

using namespace prims;
using rise::Nat;

void registerIterate(PrimitiveRegistry& r) {
  PrimitiveDef& d = r.add("iterate", rise::Prim::Iterate);
  ArgAccess body = fun(1, Access::Wr);
  body.depNat = true;
  d.access = {body, rd()};
  d.result = fixed(Access::Wr);
  d.accT = [](Translator& t, const Phrase& e, const Phrase& out) -> Phrase {
    const Nat &kNat = e->natArg(0), &n = e->natArg(1), &m = e->natArg(2);
    const rise::Type& dt = e->dataArg(3);
    if (!kNat->isConst())
      throw CompileError("E0699", e->loc(),
                         "`iterate` with a symbolic number of steps (`" + rise::natToString(kNat) +
                             "`) is not supported by the C back end yet; use a constant");
    std::int64_t k = kNat->value();
    const Phrase& f = e->args()[0];
    auto sizeAfter = [&](std::int64_t step) { // elements after `step` steps
      return m * rise::natPow(n, rise::natConst(k - step));
    };
    auto stepBody = [&](std::int64_t j, const Phrase& in) {
      return call(betaDepApply(f, sizeAfter(j + 1)), in);
    };
    return t.conT(e->args()[1], [&](const Phrase& x) -> Phrase {
      if (k == 0)
        return t.accT(x, out);
      if (k == 1)
        return t.accT(stepBody(0, x), out);
      Nat cap = sizeAfter(1);
      rise::Type bufType = rise::arrayType(cap, dt);
      auto prefix = [&](const Phrase& buf, const Nat& len) {
        return primTyped(*findPrimitive("take"), {len, cap - len, dt}, {proj1(buf)},
                         expType(rise::arrayType(len, dt), Access::Rd), {});
      };
      return newVar(bufType, "bufA", [&](const Phrase& a) {
        return newVar(bufType, "bufB", [&](const Phrase& b) {
          std::vector<Phrase> steps;
          Phrase in = x;
          for (std::int64_t j = 0; j < k; ++j) {
            Nat len = sizeAfter(j + 1);
            const Phrase& buf = j % 2 == 0 ? a : b;
            if (j + 1 == k) {
              steps.push_back(t.accT(stepBody(j, in), out));
            } else {
              steps.push_back(t.accT(stepBody(j, in), takeAcc(len, cap - len, proj2(buf))));
              in = prefix(buf, len);
            }
          }
          return seq(std::move(steps));
        });
      });
    });
  };
}

} // namespace risec::dpia
