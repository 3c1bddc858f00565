// Imperative DPIA commands (RISE & Shine, Listing 7): assign, seq, skip, new, for.
#include "dpia/primitives/Common.h"

namespace risec::dpia {

using namespace prims;

namespace {
const PrimitiveDef& def(const char* name) {
  return *findPrimitive(name);
}
} // namespace

Phrase assign(const Phrase& lhs, const Phrase& rhs) {
  return primTyped(def("assign"), {dataType(lhs)}, {lhs, rhs}, commType(), {});
}

Phrase skip() {
  return primTyped(def("skip"), {}, {}, commType(), {});
}

Phrase seq(std::vector<Phrase> commands) {
  std::vector<Phrase> flat;
  for (Phrase& c : commands) {
    if (c->isPrim(primitive::seq()))
      flat.insert(flat.end(), c->args().begin(), c->args().end());
    else if (!c->isPrim(primitive::skip()))
      flat.push_back(std::move(c));
  }
  if (flat.empty())
    return skip();
  if (flat.size() == 1)
    return flat.front();
  return primTyped(def("seq"), {}, std::move(flat), commType(), {});
}

Phrase newVar(const rise::Type& dt, const std::string& name,
              const std::function<Phrase(const Phrase& v)>& body, const SourceLocation& loc,
              Origin origin) {
  Phrase v = freshIdent(name, pairPhraseType(expType(dt, Access::Rd), accType(dt)));
  return primTyped(def("new"), {dt}, {lambda(v, body(v))}, commType(), loc, name,
                   std::move(origin));
}

Phrase newVarIn(const rise::AddrSpace& space, const SourceLocation& loc, const rise::Type& dt,
                const std::string& name, const std::function<Phrase(const Phrase& v)>& body,
                Origin origin) {
  Phrase v = freshIdent(name, pairPhraseType(expType(dt, Access::Rd), accType(dt)));
  return primTyped(def("new"), {dt, space}, {lambda(v, body(v))}, commType(), loc, name,
                   std::move(origin));
}

rise::AddrSpace newAddrSpace(const Phrase& newCommand) {
  const auto& args = newCommand->typeArgs();
  if (args.size() > 1)
    if (const auto* a = std::get_if<rise::AddrSpace>(&args[1]))
      return *a;
  return rise::AddrSpace::privateSpace();
}

Phrase barrier(bool local, bool global, const std::string& why) {
  return primTyped(def("barrier"), {rise::natConst(local ? 1 : 0), rise::natConst(global ? 1 : 0)},
                   {}, commType(), {}, why);
}
bool barrierLocal(const Phrase& b) {
  return b->natArg(0)->isConst(1);
}
bool barrierGlobal(const Phrase& b) {
  return b->natArg(1)->isConst(1);
}

Phrase forLoop(const rise::Nat& n, const std::string& indexName,
               const std::function<Phrase(const Phrase& i)>& body, const std::string& origin,
               bool unroll) {
  rise::Nat i = rise::natVar(indexName, rise::natConst(0), n);
  Phrase index = natural(i, rise::indexType(n));
  return primTyped(def("for"), {n, i, rise::natConst(unroll ? 1 : 0)}, {body(index)}, commType(),
                   {}, origin);
}

const rise::Nat& forCount(const Phrase& loop) {
  return loop->natArg(0);
}
const rise::Nat& forIndex(const Phrase& loop) {
  return loop->natArg(1);
}
bool forUnroll(const Phrase& loop) {
  return loop->natArg(2)->isConst(1);
}

void registerImperative(PrimitiveRegistry& r) {
  r.add("assign");
  r.add("seq");
  r.add("skip");
  r.add("new");
  r.add("for");
  r.add("barrier");
}

} // namespace risec::dpia
