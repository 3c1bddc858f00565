#include "tune/Measure.h"

#include "support/Diagnostic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>

#include <dlfcn.h>
#include <sys/wait.h>

namespace risec::tune {

using namespace risec::rise;
namespace fs = std::filesystem;

std::string defaultCompiler() {
  const char* cc = std::getenv("CC");
  return cc && *cc ? cc : "cc";
}

namespace {

std::size_t elemSize(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool:
  case ScalarKind::I8:
  case ScalarKind::U8:
    return 1;
  case ScalarKind::I16:
  case ScalarKind::U16:
    return 2;
  case ScalarKind::I32:
  case ScalarKind::U32:
  case ScalarKind::F32:
  case ScalarKind::NatType: // `int` in the ABI
    return 4;
  default:
    return 8;
  }
}

template <typename T> void put(unsigned char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}
template <typename T> T get(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void store(ScalarKind k, unsigned char* p, double f, std::int64_t i, std::uint64_t u) {
  switch (k) {
  case ScalarKind::Bool:
    return put<std::uint8_t>(p, i != 0);
  case ScalarKind::I8:
    return put<std::int8_t>(p, static_cast<std::int8_t>(i));
  case ScalarKind::I16:
    return put<std::int16_t>(p, static_cast<std::int16_t>(i));
  case ScalarKind::I32:
  case ScalarKind::NatType:
    return put<std::int32_t>(p, static_cast<std::int32_t>(i));
  case ScalarKind::I64:
    return put<std::int64_t>(p, i);
  case ScalarKind::U8:
    return put<std::uint8_t>(p, static_cast<std::uint8_t>(u));
  case ScalarKind::U16:
    return put<std::uint16_t>(p, static_cast<std::uint16_t>(u));
  case ScalarKind::U32:
    return put<std::uint32_t>(p, static_cast<std::uint32_t>(u));
  case ScalarKind::U64:
    return put<std::uint64_t>(p, u);
  case ScalarKind::F32:
    return put<float>(p, static_cast<float>(f));
  case ScalarKind::F64:
    return put<double>(p, f);
  }
}

double load(ScalarKind k, const unsigned char* p) {
  switch (k) {
  case ScalarKind::Bool:
  case ScalarKind::U8:
    return get<std::uint8_t>(p);
  case ScalarKind::I8:
    return get<std::int8_t>(p);
  case ScalarKind::I16:
    return get<std::int16_t>(p);
  case ScalarKind::U16:
    return get<std::uint16_t>(p);
  case ScalarKind::I32:
  case ScalarKind::NatType:
    return get<std::int32_t>(p);
  case ScalarKind::U32:
    return get<std::uint32_t>(p);
  case ScalarKind::I64:
    return static_cast<double>(get<std::int64_t>(p));
  case ScalarKind::U64:
    return static_cast<double>(get<std::uint64_t>(p));
  case ScalarKind::F32:
    return get<float>(p);
  case ScalarKind::F64:
    return get<double>(p);
  }
  return 0;
}

/// The scalar kind of the elements of an ABI parameter (an index is an `int`).
ScalarKind elementKind(const codegen::AbiParam& p) {
  Type t = p.riseType;
  while (t->kind() == TypeKind::Array || t->kind() == TypeKind::Vec)
    t = t->elem();
  if (t->kind() == TypeKind::Index)
    return ScalarKind::NatType;
  if (t->kind() != TypeKind::Scalar)
    throw CompileError("E0836", {},
                       "`risec tune` passes arrays and scalars of numbers to a kernel; the "
                       "parameter `" +
                           p.name + "` has the element type `" + p.cType +
                           "` (pairs are not supported yet)");
  return t->scalar();
}

void flattenInto(const interp::Value& v, std::vector<double>& f, std::vector<ScalarValue>& s) {
  switch (v.kind()) {
  case interp::Value::Kind::Array:
    for (const interp::Value& e : v.elements())
      flattenInto(e, f, s);
    return;
  case interp::Value::Kind::Vector:
    for (const ScalarValue& l : v.lanes())
      s.push_back(l);
    return;
  case interp::Value::Kind::Index: {
    ScalarValue x = ScalarValue::makeInt(ScalarKind::I64, v.asIndex().value);
    s.push_back(x);
    return;
  }
  case interp::Value::Kind::Scalar:
    s.push_back(v.asScalar());
    return;
  default:
    throw CompileError("E0836", {},
                       "`risec tune` cannot pass the value " + interp::describeValue(v) +
                           " to a kernel (pairs are not supported yet)");
  }
}

std::vector<ScalarValue> scalarsOf(const interp::Value& v) {
  std::vector<double> unused;
  std::vector<ScalarValue> s;
  flattenInto(v, unused, s);
  return s;
}

std::int64_t countAt(const codegen::AbiParam& p, const std::map<std::string, std::int64_t>& sizes) {
  if (!p.array)
    return 1;
  auto n = natEvaluate(p.count, [&](const NatVarInfo& v) -> std::optional<std::int64_t> {
    auto it = sizes.find(v.name);
    if (it == sizes.end())
      return std::nullopt;
    return it->second;
  });
  if (!n)
    throw InternalError("tune: the element count of `" + p.name + "` does not evaluate");
  return *n;
}

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

int runShell(const std::string& cmd, std::string& output) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p)
    return -1;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
    output.append(buf, n);
  int status = ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// kernel_call.c: `risec_tune_call(outputs, sizes, inputs)` over the ABI.
std::string wrapperSource(const codegen::KernelAbi& abi) {
  std::string s = "/* risec tune: calls " + abi.symbol + " with buffers and sizes. */\n";
  s += "#include \"" + abi.symbol + ".h\"\n\n";
  s += "int risec_tune_call(void* const* out, const int* size, const void* const* in) {\n";
  s += "  return " + abi.symbol + "(";
  int o = 0, z = 0, i = 0;
  bool first = true;
  for (const codegen::AbiParam& p : abi.params) {
    s += first ? "" : ", ";
    first = false;
    switch (p.role) {
    case codegen::AbiParam::Role::Output:
      s += "(" + p.cType + "*)out[" + std::to_string(o++) + "]";
      break;
    case codegen::AbiParam::Role::Size:
      s += "size[" + std::to_string(z++) + "]";
      break;
    case codegen::AbiParam::Role::Input:
      if (p.array)
        s += "(const " + p.cType + "*)in[" + std::to_string(i++) + "]";
      else
        s += "*(const " + p.cType + "*)in[" + std::to_string(i++) + "]";
      break;
    case codegen::AbiParam::Role::Temporary:
      throw CompileError("E0836", {}, "`risec tune` runs c and openmp kernels only");
    }
  }
  return s + ");\n}\n";
}

} // namespace

LoadedKernel::LoadedKernel(const fs::path& dir, const codegen::c::CFiles& files,
                           const BuildSettings& settings)
    : abi_(files.abi) {
  for (const codegen::AbiParam& p : abi_.params)
    if (p.role != codegen::AbiParam::Role::Size)
      elementKind(p); // E0836 for what cannot be passed
  fs::create_directories(dir);
  const std::string sym = abi_.symbol;
  std::ofstream(dir / (sym + ".c")) << files.source;
  std::ofstream(dir / (sym + ".h")) << files.header;
  std::ofstream(dir / "kernel_call.c") << wrapperSource(abi_);
  const fs::path so = dir / "kernel.so";
  std::string cmd = shellQuote(settings.cc);
  for (const std::string& f : settings.flags)
    cmd += " " + shellQuote(f);
  cmd += " -fPIC -shared -I" + shellQuote(dir.string()) + " -o " + shellQuote(so.string()) + " " +
         shellQuote((dir / (sym + ".c")).string()) + " " +
         shellQuote((dir / "kernel_call.c").string());
  std::string log;
  if (runShell(cmd, log) != 0)
    throw BuildFailure(cmd + "\n" + log);
  handle_ = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!handle_)
    throw BuildFailure(std::string("dlopen: ") + ::dlerror());
  call_ = reinterpret_cast<CallFn>(::dlsym(handle_, "risec_tune_call"));
  if (!call_)
    throw BuildFailure("dlsym: no risec_tune_call in " + so.string());
}

// RTLD_NODELETE: an OpenMP kernel's libgomp worker threads outlive the
// calls, so neither the object nor libgomp may be unmapped at dlclose.
LoadedKernel::~LoadedKernel() {
  if (handle_)
    ::dlclose(handle_);
}

void LoadedKernel::makeBuffers(const std::map<std::string, std::int64_t>& sizes,
                               std::vector<Buffer>& inputs, std::vector<Buffer>& outputs) const {
  inputs.clear();
  outputs.clear();
  std::mt19937_64 rng(42);
  for (const codegen::AbiParam& p : abi_.params) {
    if (p.role == codegen::AbiParam::Role::Size)
      continue;
    Buffer b;
    b.kind = elementKind(p);
    b.count = static_cast<std::size_t>(countAt(p, sizes));
    b.bytes.assign(b.count * elemSize(b.kind) + 64, 0);
    if (p.role == codegen::AbiParam::Role::Input) {
      for (std::size_t k = 0; k < b.count; ++k) {
        std::uint64_t r = rng();
        double f = static_cast<double>(r >> 11) / 9007199254740992.0 * 2.0 - 1.0; // [-1, 1)
        std::int64_t i = static_cast<std::int64_t>(r % 17) - 8;
        store(b.kind, b.bytes.data() + k * elemSize(b.kind), f, i, r % 17);
      }
      inputs.push_back(std::move(b));
    } else {
      outputs.push_back(std::move(b));
    }
  }
}

int LoadedKernel::call(const std::map<std::string, std::int64_t>& sizes,
                       const std::vector<Buffer>& inputs, std::vector<Buffer>& outputs) const {
  std::vector<int> sz;
  for (const codegen::AbiParam* p : abi_.withRole(codegen::AbiParam::Role::Size))
    sz.push_back(static_cast<int>(sizes.at(p->riseName)));
  std::vector<void*> out;
  for (Buffer& b : outputs)
    out.push_back(b.bytes.data());
  std::vector<const void*> in;
  for (const Buffer& b : inputs)
    in.push_back(b.bytes.data());
  sz.push_back(0); // never an empty array
  return call_(out.data(), sz.data(), in.data());
}

Buffer toBuffer(ScalarKind kind, const interp::Value& v) {
  std::vector<ScalarValue> s = scalarsOf(v);
  Buffer b;
  b.kind = kind;
  b.count = s.size();
  b.bytes.assign(b.count * elemSize(kind) + 64, 0);
  for (std::size_t k = 0; k < s.size(); ++k) {
    const ScalarValue& x = s[k];
    double f = x.asDouble();
    std::int64_t i = isUnsignedInt(x.kind) ? static_cast<std::int64_t>(x.u) : x.asInt();
    std::uint64_t u = isUnsignedInt(x.kind) ? x.u : static_cast<std::uint64_t>(i);
    store(kind, b.bytes.data() + k * elemSize(kind), f, i, u);
  }
  return b;
}

bool matches(const interp::Value& expected, const Buffer& actual, std::string& why) {
  std::vector<ScalarValue> s = scalarsOf(expected);
  if (s.size() != actual.count) {
    why = "the output has " + std::to_string(actual.count) + " elements, the interpreter's " +
          std::to_string(s.size());
    return false;
  }
  for (std::size_t k = 0; k < s.size(); ++k) {
    double want = s[k].asDouble();
    double got = load(actual.kind, actual.bytes.data() + k * elemSize(actual.kind));
    bool ok = isFloat(actual.kind) ? std::fabs(got - want) <= 1e-4 + 1e-4 * std::fabs(want) ||
                                         (std::isnan(got) && std::isnan(want))
                                   : got == want;
    if (!ok) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "element %zu is %.9g, the interpreter computes %.9g", k, got,
                    want);
      why = buf;
      return false;
    }
  }
  return true;
}

CheckOutcome
checkAgainstInterpreter(const LoadedKernel& k, const TypedDef& def,
                        const std::vector<std::map<std::string, std::int64_t>>& sizeSets,
                        std::uint64_t seed) {
  CheckOutcome out;
  out.detail = "no check size admitted by the requirements";
  for (const auto& sizes : sizeSets) {
    interp::EntryInterface iface = interp::instantiateEntry(def, sizes);
    std::mt19937_64 rng(seed);
    std::vector<interp::Value> values;
    for (const Type& t : iface.inputTypes)
      values.push_back(interp::randomValue(t, rng));
    std::vector<Buffer> inputs, outputs, unusedInputs;
    k.makeBuffers(sizes, unusedInputs, outputs);
    std::size_t j = 0;
    for (const codegen::AbiParam& p : k.abi().params)
      if (p.role == codegen::AbiParam::Role::Input)
        inputs.push_back(toBuffer(elementKind(p), values.at(j++)));
    int rc = k.call(sizes, inputs, outputs);
    if (rc != 0) {
      if (out.status != CheckOutcome::Status::Correct)
        out.detail = "the kernel returns " + std::to_string(rc) + " at every check size it admits";
      continue;
    }
    if (out.status != CheckOutcome::Status::Correct)
      out.sizes = sizes; // the first size it ran at, for the log
    interp::Value expected = interp::evaluate(def, sizes, values);
    std::string why;
    if (outputs.size() != 1 || !matches(expected, outputs[0], why)) {
      out.status = CheckOutcome::Status::Wrong;
      out.sizes = sizes;
      out.detail = why.empty() ? "unexpected outputs" : why;
      return out;
    }
    ++out.checked;
    out.status = CheckOutcome::Status::Correct;
    out.detail.clear();
  }
  return out;
}

double timeKernel(const LoadedKernel& k, const std::map<std::string, std::int64_t>& sizes,
                  int runs) {
  std::vector<Buffer> inputs, outputs;
  k.makeBuffers(sizes, inputs, outputs);
  auto t0 = std::chrono::steady_clock::now();
  if (k.call(sizes, inputs, outputs) != 0) // warm-up
    return -1;
  double once = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Short kernels are repeated so that one timed run lasts about 20 ms.
  const int reps = static_cast<int>(std::clamp(0.02 / std::max(once, 1e-9), 1.0, 100000.0));
  double best = 1e300;
  for (int r = 0; r < runs; ++r) {
    t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i)
      k.call(sizes, inputs, outputs);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
    best = std::min(best, s);
  }
  return best;
}

} // namespace risec::tune
