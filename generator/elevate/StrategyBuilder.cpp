// Name resolution and construction of a strategy from its parse tree.
#include "elevate/Combinators.h"
#include "elevate/Registry.h"
#include "elevate/Session.h"
#include "elevate/StrategyFile.h"
#include "elevate/StrategyParams.h"
#include "elevate/StrategyParser.h"
#include "support/Diagnostic.h"
#include "support/Text.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <set>

namespace risec::elevate {

using rules::ParamKind;

namespace {

/// The most repetitions a count argument takes (`repeatNTimes`; the step
/// limit of a session).
constexpr std::int64_t kMaxRepetitions = 20000;

std::string plural(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

/// A recursive call of a def (Shine's inLambda, afterTopLevel, argumentsTd):
/// its body is built when the call is first applied, so that the recursion
/// unfolds only as deep as the program it runs on. Owns the builder, which
/// owns the parsed file.
/// The words of a camelCase name, lower case and sorted, with `fuse` read as
/// `fusion`: `reduceMapFusion` and `fuseReduceMap` have the same words.
std::vector<std::string> wordsOf(const std::string& name) {
  std::vector<std::string> words;
  for (char c : name) {
    if (words.empty() || std::isupper(static_cast<unsigned char>(c)))
      words.emplace_back();
    words.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (std::string& w : words)
    if (w == "fuse")
      w = "fusion";
  std::sort(words.begin(), words.end());
  return words;
}

/// Whether one name says fusion where the other says fission: never a
/// spelling mistake of each other.
bool opposite(const std::string& a, const std::string& b) {
  auto says = [](const std::string& n, const char* w) {
    std::vector<std::string> ws = wordsOf(n);
    return std::find(ws.begin(), ws.end(), w) != ws.end();
  };
  return (says(a, "fusion") && says(b, "fission")) || (says(a, "fission") && says(b, "fusion"));
}

class Builder;
class RecursiveCall final : public Strategy {
public:
  RecursiveCall(std::shared_ptr<Builder> builder, const SDef* def, std::map<std::string, Arg> env,
                std::string display, SourceLocation loc)
      : Strategy(std::move(display), std::move(loc)), builder_(std::move(builder)), def_(def),
        env_(std::move(env)) {}
  std::optional<State> apply(const State& s, const Path& at, Session& session) const override;

private:
  std::shared_ptr<Builder> builder_;
  const SDef* def_;
  std::map<std::string, Arg> env_;
  mutable StrategyPtr body_;
};

class Builder : public std::enable_shared_from_this<Builder> {
public:
  explicit Builder(StrategyFileAst file) : file_(std::move(file)) {}

  StrategyPtr build(const ParamValues& bindings) {
    const StrategyFileAst& f = file_;
    // The parameters' values (the defaults, overridden by the bindings) are
    // the outermost scope of every def and of the strategy to apply.
    StrategyInterface iface = strategyInterface(f);
    ParamValues values = bindings;
    for (const auto& [name, value] : iface.bind(bindings))
      values[name] = value;
    checkRequirements(iface, values);
    for (const StrategyParameter& p : iface.params)
      globals_[p.name] = Arg{values.at(p.name), p.loc};
    std::set<std::string> globalNames;
    for (const auto& [name, a] : globals_)
      globalNames.insert(name);
    for (const SDef& d : f.defs) {
      if (defs_.count(d.name) || StrategyRegistry::instance().find(d.name) ||
          ruleRegistry().find(d.name))
        throw CompileError("E0706", d.loc,
                           "`" + d.name + "` is already defined; choose another name");
      std::set<std::string> seen;
      for (const std::string& p : d.params)
        if (!seen.insert(p).second)
          throw CompileError("E0706", d.loc, "parameter `" + p + "` appears twice");
      // Check the body once with placeholder arguments only for syntax of
      // names: unknown names are reported at definition time. A def may
      // call itself.
      defs_[d.name] = &d;
      std::set<std::string> scope = globalNames;
      scope.insert(d.params.begin(), d.params.end());
      checkNames(d.body, scope);
    }
    return strategy(f.main, globals_);
  }

  using Env = std::map<std::string, Arg>;

  /// The body of `d` with its parameters bound (`env`), built while `d` is
  /// being expanded (its own calls in it become RecursiveCalls).
  StrategyPtr expand(const SDef& d, const Env& env) {
    expanding_.insert(d.name);
    StrategyPtr s;
    try {
      s = strategy(d.body, env);
    } catch (...) {
      expanding_.erase(d.name);
      throw;
    }
    expanding_.erase(d.name);
    return s;
  }

private:
  void checkNames(const SNodePtr& n, const std::set<std::string>& params) {
    if (n->kind == SNode::Kind::Call && !params.count(n->name))
      resolveKnown(n);
    for (const SNodePtr& a : n->args)
      checkNames(a, params);
  }

  void resolveKnown(const SNodePtr& n) {
    if (defs_.count(n->name) || StrategyRegistry::instance().find(n->name) ||
        ruleRegistry().find(n->name) || rise::addrSpaceFromName(n->name))
      return;
    std::string best;
    std::size_t bestDist = 3;
    std::vector<std::string> candidates = strategyNames();
    for (const auto& [name, d] : defs_)
      candidates.push_back(name);
    for (const std::string& c : candidates) {
      std::size_t dist = wordsOf(c) == wordsOf(n->name) ? 0 : editDistance(n->name, c);
      if (dist < bestDist && !opposite(n->name, c)) {
        bestDist = dist;
        best = c;
      }
    }
    std::string msg = "unknown strategy `" + n->name + "`";
    if (!best.empty() && bestDist <= std::max<std::size_t>(1, n->name.size() / 3))
      msg += "; did you mean `" + best + "`?";
    throw CompileError("E0703", n->loc, msg);
  }

  StrategyPtr strategy(const SNodePtr& n, const Env& env) {
    switch (n->kind) {
    case SNode::Kind::Seq:
      return stepSeq(step(n->args[0], env), step(n->args[1], env), n->loc);
    case SNode::Kind::DSeq:
      return stepSeq(step(n->args[0], env),
                     seq(normalForm("DFNF", n->loc), step(n->args[1], env), n->loc), n->loc);
    case SNode::Kind::Choice:
      return leftChoice(strategy(n->args[0], env), strategy(n->args[1], env), n->loc);
    case SNode::Kind::At:
      return call(n->args[1], env, strategy(n->args[0], env));
    case SNode::Kind::Call:
      return call(n, env, nullptr);
    case SNode::Kind::Int:
    case SNode::Kind::List:
      throw CompileError("E0705", n->loc, "expected a strategy here, found a number");
    }
    throw InternalError("unknown strategy node");
  }

  /// An operand of `;` or `;;`: a sequence of its own, or a step named in
  /// diagnostics as it is written.
  StrategyPtr step(const SNodePtr& n, const Env& env) {
    StrategyPtr s = strategy(n, env);
    if (n->kind == SNode::Kind::Seq || n->kind == SNode::Kind::DSeq)
      return s;
    return asWritten(std::move(s), surfaceText(*n), startOf(*n));
  }

  /// An argument as a value (before its kind is checked).
  Arg argument(const SNodePtr& n, const Env& env) {
    if (n->kind == SNode::Kind::Int)
      return {n->value, n->loc};
    if (n->kind == SNode::Kind::List)
      return {n->items, n->loc};
    if (n->kind == SNode::Kind::Call && !n->hasParens) {
      if (auto it = env.find(n->name); it != env.end())
        return {it->second.value, n->loc};
      if (auto a = rise::addrSpaceFromName(n->name))
        return {*a, n->loc};
    }
    return {strategy(n, env), n->loc};
  }

  static std::string kindOfArg(const Arg& a) {
    switch (a.value.index()) {
    case 0:
      return "an integer";
    case 1:
      return "an address space";
    case 2:
      return "a list of integers";
    default:
      return "a strategy";
    }
  }

  void checkKind(const std::string& callee, std::size_t i, ParamKind k, const Arg& a) {
    std::size_t want = k == ParamKind::Int         ? 0
                       : k == ParamKind::AddrSpace ? 1
                       : k == ParamKind::IntList   ? 2
                                                   : 3;
    if (a.value.index() != want)
      throw CompileError("E0705", a.loc,
                         "argument " + std::to_string(i + 1) + " of `" + callee + "` must be " +
                             std::string(rules::paramKindName(k)) + ", but this is " +
                             kindOfArg(a));
  }

  /// `counts`: the integer arguments are repetition counts, not sizes.
  void checkValues(const std::string& callee, const std::vector<Arg>& args, bool counts = false) {
    static const std::set<std::string> dims = {"mapToGlobal", "mapToWorkGroup", "mapToLocal"};
    for (const Arg& a : args) {
      if (auto v = std::get_if<std::int64_t>(&a.value)) {
        if (dims.count(callee) && *v > 2)
          throw CompileError("E0712", a.loc,
                             "`" + callee + "` takes an OpenCL dimension 0, 1 or 2, but got " +
                                 std::to_string(*v));
        if (counts && (*v < 0 || *v > kMaxRepetitions))
          throw CompileError("E0712", a.loc,
                             "`" + callee + "` repeats a strategy 0 to " +
                                 std::to_string(kMaxRepetitions) + " times, but got " +
                                 std::to_string(*v));
        if (!dims.count(callee) && !counts && *v < 1)
          throw CompileError("E0712", a.loc,
                             "`" + callee + "` needs a size of at least 1, but got " +
                                 std::to_string(*v));
      }
      if (auto l = std::get_if<std::vector<std::int64_t>>(&a.value)) {
        std::vector<std::int64_t> s = *l;
        std::sort(s.begin(), s.end());
        for (std::size_t i = 0; i < s.size(); ++i)
          if (s[i] != static_cast<std::int64_t>(i + 1))
            throw CompileError("E0712", a.loc,
                               "`" + callee + "` needs a permutation of 1.." +
                                   std::to_string(s.size()));
      }
    }
  }

  void checkArity(const SNodePtr& n, std::size_t expected, std::size_t given, bool viaAt) {
    if (expected == given)
      return;
    std::string msg = "`" + n->name + "` takes " + plural(expected, "argument") + ", but " +
                      plural(given, "argument") + (given == 1 ? " was" : " were") + " given";
    if (viaAt)
      msg += " (counting the strategy before `@`)";
    throw CompileError("E0704", n->loc, msg);
  }

  StrategyPtr call(const SNodePtr& n, const Env& env, StrategyPtr subject) {
    if (n->kind != SNode::Kind::Call)
      throw CompileError("E0702", n->loc, "expected a traversal or location after `@`");
    if (!n->hasParens && !subject) {
      if (auto it = env.find(n->name); it != env.end()) {
        if (auto s = std::get_if<StrategyPtr>(&it->second.value))
          return *s;
        throw CompileError("E0705", n->loc,
                           "parameter `" + n->name + "` is " + kindOfArg(it->second) +
                               ", not a strategy");
      }
    }
    resolveKnown(n);
    std::vector<Arg> args;
    for (const SNodePtr& a : n->args)
      args.push_back(argument(a, env));
    if (subject)
      args.push_back({subject, n->loc});
    if (auto it = defs_.find(n->name); it != defs_.end()) {
      const SDef& d = *it->second;
      checkArity(n, d.params.size(), args.size(), subject != nullptr);
      Env inner = globals_;
      for (std::size_t i = 0; i < args.size(); ++i)
        inner[d.params[i]] = args[i];
      if (expanding_.count(d.name))
        return std::make_shared<RecursiveCall>(shared_from_this(), &d, std::move(inner),
                                               surfaceText(*n), n->loc);
      return expand(d, inner);
    }
    const Builtin* b = StrategyRegistry::instance().find(n->name);
    // a builtin and a rule of one name (storeInMemory): the rule takes the
    // calls with its number of arguments
    if (const rules::RuleInfo* r = ruleRegistry().find(n->name);
        b && r && !subject && args.size() == r->params.size() && args.size() != b->params.size())
      b = nullptr;
    if (b) {
      if (subject && !b->traversal)
        throw CompileError("E0705", n->loc,
                           "`" + n->name + "` is a " + b->category +
                               ", not a traversal or location; write `s @ topDown` or `s @ "
                               "outermost(p)`");
      checkArity(n, b->params.size(), args.size(), subject != nullptr);
      for (std::size_t i = 0; i < args.size(); ++i)
        checkKind(n->name, i, b->params[i], args[i]);
      checkValues(n->name, args, b->counts);
      return b->make(args, n->loc);
    }
    const rules::RuleInfo* r = ruleRegistry().find(n->name);
    if (!r)
      throw CompileError("E0703", n->loc, "`" + n->name + "` is not a strategy");
    if (subject)
      throw CompileError("E0705", n->loc,
                         "`" + n->name + "` is a rule, not a traversal or location");
    checkArity(n, r->params.size(), args.size(), false);
    std::vector<rules::RuleArg> ruleArgs;
    for (std::size_t i = 0; i < args.size(); ++i) {
      checkKind(n->name, i, r->params[i], args[i]);
      if (auto v = std::get_if<std::int64_t>(&args[i].value))
        ruleArgs.emplace_back(*v);
      else if (auto a = std::get_if<rise::AddrSpace>(&args[i].value))
        ruleArgs.emplace_back(*a);
      else
        ruleArgs.emplace_back(std::get<std::vector<std::int64_t>>(args[i].value));
    }
    checkValues(n->name, args);
    return namedRule(n->name, ruleArgs, n->loc);
  }

  StrategyFileAst file_;
  std::map<std::string, const SDef*> defs_;
  std::set<std::string> expanding_; ///< the defs whose bodies are being built
  Env globals_;                     ///< the file's parameters
};

std::optional<State> RecursiveCall::apply(const State& s, const Path& at, Session& session) const {
  if (!body_)
    body_ = builder_->expand(*def_, env_);
  Session::Recursion depth(session, *this);
  return body_->apply(s, at, session);
}

} // namespace

std::vector<std::string> strategyNames() {
  std::vector<std::string> out;
  for (const auto& [name, b] : StrategyRegistry::instance().all())
    out.push_back(name);
  for (const auto& [name, r] : ruleRegistry().all())
    out.push_back(name);
  return out;
}

StrategyPtr loadStrategy(const std::shared_ptr<const SourceFile>& file,
                         const ParamValues& bindings) {
  auto builder = std::make_shared<Builder>(parseStrategyFile(file));
  return builder->build(bindings);
}

} // namespace risec::elevate
