#include "rise/interp/Foreign.h"

#include "rise/ast/ForeignTypes.h"
#include "rise/interp/RuntimeError.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>

namespace risec::rise::interp {

namespace {

namespace fs = std::filesystem;

using WrapperFn = void (*)(const void* const*, void*);
constexpr const char* kWrapperName = "risec_foreign_call";

std::string cType(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool:
    return "bool";
  case ScalarKind::F32:
    return "float";
  case ScalarKind::F64:
    return "double";
  case ScalarKind::NatType:
    return "int64_t";
  default: // i8 -> int8_t, u16 -> uint16_t, ...
    std::string name(scalarName(k));
    return (isUnsignedInt(k) ? "uint" : "int") + name.substr(1) + "_t";
  }
}

/// The tag of a type in the name of a pair struct (codegen/c/EmitTypes.cpp
/// spells them the same way): `f32`, `f32x4`, `pair_f32_i32`.
std::string typeTag(const Type& t) {
  switch (t->kind()) {
  case TypeKind::Vec:
    return std::string(scalarName(t->elem()->scalar())) + "x" + std::to_string(t->size()->value());
  case TypeKind::Pair:
    return "pair_" + typeTag(t->first()) + "_" + typeTag(t->second());
  default:
    return std::string(scalarName(t->scalar()));
  }
}

/// The C spelling of a foreign parameter or result type, adding the
/// declarations it needs (vector typedefs, pair structs) to `decls` once.
std::string cTypeOf(const Type& t, std::vector<std::string>& decls) {
  auto declare = [&](const std::string& d) {
    if (std::find(decls.begin(), decls.end(), d) == decls.end())
      decls.push_back(d);
  };
  switch (t->kind()) {
  case TypeKind::Vec: {
    // the C back end's vector type (codegen/c/EmitVectors.h)
    ScalarKind k = t->elem()->scalar();
    std::int64_t w = t->size()->value();
    std::string name = "risec_" + std::string(scalarName(k)) + "x" + std::to_string(w);
    declare("typedef " + cType(k) + " " + name + " __attribute__((vector_size(" +
            std::to_string(w * scalarBits(k) / 8) + ")));");
    return name;
  }
  case TypeKind::Pair: {
    std::string a = cTypeOf(t->first(), decls), b = cTypeOf(t->second(), decls);
    std::string name = "struct " + typeTag(t);
    declare(name + " {\n  " + a + " fst;\n  " + b + " snd;\n};");
    return name;
  }
  default:
    return cType(t->scalar());
  }
}

/// The scalar leaves of a value of type `t` as C lvalues below `base`
/// (`a.snd.fst`, `v[2]`), with their kinds, in order (fst before snd, lanes
/// in order).
void leafPaths(const Type& t, const std::string& base,
               std::vector<std::pair<std::string, ScalarKind>>& out) {
  switch (t->kind()) {
  case TypeKind::Vec:
    for (std::int64_t i = 0; i < t->size()->value(); ++i)
      out.push_back({base + "[" + std::to_string(i) + "]", t->elem()->scalar()});
    break;
  case TypeKind::Pair:
    leafPaths(t->first(), base + ".fst", out);
    leafPaths(t->second(), base + ".snd", out);
    break;
  default:
    out.push_back({base, t->scalar()});
  }
}

/// The scalars of `v` (of type `t`) in the order of leafPaths.
void flatten(const Type& t, const Value& v, std::vector<ScalarValue>& out) {
  switch (t->kind()) {
  case TypeKind::Vec:
    for (const ScalarValue& s : v.lanes())
      out.push_back(s);
    break;
  case TypeKind::Pair:
    flatten(t->first(), v.first(), out);
    flatten(t->second(), v.second(), out);
    break;
  default:
    out.push_back(v.asScalar());
  }
}

// ---- marshalling: a scalar as the bytes of its C type ---------------------------

/// Room for any scalar's C representation.
constexpr std::size_t kSlotBytes = 8;
struct Slot {
  alignas(8) unsigned char bytes[kSlotBytes] = {};
};

template <class T> void put(Slot& s, T v) {
  std::memcpy(s.bytes, &v, sizeof v);
}
template <class T> T get(const Slot& s) {
  T v;
  std::memcpy(&v, s.bytes, sizeof v);
  return v;
}

Slot toC(const ScalarValue& v) {
  Slot s;
  switch (v.kind) {
  case ScalarKind::Bool:
    put<bool>(s, v.i != 0);
    break;
  case ScalarKind::I8:
    put(s, static_cast<std::int8_t>(v.i));
    break;
  case ScalarKind::I16:
    put(s, static_cast<std::int16_t>(v.i));
    break;
  case ScalarKind::I32:
    put(s, static_cast<std::int32_t>(v.i));
    break;
  case ScalarKind::I64:
  case ScalarKind::NatType:
    put(s, v.i);
    break;
  case ScalarKind::U8:
    put(s, static_cast<std::uint8_t>(v.u));
    break;
  case ScalarKind::U16:
    put(s, static_cast<std::uint16_t>(v.u));
    break;
  case ScalarKind::U32:
    put(s, static_cast<std::uint32_t>(v.u));
    break;
  case ScalarKind::U64:
    put(s, v.u);
    break;
  case ScalarKind::F32:
    put(s, static_cast<float>(v.f));
    break;
  case ScalarKind::F64:
    put(s, v.f);
    break;
  }
  return s;
}

ScalarValue fromC(const Slot& s, ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool:
    return ScalarValue::makeBool(get<bool>(s));
  case ScalarKind::I8:
    return ScalarValue::makeInt(k, get<std::int8_t>(s));
  case ScalarKind::I16:
    return ScalarValue::makeInt(k, get<std::int16_t>(s));
  case ScalarKind::I32:
    return ScalarValue::makeInt(k, get<std::int32_t>(s));
  case ScalarKind::I64:
  case ScalarKind::NatType:
    return ScalarValue::makeInt(k, get<std::int64_t>(s));
  case ScalarKind::U8:
    return ScalarValue::makeUInt(k, get<std::uint8_t>(s));
  case ScalarKind::U16:
    return ScalarValue::makeUInt(k, get<std::uint16_t>(s));
  case ScalarKind::U32:
    return ScalarValue::makeUInt(k, get<std::uint32_t>(s));
  case ScalarKind::U64:
    return ScalarValue::makeUInt(k, get<std::uint64_t>(s));
  case ScalarKind::F32:
    return ScalarValue::makeFloat(k, get<float>(s));
  case ScalarKind::F64:
    return ScalarValue::makeFloat(k, get<double>(s));
  }
  throw InternalError("bad scalar kind");
}

// ---- compiling and loading --------------------------------------------------------

/// A fresh private directory (mkdtemp), removed by the destructor.
class TempDir {
public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "risec-foreign-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
      throw InternalError("cannot create a temporary directory from " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

private:
  fs::path path_;
};

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The first line of the compiler's output that reports an error.
std::string firstErrorLine(const std::string& log) {
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line))
    if (line.find("error") != std::string::npos)
      return line;
  return log.empty() ? "the C compiler failed without a message" : log.substr(0, log.find('\n'));
}

/// Compiles `source` to a shared library and loads its wrapper.
WrapperFn compileAndLoad(const ForeignDecl& d, const std::string& source) {
  TempDir dir;
  fs::path c = dir.path() / "foreign.c", so = dir.path() / "foreign.so",
           log = dir.path() / "log.txt";
  std::ofstream(c) << source;
  const char* cc = std::getenv("CC");
  // LC_ALL=C: plain ASCII diagnostics. The paths come from mkdtemp, so they
  // need no quoting beyond the single quotes.
  std::string command = std::string("LC_ALL=C ") + (cc && *cc ? cc : "cc") +
                        " -std=c11 -O1 -shared -fPIC -o '" + so.string() + "' '" + c.string() +
                        "' -lm > '" + log.string() + "' 2>&1";
  if (std::system(command.c_str()) != 0)
    runtimeError(errc::kForeignCompile, d.loc,
                 "foreign function `" + d.name +
                     "` does not compile: " + firstErrorLine(readFile(log)));
  void* handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    runtimeError(errc::kForeignLoad, d.loc,
                 "foreign function `" + d.name + "` cannot be loaded: " + dlerror());
  void* symbol = dlsym(handle, kWrapperName);
  if (!symbol)
    runtimeError(errc::kForeignLoad, d.loc,
                 "foreign function `" + d.name + "` cannot be loaded: no " + kWrapperName);
  // The library stays loaded for the rest of the process (it is cached).
  return reinterpret_cast<WrapperFn>(symbol);
}

/// The loaded wrapper for `d`, compiling it on first use.
WrapperFn wrapperFor(const ForeignDecl& d) {
  static std::mutex mutex;
  static std::map<std::string, WrapperFn> cache; // keyed by the C source
  std::string source = foreignSource(d);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(source);
  if (it != cache.end())
    return it->second;
  WrapperFn fn = compileAndLoad(d, source);
  cache.emplace(source, fn);
  return fn;
}

} // namespace

std::string foreignSource(const ForeignDecl& d) {
  checkForeignSignature(d);
  std::vector<std::string> decls;
  std::string result = cTypeOf(d.result, decls);
  std::string params, unpack, callArgs;
  std::size_t slot = 0;
  for (std::size_t i = 0; i < d.params.size(); ++i) {
    const auto& [name, type] = d.params[i];
    std::string t = cTypeOf(type, decls), local = "risec_a" + std::to_string(i);
    params += (i ? ", " : "") + t + " " + name;
    callArgs += (i ? ", " : "") + local;
    unpack += "  " + t + " " + local + ";\n";
    std::vector<std::pair<std::string, ScalarKind>> leaves;
    leafPaths(type, local, leaves);
    for (const auto& [path, k] : leaves)
      unpack +=
          "  " + path + " = *(const " + cType(k) + "*)args[" + std::to_string(slot++) + "];\n";
  }
  std::vector<std::pair<std::string, ScalarKind>> out;
  leafPaths(d.result, "risec_r", out);
  std::string pack;
  for (std::size_t i = 0; i < out.size(); ++i)
    pack += "  *(" + cType(out[i].second) + "*)(risec_out + " + std::to_string(i * kSlotBytes) +
            ") = " + out[i].first + ";\n";
  std::string s = "#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n\n";
  for (const std::string& decl : decls)
    s += decl + "\n";
  if (!decls.empty())
    s += "\n";
  s += "static " + result + " " + d.name + "(" + (params.empty() ? "void" : params) + ") {\n";
  // Errors in the body are reported relative to the body's own lines.
  s += "#line 1 \"" + d.name + "\"\n" + d.body + "\n}\n\n";
  // The wrapper: args[k] points to the k-th scalar of the arguments (in the
  // order of leafPaths), the k-th scalar of the result goes to result + 8 k.
  s += "#line 1 \"risec-foreign-wrapper\"\n";
  s += "void " + std::string(kWrapperName) + "(const void* const* args, void* result) {\n";
  s += "  (void)args;\n";
  s += unpack;
  s += "  " + result + " risec_r = " + d.name + "(" + callArgs + ");\n";
  s += "  unsigned char* risec_out = (unsigned char*)result;\n";
  s += pack + "}\n";
  return s;
}

Value callForeign(const ForeignDecl& d, const std::vector<Value>& args) {
  if (args.size() != d.params.size())
    throw InternalError("foreign function `" + d.name + "` called with the wrong argument count");
  WrapperFn fn = wrapperFor(d);
  std::vector<ScalarValue> scalars;
  for (std::size_t i = 0; i < args.size(); ++i)
    flatten(d.params[i].second, args[i], scalars);
  std::vector<Slot> slots;
  slots.reserve(scalars.size());
  for (const ScalarValue& v : scalars)
    slots.push_back(toC(v));
  std::vector<const void*> pointers;
  for (const Slot& s : slots)
    pointers.push_back(s.bytes);
  std::vector<std::pair<std::string, ScalarKind>> leaves;
  leafPaths(d.result, "r", leaves);
  std::vector<Slot> result(leaves.size());
  fn(pointers.data(), result.data());
  std::size_t next = 0;
  std::function<Value(const Type&)> rebuild = [&](const Type& t) -> Value {
    switch (t->kind()) {
    case TypeKind::Vec: {
      std::vector<ScalarValue> lanes;
      for (std::int64_t i = 0; i < t->size()->value(); ++i)
        lanes.push_back(fromC(result[next++], t->elem()->scalar()));
      return Value::vector(std::move(lanes));
    }
    case TypeKind::Pair: {
      Value a = rebuild(t->first());
      Value b = rebuild(t->second());
      return Value::pair(std::move(a), std::move(b));
    }
    default:
      return Value::scalar(fromC(result[next++], t->scalar()));
    }
  };
  return rebuild(d.result);
}

} // namespace risec::rise::interp
