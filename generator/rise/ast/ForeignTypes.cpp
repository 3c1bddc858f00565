#include "rise/ast/ForeignTypes.h"

#include "support/Diagnostic.h"

namespace risec::rise {

bool foreignTypeSupported(const Type& t) {
  if (!t)
    return false;
  switch (t->kind()) {
  case TypeKind::Scalar:
    return true;
  case TypeKind::Vec: {
    if (!t->elem() || t->elem()->kind() != TypeKind::Scalar ||
        t->elem()->scalar() == ScalarKind::Bool || t->elem()->scalar() == ScalarKind::NatType ||
        !t->size()->isConst())
      return false;
    std::int64_t w = t->size()->value();
    return w == 2 || w == 4 || w == 8 || w == 16;
  }
  case TypeKind::Pair:
    return foreignTypeSupported(t->first()) && foreignTypeSupported(t->second());
  default:
    return false;
  }
}

namespace {

/// The innermost part of `t` that a foreign function cannot take (`t`
/// itself when it is not a pair).
Type offendingPart(const Type& t) {
  if (t && t->kind() == TypeKind::Pair)
    return !foreignTypeSupported(t->first()) ? offendingPart(t->first())
                                             : offendingPart(t->second());
  return t;
}

} // namespace

void checkForeignSignature(const ForeignDecl& d) {
  auto check = [&](const std::string& what, const Type& t) {
    if (foreignTypeSupported(t))
      return;
    Type part = offendingPart(t);
    std::string hint = "pass it in parts (e.g. its scalars)";
    if (part && part->kind() == TypeKind::Array)
      hint = "pass arrays element by element (e.g. `map` the function over them)";
    else if (part && part->kind() == TypeKind::Vec)
      hint = "use a vector of 2, 4, 8 or 16 lanes of a numeric type other than natType, or pass "
             "the lanes as scalars";
    throw CompileError("E0422", d.loc,
                       "foreign function `" + d.name + "`: " + what + " has the type `" +
                           (t ? typeToString(t) : std::string("?")) +
                           "`, which a foreign function cannot take or return; its parameters "
                           "and result must be scalars, vectors of 2, 4, 8 or 16 numeric lanes "
                           "(`vec[f32, 4]`) or pairs of these; " +
                           hint);
  };
  for (const auto& [name, type] : d.params)
    check("parameter `" + name + "`", type);
  check("the result", d.result);
}

} // namespace risec::rise
