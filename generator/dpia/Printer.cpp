#include "dpia/Printer.h"

#include "dpia/Primitive.h"

#include <map>
#include <set>
#include <sstream>

namespace risec::dpia {

namespace {

class PhrasePrinter {
public:
  std::string name(const Phrase& ident) {
    auto it = names_.find(ident->id());
    if (it != names_.end())
      return it->second;
    std::string base = ident->name().empty() ? "x" : ident->name();
    std::string n = base;
    for (int k = 2; used_.count(n); ++k)
      n = base + std::to_string(k);
    used_.insert(n);
    names_[ident->id()] = n;
    return n;
  }

  std::string typeArg(const rise::TypeArg& a) {
    if (const auto* n = std::get_if<rise::Nat>(&a))
      return nat(*n);
    return rise::typeArgToString(a);
  }

  /// Loop indices get distinct display names (i, j, k, ... by nesting).
  std::string bindLoopIndex(const rise::Nat& v) {
    static const char* const base[] = {"i", "j", "k", "l", "p", "q"};
    std::string n;
    for (int round = 0; n.empty(); ++round)
      for (const char* b : base) {
        std::string c = round == 0 ? b : b + std::to_string(round + 1);
        if (!loopUsed_.count(c) && !used_.count(c)) {
          n = c;
          break;
        }
      }
    loopUsed_.insert(n);
    loopNames_[v->var().id] = n;
    return n;
  }
  void unbindLoopIndex(const rise::Nat& v) { loopUsed_.erase(loopNames_.at(v->var().id)); }

  std::string nat(const rise::Nat& n) {
    rise::Nat renamed = rise::natMapVars(n, [&](const rise::NatVarInfo& v) -> rise::Nat {
      auto it = loopNames_.find(v.id);
      if (it == loopNames_.end())
        return nullptr;
      auto info = std::make_shared<rise::NatVarInfo>(v);
      info->name = it->second;
      return rise::natVarRef(info);
    });
    return rise::natToString(renamed);
  }

  std::string expr(const Phrase& p, int indent) {
    switch (p->kind()) {
    case PhraseKind::Ident:
      return name(p);
    case PhraseKind::Literal:
      return rise::literalText(p->value());
    case PhraseKind::Natural:
      return nat(p->nat());
    case PhraseKind::Lambda:
      return "fun(" + name(p->param()) + " => " + expr(p->body(), indent) + ")";
    case PhraseKind::Apply:
      return "(" + expr(p->fn(), indent) + ")(" + expr(p->arg(), indent) + ")";
    case PhraseKind::DepLambda:
      return "depFun(" + p->binder().name() + ": " + std::string(rise::kindName(p->binder().kind)) +
             " => " + expr(p->body(), indent) + ")";
    case PhraseKind::DepApply:
      return expr(p->fn(), indent) + "(" + typeArg(p->typeArg()) + ")";
    case PhraseKind::Pair:
      return "(" + expr(p->first(), indent) + ", " + expr(p->second(), indent) + ")";
    case PhraseKind::Proj1:
      return expr(p->of(), indent) + ".1";
    case PhraseKind::Proj2:
      return expr(p->of(), indent) + ".2";
    case PhraseKind::Prim:
      return prim(p, indent);
    }
    return "?";
  }

  std::string pad(int indent) { return std::string(static_cast<std::size_t>(indent) * 2, ' '); }

  std::string prim(const Phrase& p, int indent) {
    if (p->isPrim(primitive::assign()))
      return expr(p->args()[0], indent) + " = " + expr(p->args()[1], indent);
    if (p->isPrim(primitive::skip()))
      return "skip";
    if (p->isPrim(primitive::seq())) {
      std::string s;
      for (std::size_t i = 0; i < p->args().size(); ++i)
        s += (i ? ";\n" + pad(indent) : "") + expr(p->args()[i], indent);
      return s;
    }
    if (p->isPrim(primitive::newVar())) {
      const Phrase& f = p->args()[0];
      return "new(" + typeArg(p->typeArgs()[0]) + ", fun(" + name(f->param()) + " =>\n" +
             pad(indent + 1) + expr(f->body(), indent + 1) + "))";
    }
    if (p->isPrim(primitive::forLoop())) {
      std::string kw = p->natArg(2)->isConst(1) ? "forUnroll" : "for";
      std::string i = bindLoopIndex(p->natArg(1));
      std::string s = kw + "(" + nat(p->natArg(0)) + ", fun(" + i + " =>  // " + p->tag() + "\n" +
                      pad(indent + 1) + expr(p->args()[0], indent + 1) + "))";
      unbindLoopIndex(p->natArg(1));
      return s;
    }
    std::string s = p->isPrim(primitive::foreign()) ? p->tag() : p->primName();
    s += "(";
    bool first = true;
    for (const rise::TypeArg& a : p->typeArgs()) {
      s += (first ? "" : ", ") + typeArg(a);
      first = false;
    }
    for (const Phrase& a : p->args()) {
      s += (first ? "" : ", ") + expr(a, indent);
      first = false;
    }
    return s + ")";
  }

private:
  std::map<std::uint64_t, std::string> loopNames_;
  std::set<std::string> loopUsed_;
  std::map<std::uint64_t, std::string> names_;
  std::set<std::string> used_;
};

} // namespace

std::string printPhrase(const Phrase& p) {
  PhrasePrinter pr;
  return pr.expr(p, 0);
}

std::string printProgram(const Program& p, bool imperative) {
  PhrasePrinter pr;
  std::ostringstream os;
  os << "// " << p.name << " : " << rise::typeToString(p.riseType) << "\n";
  os << "depFun((";
  for (std::size_t i = 0; i < p.sizes.size(); ++i)
    os << (i ? ", " : "") << p.sizes[i].name() << ": Nat";
  os << ") =>\n";
  for (const Phrase& x : p.inputs)
    os << "fun(" << pr.name(x) << ": " << phraseTypeToString(x->type()) << " =>\n";
  if (imperative) {
    os << "  // " << pr.name(p.output) << ": " << phraseTypeToString(p.output->type()) << "\n";
    os << "  " << pr.expr(p.command, 1) << "\n";
  } else {
    os << "  " << pr.expr(p.body, 1) << "\n";
    os << "  : " << phraseTypeToString(p.body->type()) << "\n";
  }
  return os.str();
}

} // namespace risec::dpia
