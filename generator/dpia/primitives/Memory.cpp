// toMem and let (RISE & Shine, Listing 9):
//   toMem(t, x: Exp[t, Wr]): Exp[t, Rd]     stores x in a new variable
//   toGlobal/toLocal/toPrivate(t, x), oclToMem(a, t, x): the same, the
//   variable in an OpenCL address space (a `new` made by newVarIn)
//   let(s, t, v: Exp[s, Rd], f: Exp[s, Rd] -> Exp[t, w]): Exp[t, w]
#include "dpia/primitives/Common.h"

#include <optional>

namespace risec::dpia {

using namespace prims;

namespace {

/// toMem and its OpenCL forms: `space` is the address space (null: the
/// default, or for oclToMem (`spaceArg`) the first type argument).
void addStore(PrimitiveRegistry& r, const char* name, rise::Prim p, const rise::AddrSpace* space,
              bool spaceArg = false) {
  PrimitiveDef& d = r.add(name, p);
  d.type = [](const std::vector<rise::TypeArg>&, const std::vector<Phrase>& args) {
    return expType(dataType(args.at(0)), Access::Rd);
  };
  d.conT = [space, spaceArg](Translator& t, const Phrase& e, const Continuation& k) {
    // A stored value that the rest of the program never reads is not
    // computed at all (the program is pure): no dead temporary in the C.
    std::optional<Phrase> unused;
    auto body = [&](const Phrase& v) {
      Phrase rest = k(proj1(v));
      if (!mentions(rest, v->id())) {
        unused = rest;
        return rest;
      }
      return seq({t.accT(e->args()[0], proj2(v)), rest});
    };
    const rise::AddrSpace* a = space;
    if (spaceArg)
      a = std::get_if<rise::AddrSpace>(&e->typeArgs().at(0));
    Origin origin{e->prim().rise, nullptr, TempRole::Value};
    Phrase stored = a ? newVarIn(*a, e->loc(), dataType(e), "tmp", body, origin)
                      : newVar(dataType(e), "tmp", body, e->loc(), origin);
    return unused ? *unused : stored;
  };
}

} // namespace

void registerMemory(PrimitiveRegistry& r) {
  addStore(r, "toMem", rise::Prim::ToMem, nullptr);
  // OpenCL (docs/dpia.md, "OpenCL"): the same store in a chosen address space.
  static const rise::AddrSpace global = rise::AddrSpace::global(), local = rise::AddrSpace::local(),
                               priv = rise::AddrSpace::privateSpace();
  addStore(r, "toGlobal", rise::Prim::ToGlobal, &global);
  addStore(r, "toLocal", rise::Prim::ToLocal, &local);
  addStore(r, "toPrivate", rise::Prim::ToPrivate, &priv);
  addStore(r, "oclToMem", rise::Prim::OclToMem, nullptr, true);

  PrimitiveDef& let = r.add("let", rise::Prim::Let);
  let.accT = [](Translator& t, const Phrase& e, const Phrase& out) {
    return t.conT(e->args()[0],
                  [&](const Phrase& v) { return t.accT(call(e->args()[1], v), out); });
  };
  let.conT = [](Translator& t, const Phrase& e, const Continuation& k) {
    return t.conT(e->args()[0], [&](const Phrase& v) { return t.conT(call(e->args()[1], v), k); });
  };
}

} // namespace risec::dpia
