// The per-ISA-level runs of bench_risec (RisecKernel.h): variants with ISA
// levels (`isas:`) registered as `VARIANT@LEVEL` under RISEC_ISA=LEVEL.
#include "RisecKernel.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

namespace bench {

std::string isaLabel() {
  const char* l = std::getenv("RISEC_BENCH_ISA_LABEL");
  return l ? l : "";
}

std::string isaVariantName(const std::string& symbol, const std::string& label) {
  std::string level = isaLabel();
  if (level.empty())
    return label;
  SelectedIsa selected = selectedIsaOf(symbol);
  if (!selected)
    return "";
  std::string runs = selected();
  if (runs != level) { // RISEC_ISA not set, or a level the CPU or the variant lacks
    const char* forced = std::getenv("RISEC_ISA");
    std::fprintf(stderr, "bench_risec: %s runs %s, not %s (RISEC_ISA=%s); %s is not registered\n",
                 symbol.c_str(), runs.c_str(), level.c_str(), forced ? forced : "(unset)",
                 label.c_str());
    return "";
  }
  return label + "@" + level;
}

void recordSelectedIsas() {
  for (const std::string& symbol : isaSymbols())
    if (SelectedIsa f = selectedIsaOf(symbol)) // null: the library lacks it
      benchmark::AddCustomContext("risec_isa:" + symbol, f());
}

} // namespace bench
