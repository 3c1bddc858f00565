// iterate (RISE & Shine, §VI, Listings 13 and 14):
//   iterate(k, n, m, t, f: (l: Nat) -> Exp[(l*n).t, Rd] -> Exp[l.t, Wr],
//           x: Exp[(m*n^k).t, Rd]): Exp[m.t, Wr]
// Step j (0-based) maps (m*n^(k-j)) elements to (m*n^(k-j-1)). The steps
// alternate between two buffers of the largest intermediate size, as the
// double buffer of Listing 12: the first step reads the input, the last
// writes the output, so there is no copy. With a constant k (the C back end
// requires it) the loop over the steps is unrolled, which turns the pointer
// swap into a static choice of buffer and keeps every size a plain Nat.
//
// oclIterate(a, k, n, m, t, f, x) (OpenCL, as in Shine): the same, with the
// two buffers in address space `a`. Plain `iterate` allocates them without
// an address space (private in OpenCL). Who may write and read them is
// checked like any other temporary (docs/dpia.md, "Temporaries").
#include "dpia/primitives/Common.h"

namespace risec::dpia {

using namespace prims;
using rise::Nat;

namespace {

/// `iterate`, or `oclIterate` when `spaceArg` (its first type argument is
/// the buffers' address space).
void addIterate(PrimitiveRegistry& r, const char* name, rise::Prim p, bool spaceArg) {
  PrimitiveDef& d = r.add(name, p);
  d.accT = [spaceArg](Translator& t, const Phrase& e, const Phrase& out) -> Phrase {
    std::size_t first = spaceArg ? 1 : 0;
    const Nat &kNat = e->natArg(first), &n = e->natArg(first + 1), &m = e->natArg(first + 2);
    const rise::Type& dt = e->dataArg(first + 3);
    const rise::AddrSpace* space =
        spaceArg ? std::get_if<rise::AddrSpace>(&e->typeArgs().at(0)) : nullptr;
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
      auto buffer = [&](const char* bufName, const std::function<Phrase(const Phrase&)>& body) {
        Origin origin{e->prim().rise, nullptr, TempRole::DoubleBuffer};
        return space ? newVarIn(*space, e->loc(), bufType, bufName, body, origin)
                     : newVar(bufType, bufName, body, e->loc(), origin);
      };
      auto steps = [&](const Phrase& a, const Phrase& b) {
        std::vector<Phrase> cmds;
        Phrase in = x;
        for (std::int64_t j = 0; j < k; ++j) {
          Nat len = sizeAfter(j + 1);
          const Phrase& buf = j % 2 == 0 ? a : b;
          if (j + 1 == k) {
            cmds.push_back(t.accT(stepBody(j, in), out));
          } else {
            cmds.push_back(t.accT(stepBody(j, in), takeAcc(len, cap - len, proj2(buf))));
            in = prefix(buf, len);
          }
        }
        return seq(std::move(cmds));
      };
      return buffer("bufA", [&](const Phrase& a) {
        if (k == 2) // step 0 writes bufA, step 1 the output: no second buffer
          return steps(a, a);
        return buffer("bufB", [&](const Phrase& b) { return steps(a, b); });
      });
    });
  };
}

} // namespace

void registerIterate(PrimitiveRegistry& r) {
  addIterate(r, "iterate", rise::Prim::Iterate, false);
  addIterate(r, "oclIterate", rise::Prim::OclIterate, true);
}

} // namespace risec::dpia
