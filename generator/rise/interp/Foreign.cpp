#include "rise/interp/Foreign.h"

#include "rise/interp/RuntimeError.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace risec::rise::interp {

namespace {

namespace fs = std::filesystem;

using WrapperFn = void (*)(const void* const*, void*);
constexpr const char* kWrapperName = "risec_foreign_call";

[[noreturn]] void notScalar(const ForeignDecl& d, const std::string& what, const Type& t) {
  runtimeError(errc::kForeignCompile, d.loc,
               "foreign function `" + d.name + "`: " + what + " has the type " + typeToString(t) +
                   "; foreign functions take and return scalars");
}

ScalarKind scalarKindOf(const ForeignDecl& d, const std::string& what, const Type& t) {
  if (!t || t->kind() != TypeKind::Scalar)
    notScalar(d, what, t);
  return t->scalar();
}

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

// ---- marshalling: a scalar as the bytes of its C type ---------------------------

/// Room for any scalar's C representation.
struct Slot {
  alignas(8) unsigned char bytes[8] = {};
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
  std::string result = cType(scalarKindOf(d, "the result", d.result));
  std::string params, callArgs;
  for (std::size_t i = 0; i < d.params.size(); ++i) {
    const auto& [name, type] = d.params[i];
    std::string t = cType(scalarKindOf(d, "parameter `" + name + "`", type));
    params += (i ? ", " : "") + t + " " + name;
    callArgs += std::string(i ? ", " : "") + "*(const " + t + "*)args[" + std::to_string(i) + "]";
  }
  std::string s = "#include <math.h>\n#include <stdbool.h>\n#include <stdint.h>\n\n";
  s += "static " + result + " " + d.name + "(" + (params.empty() ? "void" : params) + ") {\n";
  // Errors in the body are reported relative to the body's own lines.
  s += "#line 1 \"" + d.name + "\"\n" + d.body + "\n}\n\n";
  s += "void " + std::string(kWrapperName) + "(const void* const* args, void* result) {\n";
  s += "  (void)args;\n";
  s += "  *(" + result + "*)result = " + d.name + "(" + callArgs + ");\n}\n";
  return s;
}

ScalarValue callForeign(const ForeignDecl& d, const std::vector<ScalarValue>& args) {
  if (args.size() != d.params.size())
    throw InternalError("foreign function `" + d.name + "` called with the wrong argument count");
  WrapperFn fn = wrapperFor(d);
  std::vector<Slot> slots;
  std::vector<const void*> pointers;
  slots.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].kind != scalarKindOf(d, "a parameter", d.params[i].second))
      throw InternalError("foreign function `" + d.name + "` called with a " +
                          std::string(scalarName(args[i].kind)) + " argument");
    slots.push_back(toC(args[i]));
  }
  for (const Slot& s : slots)
    pointers.push_back(s.bytes);
  Slot result;
  fn(pointers.data(), result.bytes);
  return fromC(result, scalarKindOf(d, "the result", d.result));
}

} // namespace risec::rise::interp
