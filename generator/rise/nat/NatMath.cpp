// Overflow-checked integer helpers: constant folding must never invoke UB, so
// every fold goes through these and is skipped when they report overflow.
#include "rise/nat/NatInternal.h"

#include <limits>

namespace risec::rise::detail {

std::optional<std::int64_t> checkedAdd(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) {
    return std::nullopt;
  }
  return r;
}

std::optional<std::int64_t> checkedMul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) {
    return std::nullopt;
  }
  return r;
}

std::optional<std::int64_t> checkedPow(std::int64_t a, std::int64_t e) {
  if (e < 0) {
    return std::nullopt;
  }
  std::int64_t result = 1;
  std::int64_t base = a;
  while (e > 0) {
    if (e & 1) {
      auto r = checkedMul(result, base);
      if (!r) {
        return std::nullopt;
      }
      result = *r;
    }
    e >>= 1;
    if (e > 0) {
      auto b = checkedMul(base, base);
      if (!b) {
        return std::nullopt;
      }
      base = *b;
    }
  }
  return result;
}

std::optional<std::int64_t> floorDiv(std::int64_t a, std::int64_t b) {
  if (b == 0 || (a == std::numeric_limits<std::int64_t>::min() && b == -1)) {
    return std::nullopt;
  }
  std::int64_t q = a / b;
  // C++ truncates towards zero; step down when the exact quotient is negative
  // and not an integer.
  if (a % b != 0 && ((a < 0) != (b < 0))) {
    --q;
  }
  return q;
}

std::optional<std::int64_t> floorMod(std::int64_t a, std::int64_t b) {
  if (b == 0) {
    return std::nullopt;
  }
  if (b == -1) {
    return 0; // INT64_MIN % -1 is UB in C++, the answer is 0 anyway
  }
  std::int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) {
    r += b;
  }
  return r;
}

} // namespace risec::rise::detail
