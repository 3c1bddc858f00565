// Loading a strategy file: parse, resolve names (defs, builtins, rules),
// check arities and argument kinds, and build the strategy to apply.
//   E0701 lexical error        E0702 syntax error
//   E0703 unknown name         E0704 wrong number of arguments
//   E0705 wrong kind of argument
//   E0706 duplicate def or parameter
//   E0712 argument value out of range
//   E0713 a `require` that the parameters' values do not meet
#pragma once

#include "elevate/Strategy.h"
#include "elevate/StrategyParams.h"

namespace risec::elevate {

/// `bindings` gives values to the file's parameters (the rest keep their
/// defaults) and to the machine facts its requirements name; entries that are
/// neither are ignored (the spec loader reports them, E0827).
StrategyPtr loadStrategy(const std::shared_ptr<const SourceFile>& file,
                         const ParamValues& bindings = {});

/// Every name a strategy file can call (for suggestions and docs).
std::vector<std::string> strategyNames();

} // namespace risec::elevate
