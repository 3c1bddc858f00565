// End to end for the C back end (issue 3's must-show): every computable
// program of the corpus (tests/rise/*.rise, those with `// eval:` directives)
// and of tests/e2e/*.rise is compiled to C, built with gcc (and clang when
// installed) `-std=c11 -Wall -Wextra -Werror -O1` together with a generated
// driver, run on random inputs at several sizes, and compared with the
// reference interpreter. Sizes that violate a precondition must make the
// function return 1 without writing the output; a negative size must return 2.
//
// Programs the back end cannot compile yet are listed in kNotYetCompilable
// with the reason; the test checks that they still fail (so the list stays
// true) and every other program must compile.
//
// When the tests are built with RISEC_SANITIZE, the generated C is built with
// -fsanitize=address,undefined as well.
#include "codegen/Compile.h"
#include "rise/infer/Infer.h"
#include "rise/interp/Interpreter.h"
#include "rise/interp/ValueIO.h"
#include "rise/parse/Parser.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace risec;
using namespace risec::rise;
namespace fs = std::filesystem;

namespace {

const std::map<std::string, std::string> kNotYetCompilable = {};

constexpr double kRelativeTolerance = 1e-4;
constexpr double kAbsoluteTolerance = 1e-5;
constexpr std::size_t kMaxElements = 4096; ///< per input, to keep the interpreter fast
constexpr int kValidSizeSets = 5;

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Program {
  std::string file; ///< relative to tests/
  fs::path path;
};

std::vector<Program> programs() {
  std::vector<Program> v;
  for (const char* dir : {"rise", "e2e"}) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(RISEC_TEST_DATA) / dir, ec))
      if (e.is_regular_file() && e.path().extension() == ".rise")
        v.push_back({std::string(dir) + "/" + e.path().filename().string(), e.path()});
  }
  std::sort(v.begin(), v.end(), [](const Program& a, const Program& b) { return a.file < b.file; });
  return v;
}

/// Runs a shell command; returns its exit status and output (stdout+stderr).
int run(const std::string& cmd, std::string* output = nullptr) {
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

bool haveClang() {
  static const bool have = run("command -v clang >/dev/null") == 0;
  return have;
}

// ---- the driver ---------------------------------------------------------------

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
    std::function<std::string(const Type&)> tag = [&](const Type& x) -> std::string {
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

/// A main() that reads sizes, element counts and inputs from argv[1], calls
/// the kernel and prints `rc CODE` and the output (or whether it is untouched).
std::string driverSource(const std::string& symbol, const TypedDef& def, std::size_t nSizes) {
  // the entry's parameter and result types (symbolic), as C parameters
  Type t = def.type;
  while (t->kind() == TypeKind::DepFun)
    t = t->result();
  std::vector<Type> inputs, outputs;
  for (; t->kind() == TypeKind::Fun; t = t->result())
    leafTypes(t->param(), inputs);
  leafTypes(t, outputs);
  std::ostringstream c;
  c << "#include \"" << symbol << ".h\"\n#include <stdio.h>\n#include <stdlib.h>\n"
    << "#include <string.h>\n\n"
    << "int main(int argc, char** argv) {\n  if (argc != 2) return 91;\n"
    << "  FILE* in = fopen(argv[1], \"r\");\n  if (!in) return 92;\n  long long n_ = 0;\n"
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
  c << "  fclose(in);\n  int rc = " << symbol << "(";
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

// ---- values as flat text ----------------------------------------------------------

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

std::int64_t elementCount(const Type& t) {
  std::int64_t n = 1;
  for (Type e = t; e->kind() == TypeKind::Array || e->kind() == TypeKind::Vec; e = e->elem()) {
    auto v = natEvaluate(e->size(), [](const NatVarInfo&) { return std::nullopt; });
    n *= v ? *v : 0;
  }
  return n;
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

/// One input as the driver reads it: per buffer its element count, then the
/// elements; values passed by value as their scalars.
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

int scalarLeaves(const Type& t) {
  return t->kind() == TypeKind::Pair ? scalarLeaves(t->first()) + scalarLeaves(t->second()) : 1;
}

/// Inputs for a call that must fail before reading them (empty buffers,
/// zero scalars) and 16-element output buffers that must stay untouched.
void writeDummyInputsAndOutputs(const TypedDef& def, std::ostringstream& os) {
  Type t = def.type;
  while (t->kind() == TypeKind::DepFun)
    t = t->result();
  std::vector<Type> inputs, outputs;
  for (; t->kind() == TypeKind::Fun; t = t->result())
    leafTypes(t->param(), inputs);
  leafTypes(t, outputs);
  for (const Type& i : inputs)
    for (int k = 0; k < (isBuffer(i) ? 1 : scalarLeaves(i)); ++k)
      os << "0\n";
  for (std::size_t o = 0; o < outputs.size(); ++o)
    os << "16\n";
}

// ---- sizes ----------------------------------------------------------------------

using Sizes = interp::SizeEnv;

bool satisfies(const TypedDef& def, const Sizes& s) {
  try {
    interp::instantiateEntry(def, s);
    return true;
  } catch (const CompileError&) {
    return false;
  }
}

std::vector<std::int64_t> inputElementCounts(const TypedDef& def, const Sizes& s) {
  std::vector<std::int64_t> v;
  for (const Type& t : interp::instantiateEntry(def, s).inputTypes)
    v.push_back(elementCount(t));
  return v;
}

/// Directive sizes first, then random ones (odd and non-divisible included
/// whenever the preconditions allow), all small enough for the interpreter.
void chooseSizes(const TypedDef& def, const std::string& text, std::vector<Sizes>& valid,
                 std::vector<Sizes>& invalid) {
  std::vector<std::string> names = interp::sizeParameters(def);
  auto small = [&](const Sizes& s) {
    for (std::int64_t c : inputElementCounts(def, s))
      if (c > static_cast<std::int64_t>(kMaxElements))
        return false;
    return true;
  };
  auto add = [&](const Sizes& s) {
    if (std::find(valid.begin(), valid.end(), s) == valid.end() && small(s))
      valid.push_back(s);
  };
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    auto pos = line.find("// eval:");
    if (pos == std::string::npos)
      continue;
    std::string sz = line.substr(pos + 8, line.find('|') - pos - 8);
    Sizes s;
    std::istringstream items(sz);
    for (std::string item; std::getline(items, item, ',');) {
      auto eq = item.find('=');
      if (eq == std::string::npos)
        continue;
      std::string name = item.substr(0, eq);
      name.erase(0, name.find_first_not_of(" "));
      s[name] = std::stoll(item.substr(eq + 1));
    }
    if (s.size() == names.size() && satisfies(def, s))
      add(s);
  }
  if (names.empty()) {
    if (valid.empty())
      valid.push_back({});
    return;
  }
  static const std::int64_t candidates[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 11,
                                            12, 13, 16, 17, 24, 31, 32, 33, 48, 64};
  std::mt19937_64 rng(42);
  int wanted = static_cast<int>(valid.size()) + kValidSizeSets;
  for (int attempt = 0; attempt < 4000 && static_cast<int>(valid.size()) < wanted; ++attempt) {
    Sizes s;
    for (const std::string& n : names)
      s[n] = candidates[rng() % std::size(candidates)];
    if (satisfies(def, s))
      add(s);
    else if (invalid.empty()) {
      // a precondition violation that is not a negative size
      invalid.push_back(s);
    }
  }
}

// ---- the test ---------------------------------------------------------------------

void PrintTo(const Program& p, std::ostream* os) {
  *os << p.file;
}

class CodegenCEndToEnd : public ::testing::TestWithParam<Program> {};

std::string testName(const ::testing::TestParamInfo<Program>& info) {
  std::string n = info.param.file;
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return n;
}

TEST_P(CodegenCEndToEnd, MatchesTheInterpreter) {
  const Program& prog = GetParam();
  std::string text = readFile(prog.path);
  std::string base = prog.path.filename().string();
  bool listed = kNotYetCompilable.count(base) > 0;
  bool computable = text.find("// eval:") != std::string::npos;

  rise::Program program = parseProgram(makeSourceFile(prog.path.string(), text));
  std::string entry = program.defs.back().name;
  TypedDef def = inferDef(program, entry);
  std::string symbol = "k_" + entry;
  codegen::CompileResult result;
  try {
    result = codegen::compileToC(program, def, {symbol, prog.file, "test", ""});
  } catch (const CompileError& e) {
    if (listed)
      GTEST_SKIP() << "not yet compilable (" << kNotYetCompilable.at(base) << "): " << e.code()
                   << " " << e.message();
    FAIL() << prog.file << ": " << headline(e);
  } catch (const std::exception& e) {
    FAIL() << prog.file << ": internal error: " << e.what();
  }
  ASSERT_FALSE(listed) << base << " compiles now; remove it from kNotYetCompilable";
  if (!computable)
    GTEST_SKIP() << "no // eval: directive (not computable by the interpreter)";

  fs::path dir = fs::temp_directory_path() /
                 ("risec-e2e-" + std::to_string(::getpid()) + "-" + testName({GetParam(), 0}));
  fs::create_directories(dir);
  std::ofstream(dir / (symbol + ".c")) << result.files.source;
  std::ofstream(dir / (symbol + ".h")) << result.files.header;
  std::vector<std::string> sizeNames = interp::sizeParameters(def);
  std::ofstream(dir / "driver.c") << driverSource(symbol, def, sizeNames.size());

  std::string flags = "-std=c11 -Wall -Wextra -Werror -O1";
#ifdef RISEC_E2E_SANITIZE
  flags += " -fsanitize=address,undefined -fno-sanitize-recover=all";
#endif
  std::vector<std::string> binaries;
  for (const char* cc : {"gcc", "clang"}) {
    if (std::string(cc) == "clang" && !haveClang())
      continue;
    std::string exe = (dir / cc).string();
    std::string log;
    int st = run(std::string(cc) + " " + flags + " " + (dir / (symbol + ".c")).string() + " " +
                     (dir / "driver.c").string() + " -o " + exe + " -lm",
                 &log);
    ASSERT_EQ(st, 0) << cc << " failed on the generated C:\n" << log << "\n" << result.files.source;
    binaries.push_back(exe);
  }

  std::vector<Sizes> valid, invalid;
  chooseSizes(def, text, valid, invalid);
  ASSERT_FALSE(valid.empty()) << "no sizes satisfy the preconditions";

  auto runAll = [&](const std::string& input) {
    std::vector<std::string> outs;
    std::ofstream(dir / "input.txt") << input;
    for (const std::string& exe : binaries) {
      std::string out;
      int st = run(exe + " " + (dir / "input.txt").string(), &out);
      EXPECT_EQ(st, 0) << exe << " exited with " << st << ":\n" << out;
      outs.push_back(out);
    }
    return outs;
  };
  auto sizesText = [&](const Sizes& s) {
    std::string t;
    for (const std::string& n : sizeNames)
      t += (t.empty() ? "" : ",") + n + "=" + std::to_string(s.at(n));
    return t.empty() ? std::string("-") : t;
  };

  int checked = 0;
  for (const Sizes& s : valid) {
    interp::EntryInterface iface = interp::instantiateEntry(def, s);
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      std::mt19937_64 rng(seed * 7919 + 17);
      std::vector<interp::Value> inputs;
      for (const Type& t : iface.inputTypes)
        inputs.push_back(interp::randomValue(t, rng));
      interp::Value expected;
      try {
        expected = interp::evaluate(def, s, inputs);
      } catch (const CompileError&) {
        continue; // e.g. an integer division by zero for these inputs: try others
      }
      std::ostringstream in;
      for (const std::string& n : sizeNames)
        in << s.at(n) << "\n";
      for (std::size_t j = 0; j < inputs.size(); ++j)
        writeValue(iface.inputTypes[j], inputs[j], in);
      std::vector<Type> outLeaves;
      leafTypes(iface.outputType, outLeaves);
      for (const Type& o : outLeaves)
        in << elementCount(o) << "\n";
      for (const std::string& out : runAll(in.str())) {
        std::istringstream os(out);
        std::vector<std::string> tok;
        for (std::string w; os >> w;)
          tok.push_back(w);
        ASSERT_GE(tok.size(), 2u) << out;
        ASSERT_EQ(tok[0] + " " + tok[1], "rc 0") << "sizes " << sizesText(s) << ":\n" << out;
        std::size_t pos = 2;
        interp::Value actual = unflatten(iface.outputType, tok, pos);
        std::string why;
        EXPECT_TRUE(
            interp::valuesClose(actual, expected, kRelativeTolerance, kAbsoluteTolerance, &why))
            << prog.file << " sizes " << sizesText(s) << " seed " << seed << ": " << why
            << "\nC:      " << interp::valueToJson(actual)
            << "\nexpected: " << interp::valueToJson(expected);
      }
      ++checked;
      break;
    }
  }
  EXPECT_GT(checked, 0) << "no size set could be evaluated by the interpreter";

  // A violated precondition: return 1, output untouched.
  for (const Sizes& s : invalid) {
    std::ostringstream in;
    for (const std::string& n : sizeNames)
      in << s.at(n) << "\n";
    writeDummyInputsAndOutputs(def, in);
    for (const std::string& out : runAll(in.str()))
      EXPECT_EQ(out, "rc 1\nuntouched 1\n")
          << "sizes " << sizesText(s) << " violate a precondition";
  }
  // A negative size: return 2, output untouched.
  if (!sizeNames.empty()) {
    std::ostringstream in;
    for (std::size_t i = 0; i < sizeNames.size(); ++i)
      in << (i == 0 ? -1 : 1) << "\n";
    writeDummyInputsAndOutputs(def, in);
    for (const std::string& out : runAll(in.str()))
      EXPECT_EQ(out, "rc 2\nuntouched 1\n") << "a negative size";
  }
  if (!HasFailure())
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Programs, CodegenCEndToEnd, ::testing::ValuesIn(programs()), testName);

TEST(CodegenCEndToEnd, EveryUnsupportedProgramExists) {
  for (const auto& [file, reason] : kNotYetCompilable)
    EXPECT_TRUE(fs::exists(fs::path(RISEC_TEST_DATA) / "rise" / file)) << file << ": " << reason;
}

} // namespace
