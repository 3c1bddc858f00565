// A whole entry in DPIA: the signature of the generated function (size
// parameters, inputs, output) and its body, functional or imperative.
#pragma once

#include "dpia/Phrase.h"
#include "rise/ast/Expr.h"
#include "rise/infer/Infer.h"

#include <memory>
#include <string>
#include <vector>

namespace risec::dpia {

struct Program {
  std::string name;                   ///< the RISE def
  rise::Type riseType;                ///< the def's RISE type
  std::vector<rise::DepBinder> sizes; ///< Nat parameters, in depFun order
  std::vector<Phrase> inputs;         ///< identifiers `Exp[dt, Rd]`, in fun order
  rise::Type outputType;              ///< data type of the result
  std::vector<rise::Precondition> preconditions;
  std::vector<std::shared_ptr<const rise::ForeignDecl>> foreigns; ///< used ones, in order

  /// Functional DPIA: `Exp[outputType, Rd|Wr]`.
  Phrase body;
  /// Imperative DPIA (after Translate.h): the output acceptor `Acc[outputType]`
  /// and the command writing the result into it.
  Phrase output;
  Phrase command;
};

} // namespace risec::dpia
