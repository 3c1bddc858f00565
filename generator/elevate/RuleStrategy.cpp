// A rewrite rule used as a strategy: applied at the focus, it succeeds with
// the program typed again (Session::commit) or fails and records itself as
// the failing rule for diagnostics.
#include "elevate/Combinators.h"
#include "elevate/Path.h"
#include "elevate/Registry.h"
#include "elevate/Session.h"
#include "rise/ast/Traverse.h"
#include "support/Diagnostic.h"

namespace risec::elevate {

namespace {

/// The nodes a rule built (no source location) get the location of the term
/// it rewrote, so that what the back end makes of them (a temporary, a
/// barrier, a loop) is reported and commented as coming from there.
rise::Expr placeNewNodes(const rise::Expr& e, const SourceLocation& at) {
  rise::Expr out = rise::mapChildren(e, [&](const rise::Expr& c) { return placeNewNodes(c, at); });
  return out->loc().known() ? out : out->withLoc(at);
}

class RuleStrategy final : public Strategy {
public:
  RuleStrategy(std::string display, rules::RuleFn fn, SourceLocation loc, std::string form)
      : Strategy(std::move(display), std::move(loc)), fn_(std::move(fn)), form_(std::move(form)) {}

  std::optional<State> apply(const State& s, const Path& at, Session& session) const override {
    rules::RuleContext ctx{session.names(),  session.program(), s.typed, at.empty(), {},
                           session.backend()};
    auto r = fn_(nodeAt(s.expr, at), ctx);
    if (!r) {
      session.recordFailure(*this, s, at, std::move(ctx.why), form_);
      return std::nullopt;
    }
    const SourceLocation& here = nodeAt(s.expr, at)->loc();
    return session.commit(s, at, here.known() ? placeNewNodes(*r, here) : *r, *this);
  }

private:
  rules::RuleFn fn_;
  std::string form_; ///< RuleInfo::before of a registered rule
};

std::string argText(const rules::RuleArg& a) {
  if (auto i = std::get_if<std::int64_t>(&a))
    return std::to_string(*i);
  if (auto as = std::get_if<rise::AddrSpace>(&a))
    return as->str();
  std::string out = "[";
  for (std::int64_t v : std::get<std::vector<std::int64_t>>(a))
    out += (out.size() > 1 ? ", " : "") + std::to_string(v);
  return out + "]";
}

} // namespace

StrategyPtr ruleStrategy(std::string display, rules::RuleFn fn, SourceLocation loc) {
  return std::make_shared<RuleStrategy>(std::move(display), std::move(fn), std::move(loc),
                                        std::string());
}

StrategyPtr namedRule(const std::string& name, const std::vector<rules::RuleArg>& args,
                      SourceLocation loc) {
  const rules::RuleInfo* info = ruleRegistry().find(name);
  if (!info)
    throw InternalError("namedRule: no rule " + name);
  std::string display = name;
  if (!args.empty()) {
    display += "(";
    for (std::size_t i = 0; i < args.size(); ++i)
      display += (i ? ", " : "") + argText(args[i]);
    display += ")";
  }
  return std::make_shared<RuleStrategy>(display, info->make(args), std::move(loc), info->before);
}

} // namespace risec::elevate
