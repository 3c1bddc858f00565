// `risec ... --time-passes`: the wall-clock time of each pipeline stage,
// printed to stderr as `risec: time STAGE MS ms`. Off unless enabled.
#pragma once

#include <chrono>
#include <cstdio>
#include <utility>

namespace risec {

/// Whether stages are timed; set once by the driver from --time-passes.
inline bool& timePassesEnabled() {
  static bool enabled = false;
  return enabled;
}

/// Runs `stage()` and, when timing is enabled, prints how long it took.
template <typename F> decltype(auto) timed(const char* name, F&& stage) {
  if (!timePassesEnabled())
    return std::forward<F>(stage)();
  struct Print {
    const char* name;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    ~Print() {
      std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - start;
      std::fprintf(stderr, "risec: time %-14s %9.3f ms\n", name, ms.count());
    }
  } print{name};
  return std::forward<F>(stage)();
}

} // namespace risec
