// The ELEVATE model: a strategy maps a program to success (a new program) or
// failure. Here a strategy is applied to a position (a Path) of the program
// being rewritten, so that it can be typed as a whole after every step; a
// strategy applied "to an expression" means applied at its position.
//
// The program is kept in the stripped view (rules/RiseUtil.h): implicit
// dependent arguments are removed, every node carries its type.
#pragma once

#include "rise/infer/Infer.h"
#include "support/SourceLocation.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace risec::elevate {

using rise::Expr;

/// A position in the stripped view: child indices from the root.
/// Children: Lambda and DepLambda {body}; App {fn, arg}; DepApp {fn}.
using Path = std::vector<int>;

/// The program being rewritten.
struct State {
  Expr expr;            ///< the entry def, stripped and typed
  rise::TypedDef typed; ///< the same, elaborated (for the interpreter and lowering)
};

class Session;

class Strategy {
public:
  Strategy(std::string display, SourceLocation loc)
      : display_(std::move(display)), loc_(std::move(loc)) {}
  virtual ~Strategy() = default;

  /// Success with the new program, or nullopt. On failure nothing is changed.
  virtual std::optional<State> apply(const State& s, const Path& at, Session& session) const = 0;

  /// How the strategy is written, e.g. `splitJoin(32)`.
  const std::string& display() const { return display_; }
  /// Where the strategy is written in the strategy file.
  const SourceLocation& loc() const { return loc_; }

  /// The steps of the strategy as written: those of `s1 ; s2 ; ...` in
  /// order, or the strategy itself.
  virtual void appendSteps(std::vector<const Strategy*>& out) const { out.push_back(this); }

private:
  std::string display_;
  SourceLocation loc_;
};

using StrategyPtr = std::shared_ptr<const Strategy>;

} // namespace risec::elevate
