#include "CKernelRunner.h"
#include "TestFiles.h"

#include "rise/interp/ValueIO.h"

#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>

#include <sys/wait.h>

namespace risec::testsupport {

using namespace risec::rise;
namespace fs = std::filesystem;

int runCommand(const std::string& cmd, std::string* output) {
  std::string full = cmd + " 2>&1";
  FILE* p = ::popen(full.c_str(), "r");
  if (!p)
    return -1;
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
    out.append(buf, n);
  int status = ::pclose(p);
  if (output)
    *output = out;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool cpuSupportsIsa(const std::string& level) {
#if defined(__x86_64__)
  __builtin_cpu_init();
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
  if (level == "x86-64-v2")
    return __builtin_cpu_supports("x86-64-v2");
  if (level == "x86-64-v3")
    return __builtin_cpu_supports("x86-64-v3");
  if (level == "x86-64-v4")
    return __builtin_cpu_supports("x86-64-v4");
#else
  bool v2 = __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("popcnt") &&
            __builtin_cpu_supports("ssse3");
  bool v3 = v2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
            __builtin_cpu_supports("bmi2");
  bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  if (level == "x86-64-v2")
    return v2;
  if (level == "x86-64-v3")
    return v3;
  if (level == "x86-64-v4")
    return v4;
#endif
  return level == "x86-64";
#else
  (void)level;
  return false;
#endif
}

bool haveClang() {
  static const bool have = runCommand("command -v clang >/dev/null") == 0;
  return have;
}

namespace {

// ---- C types of the ABI ----------------------------------------------------------------

std::string cScalar(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::F32:
    return "float";
  case ScalarKind::F64:
    return "double";
  case ScalarKind::NatType:
    return "int";
  default:
    return std::string(scalarName(k)) == "i8"    ? "int8_t"
           : std::string(scalarName(k)) == "i16" ? "int16_t"
           : std::string(scalarName(k)) == "i32" ? "int32_t"
           : std::string(scalarName(k)) == "i64" ? "int64_t"
           : std::string(scalarName(k)) == "u8"  ? "uint8_t"
           : std::string(scalarName(k)) == "u16" ? "uint16_t"
           : std::string(scalarName(k)) == "u32" ? "uint32_t"
                                                 : "uint64_t";
  }
}

/// Arrays and vectors are passed as pointers to their elements.
bool isBuffer(const Type& t) {
  return t->kind() == TypeKind::Array || t->kind() == TypeKind::Vec;
}

Type innermost(Type t) { // vectors are stored as their lanes
  while (t->kind() == TypeKind::Array || t->kind() == TypeKind::Vec)
    t = t->elem();
  return t;
}

std::string cElem(const Type& t) {
  if (t->kind() == TypeKind::Pair) {
    // a vector field is tagged by its element and width (`pair_f32x4_f32`)
    std::function<std::string(const Type&)> tag = [&](const Type& x) -> std::string {
      if (x->kind() == TypeKind::Vec)
        return std::string(scalarName(x->elem()->scalar())) + "x" +
               std::to_string(x->size()->value());
      return x->kind() == TypeKind::Pair ? "pair_" + tag(x->first()) + "_" + tag(x->second())
                                         : std::string(scalarName(x->scalar()));
    };
    return "struct " + tag(t);
  }
  if (t->kind() == TypeKind::Index)
    return "int";
  return cScalar(t->scalar());
}

/// C statements reading (or printing) one element of type t at lvalue `lv`.
std::string readLeaf(const Type& t, const std::string& lv) {
  if (t->kind() == TypeKind::Pair)
    return readLeaf(t->first(), lv + ".fst") + readLeaf(t->second(), lv + ".snd");
  if (t->kind() == TypeKind::Vec) { // a vector field: lane by lane
    std::string s;
    for (std::int64_t k = 0; k < t->size()->value(); ++k)
      s += readLeaf(t->elem(), lv + "[" + std::to_string(k) + "]");
    return s;
  }
  if (t->kind() == TypeKind::Index)
    return "  { long long v; if (fscanf(in, \"%lld\", &v) != 1) return 90; " + lv +
           " = (int)v; }\n";
  ScalarKind k = t->scalar();
  if (isFloat(k))
    return "  { double v; if (fscanf(in, \"%lf\", &v) != 1) return 90; " + lv + " = (" +
           cScalar(k) + ")v; }\n";
  if (isUnsignedInt(k))
    return "  { unsigned long long v; if (fscanf(in, \"%llu\", &v) != 1) return 90; " + lv +
           " = (" + cScalar(k) + ")v; }\n";
  return "  { long long v; if (fscanf(in, \"%lld\", &v) != 1) return 90; " + lv + " = (" +
         cScalar(k) + ")v; }\n";
}

std::string printLeaf(const Type& t, const std::string& lv) {
  if (t->kind() == TypeKind::Pair)
    return printLeaf(t->first(), lv + ".fst") + printLeaf(t->second(), lv + ".snd");
  if (t->kind() == TypeKind::Vec) { // a vector field: lane by lane
    std::string s;
    for (std::int64_t k = 0; k < t->size()->value(); ++k)
      s += printLeaf(t->elem(), lv + "[" + std::to_string(k) + "]");
    return s;
  }
  if (t->kind() == TypeKind::Index)
    return "  printf(\"%d\\n\", " + lv + ");\n";
  ScalarKind k = t->scalar();
  if (k == ScalarKind::F32)
    return "  printf(\"%.9g\\n\", (double)" + lv + ");\n";
  if (k == ScalarKind::F64)
    return "  printf(\"%.17g\\n\", " + lv + ");\n";
  if (isUnsignedInt(k))
    return "  printf(\"%llu\\n\", (unsigned long long)" + lv + ");\n";
  return "  printf(\"%lld\\n\", (long long)" + lv + ");\n";
}

/// A pair holding arrays is passed as one pointer per component (the back
/// end's "struct of arrays" ABI); these are the parameters of one value.
bool splitPair(const Type& t) {
  std::function<bool(const Type&)> holds = [&](const Type& x) {
    return isBuffer(x) ||
           (x->kind() == TypeKind::Pair && (holds(x->first()) || holds(x->second())));
  };
  return t->kind() == TypeKind::Pair && holds(t);
}

void leafTypes(const Type& t, std::vector<Type>& out) {
  if (splitPair(t)) {
    leafTypes(t->first(), out);
    leafTypes(t->second(), out);
  } else {
    out.push_back(t);
  }
}

/// The entry's parameter and result types (symbolic), as C parameters.
void abiLeaves(const TypedDef& def, std::vector<Type>& inputs, std::vector<Type>& outputs) {
  Type t = def.type;
  while (t->kind() == TypeKind::DepFun)
    t = t->result();
  for (; t->kind() == TypeKind::Fun; t = t->result())
    leafTypes(t->param(), inputs);
  leafTypes(t, outputs);
}

void flatten(const interp::Value& v, std::ostringstream& os) {
  switch (v.kind()) {
  case interp::Value::Kind::Array:
    for (const interp::Value& e : v.elements())
      flatten(e, os);
    return;
  case interp::Value::Kind::Pair:
    flatten(v.first(), os);
    flatten(v.second(), os);
    return;
  case interp::Value::Kind::Index:
    os << v.asIndex().value << "\n";
    return;
  case interp::Value::Kind::Vector:
    for (const ScalarValue& l : v.lanes())
      flatten(interp::Value::scalar(l), os);
    return;
  case interp::Value::Kind::Scalar: {
    const ScalarValue& s = v.asScalar();
    char buf[64];
    if (isFloat(s.kind))
      std::snprintf(buf, sizeof buf, "%.17g", s.f);
    else if (isUnsignedInt(s.kind))
      std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(s.u));
    else
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(s.i));
    os << buf << "\n";
    return;
  }
  default:
    throw std::runtime_error("cannot flatten " + interp::describeValue(v));
  }
}

int scalarLeaves(const Type& t) {
  return t->kind() == TypeKind::Pair ? scalarLeaves(t->first()) + scalarLeaves(t->second()) : 1;
}

using risec::test::readFile;

} // namespace

// ---- the driver ---------------------------------------------------------------------

std::string kernelCaller(const std::string& symbol, const TypedDef& def, std::size_t nSizes) {
  std::vector<Type> inputs, outputs;
  abiLeaves(def, inputs, outputs);
  std::ostringstream c;
  c << "static int risec_call_" << symbol << "(FILE* in) {\n  long long n_ = 0;\n"
    << "  (void)n_;\n";
  for (std::size_t i = 0; i < nSizes; ++i)
    c << "  int s" << i << ";\n  if (fscanf(in, \"%d\", &s" << i << ") != 1) return 90;\n";
  for (std::size_t j = 0; j < inputs.size(); ++j) {
    std::string e = cElem(innermost(inputs[j]));
    if (isBuffer(inputs[j])) {
      c << "  if (fscanf(in, \"%lld\", &n_) != 1) return 90;\n"
        << "  " << e << "* x" << j << " = calloc((size_t)n_ + 1, sizeof(" << e << "));\n"
        << "  for (long long k = 0; k < n_; ++k) {\n"
        << readLeaf(innermost(inputs[j]), "x" + std::to_string(j) + "[k]") << "  }\n";
    } else {
      c << "  " << e << " x" << j << ";\n" << readLeaf(inputs[j], "x" + std::to_string(j));
    }
  }
  c << "  int untouched = 1;\n";
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    std::string oe = cElem(innermost(outputs[o])), i = std::to_string(o);
    c << "  long long outN" << i << ";\n  if (fscanf(in, \"%lld\", &outN" << i
      << ") != 1) return 90;\n"
      << "  size_t bytes" << i << " = ((size_t)outN" << i << " + 1) * sizeof(" << oe << ");\n"
      << "  " << oe << "* out" << i << " = malloc(bytes" << i << ");\n  memset(out" << i
      << ", 0xAB, bytes" << i << ");\n";
  }
  c << "  int rc = " << symbol << "(";
  for (std::size_t o = 0; o < outputs.size(); ++o)
    c << (o ? ", " : "") << "out" << o;
  for (std::size_t i = 0; i < nSizes; ++i)
    c << ", s" << i;
  for (std::size_t j = 0; j < inputs.size(); ++j)
    c << ", x" << j;
  c << ");\n  printf(\"rc %d\\n\", rc);\n";
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    std::string i = std::to_string(o);
    c << "  if (rc != 0) {\n    for (size_t b = 0; b < bytes" << i << "; ++b)\n"
      << "      if (((unsigned char*)out" << i << ")[b] != 0xAB) untouched = 0;\n"
      << "    outN" << i << " = 0;\n  }\n"
      << "  for (long long k = 0; k < outN" << i << "; ++k) {\n"
      << printLeaf(innermost(outputs[o]), "out" + i + "[k]") << "  }\n  free(out" << i << ");\n";
  }
  c << "  if (rc != 0) printf(\"untouched %d\\n\", untouched);\n";
  for (std::size_t j = 0; j < inputs.size(); ++j)
    if (isBuffer(inputs[j]))
      c << "  free(x" << j << ");\n";
  c << "  return 0;\n}\n";
  return c.str();
}

std::string driverSource(const std::string& symbol, const TypedDef& def, std::size_t nSizes) {
  std::ostringstream c;
  c << "#include \"" << symbol << ".h\"\n#include <stdio.h>\n#include <stdlib.h>\n"
    << "#include <string.h>\n\n"
    << kernelCaller(symbol, def, nSizes) << "\n"
    << "int main(int argc, char** argv) {\n  if (argc != 2) return 91;\n"
    << "  FILE* in = fopen(argv[1], \"r\");\n  if (!in) return 92;\n"
    << "  int r = risec_call_" << symbol << "(in);\n  fclose(in);\n  return r;\n}\n";
  return c.str();
}

// ---- values as text -------------------------------------------------------------------

std::int64_t elementCount(const Type& t) {
  std::int64_t n = 1;
  for (Type e = t; e->kind() == TypeKind::Array || e->kind() == TypeKind::Vec; e = e->elem()) {
    auto v = natEvaluate(e->size(), [](const NatVarInfo&) { return std::nullopt; });
    n *= v ? *v : 0;
  }
  return n;
}

void writeValue(const Type& t, const interp::Value& v, std::ostringstream& os) {
  if (splitPair(t)) {
    writeValue(t->first(), v.first(), os);
    writeValue(t->second(), v.second(), os);
    return;
  }
  if (isBuffer(t))
    os << elementCount(t) << "\n";
  flatten(v, os);
}

std::string inputRecord(const TypedDef& def, const std::vector<std::string>& sizeNames,
                        const interp::SizeEnv& sizes, const std::vector<interp::Value>& inputs) {
  interp::EntryInterface iface = interp::instantiateEntry(def, sizes);
  std::ostringstream in;
  for (const std::string& n : sizeNames)
    in << sizes.at(n) << "\n";
  for (std::size_t j = 0; j < inputs.size(); ++j)
    writeValue(iface.inputTypes[j], inputs[j], in);
  std::vector<Type> outLeaves;
  leafTypes(iface.outputType, outLeaves);
  for (const Type& o : outLeaves)
    in << elementCount(o) << "\n";
  return in.str();
}

void writeDummyInputsAndOutputs(const TypedDef& def, std::ostringstream& os) {
  std::vector<Type> inputs, outputs;
  abiLeaves(def, inputs, outputs);
  for (const Type& i : inputs)
    for (int k = 0; k < (isBuffer(i) ? 1 : scalarLeaves(i)); ++k)
      os << "0\n";
  for (std::size_t o = 0; o < outputs.size(); ++o)
    os << "16\n";
}

std::vector<std::string> tokens(const std::string& text) {
  std::istringstream os(text);
  std::vector<std::string> tok;
  for (std::string w; os >> w;)
    tok.push_back(w);
  return tok;
}

interp::Value unflatten(const Type& t, const std::vector<std::string>& tok, std::size_t& pos) {
  switch (t->kind()) {
  case TypeKind::Array: {
    std::vector<interp::Value> es;
    std::int64_t n = elementCount(rise::arrayType(t->size(), rise::scalarType(ScalarKind::I32)));
    for (std::int64_t i = 0; i < n; ++i)
      es.push_back(unflatten(t->elem(), tok, pos));
    return interp::Value::array(std::move(es));
  }
  case TypeKind::Vec: {
    std::vector<ScalarValue> lanes;
    std::int64_t n = elementCount(t);
    for (std::int64_t i = 0; i < n; ++i)
      lanes.push_back(unflatten(t->elem(), tok, pos).asScalar());
    return interp::Value::vector(std::move(lanes));
  }
  case TypeKind::Pair: {
    interp::Value a = unflatten(t->first(), tok, pos);
    interp::Value b = unflatten(t->second(), tok, pos);
    return interp::Value::pair(a, b);
  }
  case TypeKind::Index: {
    auto n = natEvaluate(t->size(), [](const NatVarInfo&) { return std::nullopt; });
    return interp::Value::index(std::stoll(tok.at(pos++)), n ? *n : 0);
  }
  default: {
    ScalarKind k = t->scalar();
    const std::string& s = tok.at(pos++);
    if (isFloat(k))
      return interp::Value::scalar(ScalarValue::makeFloat(k, std::strtod(s.c_str(), nullptr)));
    if (k == ScalarKind::Bool)
      return interp::Value::scalar(ScalarValue::makeBool(std::stoll(s) != 0));
    if (isUnsignedInt(k))
      return interp::Value::scalar(ScalarValue::makeUInt(k, std::stoull(s)));
    return interp::Value::scalar(ScalarValue::makeInt(k, std::stoll(s)));
  }
  }
}

// ---- building ---------------------------------------------------------------------------

std::string defaultCFlags() {
  std::string flags = "-std=c11 -Wall -Wextra -Werror -O1";
#ifdef RISEC_E2E_SANITIZE
  flags += " -fsanitize=address,undefined -fno-sanitize-recover=all";
#endif
  return flags;
}

int buildKernel(const fs::path& dir, const std::string& symbol, const codegen::c::CFiles& files,
                const std::string& driver, const std::string& cc, const std::string& flags,
                std::string& log) {
  fs::create_directories(dir);
  bool opencl = files.abi.target == codegen::Target::OpenCL;
  // OpenCL: the host wrappers (SYMBOL_host.c) stand in for SYMBOL.c; they
  // embed SYMBOL.cl, which is written too for inspection.
  std::string source = opencl ? symbol + "_host.c" : symbol + ".c";
  if (opencl)
    std::ofstream(dir / (symbol + ".cl")) << files.source;
  std::ofstream(dir / source) << (opencl ? files.hostSource : files.source);
  std::ofstream(dir / (symbol + ".h")) << files.header;
  std::ofstream(dir / "driver.c") << driver;
  std::string libs = " -lm";
  std::string includes;
  if (opencl) {
    libs = std::string(" ") + RISEC_HOST_CL_LIB + " -lOpenCL -lpthread -lm";
    includes = std::string(" -I") + RISEC_HOST_DIR;
  }
  return runCommand(cc + " " + flags + includes + " " + (dir / source).string() + " " +
                        (dir / "driver.c").string() + " -o " + (dir / cc).string() + libs,
                    &log);
}

int runDriver(const fs::path& dir, const std::string& exe, const std::string& record,
              std::string& output) {
  std::ofstream(dir / "input.txt") << record;
  std::string environment;
#ifdef RISEC_E2E_SANITIZE
  // PoCL's allocations are not ours to free (an OpenCL driver next to it)
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.path().filename().string().ends_with("_host.c"))
      environment = "ASAN_OPTIONS=detect_leaks=0 ";
#endif
  return runCommand(environment + exe + " " + (dir / "input.txt").string(), &output);
}

// ---- batches -----------------------------------------------------------------------------

KernelBatch::KernelBatch(fs::path dir) : dir_(std::move(dir)) {
  fs::create_directories(dir_);
}

int KernelBatch::add(const std::string& symbol, const TypedDef& def, std::size_t nSizes,
                     const codegen::c::CFiles& files) {
  std::ofstream(dir_ / (symbol + ".c")) << files.source;
  std::ofstream(dir_ / (symbol + ".h")) << files.header;
  kernels_.push_back({symbol, kernelCaller(symbol, def, nSizes)});
  return static_cast<int>(kernels_.size()) - 1;
}

int KernelBatch::build(const std::string& cc, const std::string& flags, std::string& log,
                       const std::vector<int>& only) {
  std::vector<int> ids = only;
  if (ids.empty())
    for (std::size_t i = 0; i < kernels_.size(); ++i)
      ids.push_back(static_cast<int>(i));
  // The helpers every generated file may define (codegen/c/EmitFiles.cpp, helperCode).
  static const char* const kHelpers[] = {"risec_min", "risec_max", "risec_pow"};
  std::ostringstream c;
  c << "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n";
  for (int id : ids) {
    const std::string& s = kernels_.at(id).symbol;
    for (const char* h : kHelpers)
      c << "#define " << h << " " << h << "_" << s << "\n";
    c << "#include \"" << s << ".c\"\n";
    for (const char* h : kHelpers)
      c << "#undef " << h << "\n";
    c << kernels_.at(id).caller << "\n";
  }
  c << "int main(int argc, char** argv) {\n  if (argc != 2) return 91;\n"
    << "  FILE* in = fopen(argv[1], \"r\");\n  if (!in) return 92;\n  int id;\n"
    << "  while (fscanf(in, \"%d\", &id) == 1) {\n    printf(\"kernel %d\\n\", id);\n"
    << "    int r = 93;\n    switch (id) {\n";
  for (int id : ids)
    c << "    case " << id << ": r = risec_call_" << kernels_.at(id).symbol << "(in); break;\n";
  c << "    }\n    if (r != 0) return r;\n  }\n  fclose(in);\n  return 0;\n}\n";
  std::ofstream(dir_ / "batch.c") << c.str();
  return runCommand(cc + " " + flags + " -I" + dir_.string() + " " + (dir_ / "batch.c").string() +
                        " -o " + (dir_ / "batch").string() + " -lm",
                    &log);
}

int KernelBatch::run(const std::vector<std::pair<int, std::string>>& records,
                     std::vector<std::string>& outputs, std::string& rawOutput,
                     const std::string& environment) {
  std::ostringstream in;
  for (const auto& [id, record] : records)
    in << id << "\n" << record;
  std::ofstream(dir_ / "input.txt") << in.str();
  int st =
      runCommand((environment.empty() ? "" : environment + " ") + (dir_ / "batch").string() + " " +
                     (dir_ / "input.txt").string() + " >" + (dir_ / "output.txt").string(),
                 &rawOutput);
  std::string out = readFile(dir_ / "output.txt");
  rawOutput += out;
  // split at the `kernel ID` lines, one per call in record order
  outputs.assign(records.size(), "");
  std::size_t call = 0, pos = 0;
  bool started = false;
  while (pos < out.size()) {
    std::size_t end = out.find('\n', pos);
    if (end == std::string::npos)
      end = out.size();
    std::string line = out.substr(pos, end - pos);
    pos = end + 1;
    if (line.rfind("kernel ", 0) == 0) {
      if (started)
        ++call;
      started = true;
      continue;
    }
    if (started && call < outputs.size())
      outputs[call] += line + "\n";
  }
  return st;
}

} // namespace risec::testsupport
