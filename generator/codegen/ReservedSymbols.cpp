#include "codegen/ReservedSymbols.h"

#include <array>
#include <cctype>

namespace risec::codegen {

namespace {

// <math.h>: each function also with its `f` and `l` suffix.
constexpr std::array kMath = {
    "acos",   "asin",     "atan",    "atan2",     "cos",        "sin",   "tan",       "acosh",
    "asinh",  "atanh",    "cosh",    "sinh",      "tanh",       "exp",   "exp2",      "expm1",
    "log",    "log10",    "log1p",   "log2",      "logb",       "ilogb", "frexp",     "ldexp",
    "modf",   "scalbn",   "scalbln", "cbrt",      "fabs",       "hypot", "pow",       "sqrt",
    "erf",    "erfc",     "lgamma",  "tgamma",    "ceil",       "floor", "nearbyint", "rint",
    "lrint",  "llrint",   "round",   "lround",    "llround",    "trunc", "fmod",      "remainder",
    "remquo", "copysign", "nan",     "nextafter", "nexttoward", "fdim",  "fmax",      "fmin",
    "fma"};
constexpr std::array kMathMacros = {
    "isnan",     "isinf",  "isfinite",       "isnormal",    "signbit",       "fpclassify",
    "isgreater", "isless", "isgreaterequal", "islessequal", "islessgreater", "isunordered"};
// <stdlib.h>, <string.h>, <stdio.h> (the generated tests' drivers), <assert.h>
constexpr std::array kLibc = {
    "malloc", "calloc",  "realloc", "free",     "aligned_alloc", "abort",   "exit",    "atexit",
    "abs",    "labs",    "llabs",   "div",      "ldiv",          "lldiv",   "atoi",    "atol",
    "atof",   "strtol",  "strtod",  "strtof",   "qsort",         "bsearch", "rand",    "srand",
    "getenv", "system",  "memcpy",  "memmove",  "memset",        "memcmp",  "memchr",  "strlen",
    "strcpy", "strncpy", "strcmp",  "strncmp",  "strcat",        "strchr",  "strrchr", "strstr",
    "printf", "fprintf", "sprintf", "snprintf", "puts",          "assert",  "main"};
// OpenCL C 1.2's built-in functions (section 6.12) that are not C's too.
constexpr std::array kOpenClBuiltins = {"acospi",
                                        "asinpi",
                                        "atanpi",
                                        "atan2pi",
                                        "cospi",
                                        "sinpi",
                                        "tanpi",
                                        "exp10",
                                        "mad",
                                        "maxmag",
                                        "minmag",
                                        "pown",
                                        "powr",
                                        "rootn",
                                        "rsqrt",
                                        "sincos",
                                        "fract",
                                        "abs_diff",
                                        "add_sat",
                                        "hadd",
                                        "rhadd",
                                        "clamp",
                                        "clz",
                                        "mad_hi",
                                        "mad_sat",
                                        "max",
                                        "min",
                                        "mul_hi",
                                        "rotate",
                                        "sub_sat",
                                        "upsample",
                                        "popcount",
                                        "mad24",
                                        "mul24",
                                        "degrees",
                                        "radians",
                                        "mix",
                                        "step",
                                        "smoothstep",
                                        "sign",
                                        "cross",
                                        "dot",
                                        "distance",
                                        "length",
                                        "normalize",
                                        "fast_distance",
                                        "fast_length",
                                        "fast_normalize",
                                        "isequal",
                                        "isnotequal",
                                        "isordered",
                                        "any",
                                        "all",
                                        "bitselect",
                                        "select",
                                        "shuffle",
                                        "shuffle2",
                                        "barrier",
                                        "mem_fence",
                                        "read_mem_fence",
                                        "write_mem_fence",
                                        "async_work_group_copy",
                                        "async_work_group_strided_copy",
                                        "wait_group_events",
                                        "prefetch",
                                        "get_work_dim",
                                        "get_global_size",
                                        "get_global_id",
                                        "get_local_size",
                                        "get_local_id",
                                        "get_num_groups",
                                        "get_group_id",
                                        "get_global_offset",
                                        "vec_step"};
// Prefixes of families of names.
constexpr std::array kOpenClPrefixes = {"vload",      "vstore",      "half_",     "native_",
                                        "atomic_",    "atom_",       "convert_",  "as_",
                                        "read_image", "write_image", "get_image_"};

template <std::size_t N> bool among(std::string_view s, const std::array<const char*, N>& names) {
  for (const char* n : names)
    if (s == n)
      return true;
  return false;
}

// `exp`, `expf` or `expl`
bool mathFunction(std::string_view s) {
  if (among(s, kMath) || among(s, kMathMacros))
    return true;
  if (s.size() > 1 && (s.back() == 'f' || s.back() == 'l'))
    return among(s.substr(0, s.size() - 1), kMath);
  return false;
}

bool startsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

} // namespace

std::string reservedSymbol(std::string_view symbol, Target target) {
  const std::string quoted = "`" + std::string(symbol) + "`";
  if (mathFunction(symbol))
    return "the C library's " + quoted + " (math.h)";
  if (among(symbol, kLibc))
    return "the C library's " + quoted;
  if (startsWith(symbol, "omp_"))
    return "an OpenMP name (omp_*)";
  if (symbol.size() > 2 && startsWith(symbol, "cl") &&
      std::isupper(static_cast<unsigned char>(symbol[2])))
    return "an OpenCL host API name (cl*)";
  if (startsWith(symbol, "risec_"))
    return "a name of risec's own (risec_*)";
  if (startsWith(symbol, "__") || (symbol.size() > 1 && symbol[0] == '_' &&
                                   std::isupper(static_cast<unsigned char>(symbol[1]))))
    return "a name reserved to the C implementation (__* and _X*)";
  if (target == Target::OpenCL) {
    if (among(symbol, kOpenClBuiltins))
      return "OpenCL C's built-in " + quoted;
    for (const char* p : kOpenClPrefixes)
      if (startsWith(symbol, p))
        return "an OpenCL C built-in family (" + std::string(p) + "*)";
  }
  return "";
}

} // namespace risec::codegen
