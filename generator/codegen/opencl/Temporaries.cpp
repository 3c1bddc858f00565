#include "codegen/opencl/Temporaries.h"

#include "codegen/c/EmitC.h"
#include "codegen/c/EmitTypes.h"
#include "codegen/opencl/GridLoop.h"
#include "dpia/Imperative.h"
#include "rise/infer/Signatures.h"
#include "support/Diagnostic.h"

#include <optional>

namespace risec::codegen::opencl {

using rise::AddrSpace;
using rise::Nat;

namespace {

bool fitsPrivate(const rise::Type& t) {
  if (t->kind() == rise::TypeKind::Pair)
    return fitsPrivate(t->first()) && fitsPrivate(t->second());
  Nat count = c::TypeMapper::count(t);
  return count->isConst() &&
         count->value() * c::TypeMapper::bytes(c::TypeMapper::innermost(t)) <= c::kStackLimitBytes;
}

std::string spaceName(AddrSpace::Tag t) {
  return t == AddrSpace::Tag::Local ? "Local" : t == AddrSpace::Tag::Global ? "Global" : "Private";
}

/// The primitive that made the temporary (its origin); none when unknown or
/// without a source location.
std::optional<rise::Prim> origin(const dpia::Phrase& c) {
  const std::optional<rise::Prim>& p = c->origin().prim;
  if (!p || !c->loc().known())
    return std::nullopt;
  return p;
}

/// The primitive that made the temporary, with the address space for those
/// that take one (`oclIterate(Local)`); "" when unknown or without a source
/// location.
std::string madeBy(const dpia::Phrase& c, AddrSpace::Tag t) {
  std::optional<rise::Prim> p = origin(c);
  if (!p)
    return "";
  std::string name(rise::primName(*p));
  if (rise::takesAddrSpace(*p))
    return name + "(" + spaceName(t) + ")";
  return name;
}

/// How the program asked for the temporary: `toLocal`, `oclToMem(Local)`,
/// `oclReduceSeq(Local)` (an accumulator), ...; without a known primitive,
/// the OpenCL primitive that makes a temporary of its role.
std::string primitiveOf(const dpia::Phrase& c, AddrSpace::Tag t) {
  if (std::optional<rise::Prim> p = origin(c); p && rise::takesAddrSpace(*p))
    return madeBy(c, t);
  switch (c->origin().role) {
  case dpia::TempRole::Accumulator:
    return "oclReduceSeq(" + spaceName(t) + ")";
  case dpia::TempRole::DoubleBuffer:
    return "oclIterate(" + spaceName(t) + ")";
  case dpia::TempRole::Value:
  case dpia::TempRole::Buffer:
    break;
  }
  return t == AddrSpace::Tag::Local ? "toLocal" : "toGlobal";
}

} // namespace

std::string describeTemporary(const dpia::Phrase& c) {
  std::string written = madeBy(c, dpia::newAddrSpace(c).tag);
  std::string at = c->loc().known() ? " at " + c->loc().shortStr() : "";
  const std::string& tag = c->tag(); // the temporary's name, for the text only
  switch (c->origin().role) {
  case dpia::TempRole::DoubleBuffer:
    return "the double buffer `" + tag + "` of `" + written + "`" + at;
  case dpia::TempRole::Accumulator:
    if (!written.empty())
      return "the accumulator of `" + written + "`" + at;
    break;
  case dpia::TempRole::Buffer:
    if (!written.empty())
      return "the buffer of `" + written + "`" + at;
    break;
  case dpia::TempRole::Value:
    break;
  }
  if (std::optional<rise::Prim> p = origin(c); p && rise::storesInAddrSpace(*p))
    return "`" + written + "`" + at;
  return "the temporary `" + tag + "` stored" + at;
}

bool hoistForOpenCL(const dpia::Phrase& c) {
  AddrSpace::Tag t = dpia::newAddrSpace(c).tag;
  return t == AddrSpace::Tag::Local || t == AddrSpace::Tag::Global || t == AddrSpace::Tag::Var ||
         !fitsPrivate(c->dataArg(0));
}

Placement placeTemporary(const dpia::HoistedAllocation& h) {
  const dpia::Phrase& c = h.command;
  AddrSpace::Tag tag = dpia::newAddrSpace(c).tag;
  std::string type = rise::typeToString(h.type);
  if (tag == AddrSpace::Tag::Var)
    throw CompileError("E0630", c->loc(),
                       "the address space of this temporary of type `" + type +
                           "` is a variable: the OpenCL back end must know whether it is global, "
                           "local or private; write oclToMem(Global), oclToMem(Local) or "
                           "oclToMem(Private)");
  if (tag == AddrSpace::Tag::Private) {
    CompileError e("E0631", c->loc(),
                   "this value of type `" + type +
                       "` is stored in a private temporary, which is too large for private "
                       "memory (at most " +
                       std::to_string(c::kStackLimitBytes) +
                       " bytes of a constant size); store it explicitly in local memory (`|> "
                       "toLocal`, with a constant tile size) or global memory (`|> toGlobal`)");
    if (origin(c) == rise::Prim::ToMem)
      // lowerToC's copies are toMem: the usual one stores a map that a
      // reduction or a sequential map reads, which fusion makes unnecessary.
      e.note(c->loc(),
             "`lowerToC` stores a value here when its consumer cannot compute it on the fly (a "
             "`mapSeq` read by a reduction, a map whose elements are read more than once): "
             "fusing the two needs no temporary; write the producer as `map` and apply "
             "`fuseReduceMap @ everywhere` (a map read by a reduction) or `mapFusion @ "
             "everywhere` before `lowerToC`");
    throw e;
  }
  Placement p;
  p.local = tag == AddrSpace::Tag::Local;
  p.primitive = primitiveOf(c, tag);
  p.slices = rise::natConst(1);
  p.slice = rise::natConst(0);
  for (const dpia::Phrase& loop : h.parallelLoops) {
    const std::string& origin = loop->tag();
    std::optional<GridKind> kind = gridKind(loop);
    bool mapLocal = kind == GridKind::Local;
    if (p.local && kind == GridKind::Global) // mapping rule 2 (E0641) rejects it
      throw InternalError("OpenCL: local memory inside `" + origin + "` passed the mapping rules");
    if (p.local && !mapLocal)
      continue; // one buffer per work-group: mapWorkGroup
    const Nat& n = dpia::forCount(loop);
    if (p.local && !n->isConst()) // mapping rule 2 (E0641) rejects local memory in mapLocal
      throw InternalError("OpenCL: local memory inside `" + origin + "` passed the mapping rules");
    p.slice = p.slice * n + dpia::forIndex(loop);
    p.slices = p.slices * n;
  }
  if (p.local && !c::TypeMapper::count(h.type)->isConst())
    throw CompileError("E0633", c->loc(),
                       "`" + p.primitive + "` of type `" + type +
                           "`: a local-memory array must have a constant size, declared at kernel "
                           "scope; tile with a constant tile size (e.g. `split(16)`) so that the "
                           "temporary holds one tile");
  return p;
}

} // namespace risec::codegen::opencl
