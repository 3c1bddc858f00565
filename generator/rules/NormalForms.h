// The normal forms as whole-expression transformations (docs/strategies.md):
//   BENF  beta-eta normal form: no beta redex `fun(x => b)(a)`, no eta redex
//         `fun(x => f(x))` (x not free in f) except the entry's own parameters
//   DFNF  data-flow normal form: BENF, then every map's function is a lambda,
//         every reduce's operator a lambda of two parameters, and every map
//         and reduce not in function position is applied to its data argument
#pragma once

#include "rules/RiseUtil.h"

namespace risec::rules {

/// `keepTop`: keep the leading depFun/fun binders of `e` (the entry's parameters).
Expr betaEtaNormalForm(const Expr& e, NameSupply& names, bool keepTop);
Expr dataFlowNormalForm(const Expr& e, NameSupply& names, bool keepTop);

} // namespace risec::rules
