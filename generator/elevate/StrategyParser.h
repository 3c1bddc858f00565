// Parser of strategy files:
//   file     := { 'def' IDENT ['(' IDENT {',' IDENT} ')'] '=' strategy } strategy
//   strategy := choice { (';' | ';;') choice }
//   choice   := at { '<+' at }
//   at       := primary { '@' call }
//   primary  := call | '(' strategy ')'
//   call     := IDENT [ '(' arg {',' arg} ')' ]
//   arg      := INT | '[' INT {',' INT} ']' | strategy
// Syntax errors are E0702 at the offending token.
#pragma once

#include "elevate/StrategyAst.h"

namespace risec::elevate {

StrategyFileAst parseStrategyFile(const std::shared_ptr<const SourceFile>& file);

} // namespace risec::elevate
