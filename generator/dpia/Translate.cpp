#include "dpia/Translate.h"

#include "dpia/Imperative.h"
#include "support/Diagnostic.h"

namespace risec::dpia {

Phrase Translator::accT(const Phrase& e, const Phrase& out) {
  switch (e->kind()) {
  case PhraseKind::Prim:
    if (e->prim().accT)
      return e->prim().accT(*this, e, out);
    break;
  case PhraseKind::Apply:
    if (e->fn()->kind() == PhraseKind::Lambda) {
      if (!e->arg()->type()->isExp())
        return accT(betaApply(e->fn(), e->arg()), out);
      // let-style binding: compute the argument, then write the body
      return conT(e->arg(), [&](const Phrase& a) { return accT(betaApply(e->fn(), a), out); });
    }
    break;
  default:
    break;
  }
  // A readable expression written by one assignment (the type checker only
  // lets data that is copied by assignment reach this point).
  if (!copiedByAssignment(dataType(e)))
    throw InternalError("accT: no rule writes " + phraseTypeToString(e->type()) +
                        (e->kind() == PhraseKind::Prim ? " (`" + e->primName() + "`)" : ""));
  return conT(e, [&](const Phrase& x) { return assign(out, x); });
}

Phrase Translator::conT(const Phrase& e, const Continuation& k) {
  switch (e->kind()) {
  case PhraseKind::Ident:
  case PhraseKind::Literal:
  case PhraseKind::Natural:
  case PhraseKind::Proj1:
  case PhraseKind::Proj2:
  case PhraseKind::Lambda:
  case PhraseKind::DepLambda:
    return k(e);
  case PhraseKind::Prim:
    if (e->prim().conT)
      return e->prim().conT(*this, e, k);
    throw InternalError("conT: `" + e->primName() + "` of type " + phraseTypeToString(e->type()) +
                        " cannot be read without being stored");
  case PhraseKind::Apply:
    if (e->fn()->kind() == PhraseKind::Lambda) {
      if (!e->arg()->type()->isExp())
        return conT(betaApply(e->fn(), e->arg()), k);
      return conT(e->arg(), [&](const Phrase& a) { return conT(betaApply(e->fn(), a), k); });
    }
    break;
  default:
    break;
  }
  throw InternalError("conT: unexpected phrase of type " + phraseTypeToString(e->type()));
}

Phrase Translator::conTList(const std::vector<Phrase>& es,
                            const std::function<Phrase(const std::vector<Phrase>&)>& k) {
  std::function<Phrase(std::size_t, std::vector<Phrase>)> go =
      [&](std::size_t i, std::vector<Phrase> done) -> Phrase {
    if (i == es.size())
      return k(done);
    if (!es[i]->type()->isExp()) {
      done.push_back(es[i]);
      return go(i + 1, std::move(done));
    }
    return conT(es[i], [&, done](const Phrase& x) {
      std::vector<Phrase> next = done;
      next.push_back(x);
      return go(i + 1, std::move(next));
    });
  };
  return go(0, {});
}

Phrase Translator::conTArgs(const Phrase& e, const Continuation& k) {
  return conTList(e->args(), [&](const std::vector<Phrase>& xs) {
    PhraseType t = e->type()->isExp() ? expType(e->type()->data(), Access::Rd) : e->type();
    return k(primTyped(e->prim(), e->typeArgs(), xs, t, e->loc(), e->tag()));
  });
}

void translateToImperative(Program& p) {
  p.output = freshIdent("output", accType(p.outputType));
  Translator t;
  p.command = t.accT(p.body, p.output);
}

} // namespace risec::dpia
