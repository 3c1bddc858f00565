// toMem and let (RISE & Shine, Listing 9):
//   toMem(t, x: Exp[t, Wr]): Exp[t, Rd]     stores x in a new variable
//   let(s, t, v: Exp[s, Rd], f: Exp[s, Rd] -> Exp[t, w]): Exp[t, w]
#include "dpia/primitives/Common.h"

#include <optional>

namespace risec::dpia {

using namespace prims;

void registerMemory(PrimitiveRegistry& r) {
  PrimitiveDef& toMem = r.add("toMem", rise::Prim::ToMem);
  toMem.access = {wr()};
  toMem.result = fixed(Access::Rd);
  toMem.type = [](const std::vector<rise::TypeArg>&, const std::vector<Phrase>& args) {
    return expType(dataType(args.at(0)), Access::Rd);
  };
  toMem.conT = [](Translator& t, const Phrase& e, const Continuation& k) {
    // A stored value that the rest of the program never reads is not
    // computed at all (the program is pure): no dead temporary in the C.
    std::optional<Phrase> unused;
    Phrase stored = newVar(dataType(e), "tmp", [&](const Phrase& v) {
      Phrase rest = k(proj1(v));
      if (!mentions(rest, v->id())) {
        unused = rest;
        return rest;
      }
      return seq({t.accT(e->args()[0], proj2(v)), rest});
    });
    return unused ? *unused : stored;
  };

  PrimitiveDef& let = r.add("let", rise::Prim::Let);
  ArgAccess body = fun(1, Access::Rd);
  body.anyBody = true;
  let.access = {rd(), body};
  let.result = {ResultAccess::Kind::FunBody, Access::Rd, 1};
  let.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return t.conT(e->args()[0],
                  [&](const Phrase& v) { return t.accT(call(e->args()[1], v), out); });
  };
  let.conT = [](Translator& t, const Phrase& e, const Continuation& k) {
    return t.conT(e->args()[0], [&](const Phrase& v) { return t.conT(call(e->args()[1], v), k); });
  };
}

} // namespace risec::dpia
