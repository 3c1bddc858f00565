// Nat expressions printed as C (codegen/c/EmitNat.h): the index arithmetic
// reads as a person would write it, with the parentheses C needs and no
// others, and means what the Nat means. (The spaces around `*` and `/` come
// later, from clang-format.)
#include "codegen/c/EmitNat.h"
#include "codegen/c/CPrinter.h"

#include <gtest/gtest.h>

using namespace risec::codegen::c;
using namespace risec::rise;

namespace {

struct Printed {
  std::set<std::string> helpers;
  NatPrinter printer{[](const NatVarInfo& v) { return v.name; }, &helpers};
  std::string operator()(const Nat& n) { return printExpr(printer.bare(n)); }
};

} // namespace

TEST(EmitNat, APolynomialIsPrintedAsWritten) {
  Nat n = natVar("n"), i = natVar("i");
  Printed print;
  EXPECT_EQ(print(natAdd(natMul(n, i), natConst(3))), "i*n + 3");
  EXPECT_EQ(print(natSub(n, natConst(1))), "n - 1");
}

TEST(EmitNat, TermsBesideAMinNeedNoParentheses) {
  Nat n = natVar("n"), i = natVar("i"), l = natVar("l"), j = natVar("j");
  Printed print;
  // B's packed panel read: n * i + min(n - 1, l + 32 * j)
  Nat clamp = natMin(natSub(n, natConst(1)), natAdd(l, natMul(natConst(32), j)));
  EXPECT_EQ(print(natAdd(natMul(n, i), clamp)), "i*n + risec_min(n - 1, l + 32*j)");
  EXPECT_EQ(print.helpers.count("risec_min"), 1u);
}

TEST(EmitNat, NegativeTermsAreSubtracted) {
  Nat w = natVar("w"), k = natVar("k"), h = natVar("h"), j = natVar("j");
  Printed print;
  Nat clamp = natMin(natAdd(h, natConst(1)), j);
  // k - w + w * min(h + 1, j), not k + (-w) + ...
  EXPECT_EQ(print(natAdd(natSub(k, w), natMul(w, clamp))), "k - w + w * risec_min(j, h + 1)");
  // a negative constant comes last: min(...) - 1, not (-1) + min(...)
  EXPECT_EQ(print(natSub(clamp, natConst(1))), "risec_min(j, h + 1) - 1");
}

TEST(EmitNat, ParenthesesStayWhereCNeedsThem) {
  Nat n = natVar("n"), k = natVar("k"), h = natVar("h"), j = natVar("j");
  Printed print;
  Nat clamp = natMin(h, j);
  // a quotient inside a call's argument, a product before the call
  EXPECT_EQ(print(natMul(natMul(natConst(16), n), natMax(natDiv(k, natConst(16)), clamp))),
            "16 * n * risec_max(k/16, risec_min(h, j))");
  // a sum as the divisor, or as the dividend
  EXPECT_EQ(print(natMod(clamp, natAdd(n, natConst(1)))), "risec_min(h, j) % (n + 1)");
  EXPECT_EQ(print(natDiv(natAdd(clamp, n), natConst(4))), "(n + risec_min(h, j)) / 4");
  // a quotient first in a product reads left to right: (k / 16) * min
  EXPECT_EQ(print(natMul(natDiv(k, natConst(16)), clamp)), "k/16 * risec_min(h, j)");
  // a sum subtracted: each of its terms is subtracted
  EXPECT_EQ(print(natSub(clamp, natAdd(n, k))), "risec_min(h, j) - n - k");
}
