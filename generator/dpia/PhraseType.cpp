#include "dpia/PhraseType.h"

namespace risec::dpia {

std::string_view accessName(Access a) {
  return a == Access::Rd ? "Rd" : "Wr";
}

namespace {
PhraseType make(PhraseTypeKind k, rise::Type dt = nullptr, Access a = Access::Rd,
                PhraseType x = nullptr, PhraseType y = nullptr, rise::DepBinder b = {}) {
  return std::make_shared<const PhraseTypeNode>(k, std::move(dt), a, std::move(x), std::move(y),
                                                std::move(b));
}
} // namespace

PhraseType expType(rise::Type dt, Access a) {
  return make(PhraseTypeKind::Exp, std::move(dt), a);
}
PhraseType accType(rise::Type dt) {
  return make(PhraseTypeKind::Acc, std::move(dt));
}
PhraseType commType() {
  static const PhraseType comm = make(PhraseTypeKind::Comm);
  return comm;
}
PhraseType pairPhraseType(PhraseType a, PhraseType b) {
  return make(PhraseTypeKind::Pair, nullptr, Access::Rd, std::move(a), std::move(b));
}
PhraseType funPhraseType(PhraseType param, PhraseType result) {
  return make(PhraseTypeKind::Fun, nullptr, Access::Rd, std::move(param), std::move(result));
}
PhraseType depFunPhraseType(rise::DepBinder binder, PhraseType body) {
  return make(PhraseTypeKind::DepFun, nullptr, Access::Rd, nullptr, std::move(body),
              std::move(binder));
}

std::string phraseTypeToString(const PhraseType& t) {
  switch (t->kind()) {
  case PhraseTypeKind::Exp:
    return "Exp[" + rise::typeToString(t->data()) + ", " + std::string(accessName(t->access())) +
           "]";
  case PhraseTypeKind::Acc:
    return "Acc[" + rise::typeToString(t->data()) + "]";
  case PhraseTypeKind::Comm:
    return "Comm";
  case PhraseTypeKind::Pair:
    return "(" + phraseTypeToString(t->first()) + " x " + phraseTypeToString(t->second()) + ")";
  case PhraseTypeKind::Fun: {
    std::string p = phraseTypeToString(t->param());
    if (t->param()->kind() == PhraseTypeKind::Fun || t->param()->kind() == PhraseTypeKind::DepFun)
      p = "(" + p + ")";
    return p + " -> " + phraseTypeToString(t->result());
  }
  case PhraseTypeKind::DepFun:
    return "(" + t->binder().name() + ": " + std::string(rise::kindName(t->binder().kind)) +
           ") -> " + phraseTypeToString(t->result());
  }
  return "?";
}

PhraseType substitute(const PhraseType& t, const rise::TypeSubst& s) {
  if (!t || s.empty())
    return t;
  switch (t->kind()) {
  case PhraseTypeKind::Exp:
    return expType(rise::substitute(t->data(), s), t->access());
  case PhraseTypeKind::Acc:
    return accType(rise::substitute(t->data(), s));
  case PhraseTypeKind::Comm:
    return t;
  case PhraseTypeKind::Pair:
    return pairPhraseType(substitute(t->first(), s), substitute(t->second(), s));
  case PhraseTypeKind::Fun:
    return funPhraseType(substitute(t->param(), s), substitute(t->result(), s));
  case PhraseTypeKind::DepFun:
    return depFunPhraseType(t->binder(), substitute(t->result(), s));
  }
  return t;
}

bool copiedByAssignment(const rise::Type& dt) {
  switch (dt->kind()) {
  case rise::TypeKind::Scalar:
  case rise::TypeKind::Vec:
  case rise::TypeKind::Index:
    return true;
  case rise::TypeKind::Pair:
    return copiedByAssignment(dt->first()) && copiedByAssignment(dt->second());
  default:
    return false;
  }
}

} // namespace risec::dpia
